mod d {
    doctrine::doctrine!("provenance_misuse.toml");
}

fn main() {}
