mod d {
    doctrine::doctrine!("optional_choice.toml");
}

#[test]
fn composes() {
    assert_eq!(d::Team::NAMES, &["backend", "frontend"]);

    let none = d::compose(None).note(None).finish();
    assert_eq!(none.as_str(), "The base layer.");
    assert_eq!(none.layer("team"), None);

    let some = d::compose(Some(d::Team::Frontend)).note("Today.").finish();
    assert_eq!(some.as_str(), "The base layer.\nFrontend team.\nToday.");
    assert_eq!(some.stable(), "The base layer.\nFrontend team.");
    assert_eq!(some.volatile(), "Today.");
}
