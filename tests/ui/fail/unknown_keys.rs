mod d {
    doctrine::doctrine!("unknown_keys.toml");
}

fn main() {}
