mod d {
    doctrine::doctrine!("unknown_role.toml");
}

fn main() {}
