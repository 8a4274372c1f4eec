mod d {
    doctrine::doctrine!("path_absolute.toml");
}

fn main() {}
