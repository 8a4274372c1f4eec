// An optional fact printed by a layer that does not check it is there.
mod d {
    doctrine::doctrine!("fact_optional_ungated.toml");
}

fn main() {}
