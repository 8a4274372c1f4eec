mod d {
    doctrine::doctrine!("fact_defaults.toml");
}

fn main() {}
