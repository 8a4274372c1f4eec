mod d {
    doctrine::doctrine!("value_texts_misuse.toml");
}

fn main() {}
