mod d {
    doctrine::doctrine!("selector_cycle.toml");
}

fn main() {}
