mod d {
    doctrine::doctrine!("selector_misuse.toml");
}

fn main() {}
