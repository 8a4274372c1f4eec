// Misuse: mode `exec` requires fact `pack`; leaving it out does not compile.
mod d {
    doctrine::doctrine!("facts.toml");
}

fn main() {
    let facts = d::ExecFacts { root: "/repo", today: None };
    let _ = d::compose(facts).finish();
}
