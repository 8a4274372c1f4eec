mod d {
    doctrine::doctrine!("texts_misuse.toml");
}

fn main() {}
