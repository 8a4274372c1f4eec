// Misuse: mode `chat` does not take fact `pack`; giving it does not compile.
mod d {
    doctrine::doctrine!("facts.toml");
}

fn main() {
    let facts = d::ChatFacts { root: "/repo", pack: "{}", today: None };
    let _ = d::compose(facts).finish();
}
