mod d {
    doctrine::doctrine!("skills_frontmatter.toml");
}

fn main() {}
