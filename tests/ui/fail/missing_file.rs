mod d {
    doctrine::doctrine!("missing_file.toml");
}

fn main() {}
