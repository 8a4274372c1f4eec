mod d {
    doctrine::doctrine!("roles_texts.toml");
}

use std::str::FromStr;

#[test]
fn composes() {
    assert_eq!(d::Role::NAMES, &["developer", "reviewer", "qa"]);
    assert_eq!(d::Role::from_str("qa").unwrap(), d::Role::Qa);
    assert!(d::Role::from_str("ghost").is_err());

    let dev = d::compose(d::Role::Developer).finish();
    assert_eq!(dev.as_str(), "The base layer.\n--\nBuild it.");
    let reviewer = d::compose(d::Role::Reviewer).finish();
    assert_eq!(reviewer.as_str(), "The base layer.\n--\nCheck it.");
    let qa = d::compose(d::Role::Qa).finish();
    assert_eq!(qa.as_str(), reviewer.as_str());
    assert_eq!(qa.layer("role"), Some("Check it."));
}
