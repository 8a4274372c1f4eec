// A provenance template without {scope}.
mod d {
    doctrine::doctrine!("provenance_without_scope.toml");
}

fn main() {}
