mod d {
    doctrine::doctrine!("selector_follows.toml");
}

fn main() {}
