mod d {
    doctrine::doctrine!("override_locked.toml");
}

fn main() {}
