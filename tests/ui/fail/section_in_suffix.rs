mod d {
    doctrine::doctrine!("section_in_suffix.toml");
}

fn main() {}
