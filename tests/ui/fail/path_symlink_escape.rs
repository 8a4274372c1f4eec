mod d {
    doctrine::doctrine!("path_symlink_escape.toml");
}

fn main() {}
