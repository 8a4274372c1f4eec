mod d {
    doctrine::doctrine!("role_without_file.toml");
}

fn main() {}
