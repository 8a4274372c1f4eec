// The generated API, named throughout: what each skeleton case compiles against the
// module the macro emits beside its manifest's error.
fn main() {
    let facts = d::Facts::builder(d::Role::Developer)
        .with_repo("acme/billing")
        .build();
    let overlay = d::Overlay::default();
    let prompt = d::compose(d::DeveloperFacts { repo: "acme/billing" }, d::Team::Backend)
        .flag(d::Flag::Fable, true)
        .knobs(d::Knobs { pace: d::Pace::Brisk })
        .overlay(&overlay)
        .task("Fix the build.")
        .finish();
    assert!(prompt.stable().len() <= prompt.as_str().len());
    assert_eq!(d::LAYERS.len(), 4);
    assert_eq!(d::Combination::all().count(), 8);
    drop(facts);
}
