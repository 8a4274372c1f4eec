mod d {
    doctrine::doctrine!("family_never_matches.toml");
}

fn main() {}
