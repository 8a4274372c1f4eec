mod d {
    doctrine::doctrine!("several_errors.toml");
}

fn main() {}
