mod d {
    doctrine::doctrine!("skills_missing_dir.toml");
}

fn main() {}
