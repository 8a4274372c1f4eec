mod d {
    doctrine::doctrine!("volatile_before_stable.toml");
}

fn main() {}
