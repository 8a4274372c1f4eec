// The module emitted beside a manifest's error is checked like any other: here the
// builder's type shows in rustc's message for a mismatch, where without that module rustc
// would say nothing about a path into it.
mod d {
    doctrine::doctrine!("skeleton/scope.toml");
}

fn main() {
    let facts = d::DeveloperFacts { repo: "acme/billing" };
    let _: () = d::compose(facts, d::Team::Backend);
}
