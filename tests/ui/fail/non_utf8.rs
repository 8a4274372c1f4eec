mod d {
    doctrine::doctrine!("non_utf8.toml");
}

fn main() {}
