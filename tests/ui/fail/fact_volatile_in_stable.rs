// A per-turn fact placed in a stable layer: every turn would miss the prompt cache.
mod d {
    doctrine::doctrine!("fact_volatile_in_stable.toml");
}

fn main() {}
