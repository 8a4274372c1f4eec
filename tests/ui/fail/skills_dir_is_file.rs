mod d {
    doctrine::doctrine!("skills_dir_is_file.toml");
}

fn main() {}
