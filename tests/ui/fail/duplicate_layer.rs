mod d {
    doctrine::doctrine!("duplicate_layer.toml");
}

fn main() {}
