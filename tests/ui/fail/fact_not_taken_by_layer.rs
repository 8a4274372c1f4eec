// A layer in scope for a mode that does not take the fact it prints.
mod d {
    doctrine::doctrine!("fact_not_taken_by_layer.toml");
}

fn main() {}
