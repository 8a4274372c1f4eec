mod d {
    doctrine::doctrine!("unclosed_frontmatter.toml");
}

fn main() {}
