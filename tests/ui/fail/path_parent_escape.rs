mod d {
    doctrine::doctrine!("path_parent_escape.toml");
}

fn main() {}
