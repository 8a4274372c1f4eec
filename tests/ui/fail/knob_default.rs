mod d {
    doctrine::doctrine!("knob_default.toml");
}

fn main() {}
