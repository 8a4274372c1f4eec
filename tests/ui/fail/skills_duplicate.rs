mod d {
    doctrine::doctrine!("skills_duplicate.toml");
}

fn main() {}
