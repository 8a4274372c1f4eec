mod d {
    doctrine::doctrine!("knob_default_cascade.toml");
}

fn main() {}
