mod d {
    doctrine::doctrine!("suffix_unknown_knob.toml");
}

fn main() {}
