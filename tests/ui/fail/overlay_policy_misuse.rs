mod d {
    doctrine::doctrine!("overlay_policy_misuse.toml");
}

fn main() {}
