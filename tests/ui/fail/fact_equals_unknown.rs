// `equals` with a value outside the fact's closed set.
mod d {
    doctrine::doctrine!("fact_equals_unknown.toml");
}

fn main() {}
