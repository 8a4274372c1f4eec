mod d {
    doctrine::doctrine!("skill_too_long.toml");
}

fn main() {}
