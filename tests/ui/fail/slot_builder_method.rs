mod d {
    doctrine::doctrine!("slot_builder_method.toml");
}

fn main() {}
