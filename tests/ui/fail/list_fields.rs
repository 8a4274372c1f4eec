mod d {
    doctrine::doctrine!("list_fields.toml");
}

fn main() {}
