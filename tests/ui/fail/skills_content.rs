mod d {
    doctrine::doctrine!("skills_content.toml");
}

fn main() {}
