// A condition naming both a flag and a fact must say which.
mod d {
    doctrine::doctrine!("gate_ambiguous.toml");
}

fn main() {}
