mod d {
    doctrine::doctrine!("toml_syntax.toml");
}

fn main() {}
