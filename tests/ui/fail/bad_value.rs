mod d {
    doctrine::doctrine!("bad_value.toml");
}

fn main() {}
