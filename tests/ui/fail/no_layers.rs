mod d {
    doctrine::doctrine!("no_layers.toml");
}

fn main() {}
