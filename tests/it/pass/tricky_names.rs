// Names from the hostile-input review that must generate code that compiles and works.
mod d {
    doctrine::doctrine!("tricky_names.toml");
}

#[test]
fn composes() {
    assert_eq!(d::Role::NAMES, &["Err", "Some", "None", "OPTIONAL"]);
    assert_eq!(d::OPTIONALFacts::REQUIRED, &["every"]);
    assert_eq!(d::S::NAMES, &["String", "Vec"]);
    let facts = d::SomeFacts {
        every: d::Every::All,
    };
    let p = d::compose(facts, d::S::Vec, Some(d::Option::Result))
        .knobs(d::Knobs {
            result: d::Result::Default,
        })
        .finish();
    assert_eq!(
        p.as_str(),
        "Short S.\n\nSome option.\n\nKnob Default, fact all."
    );
    let facts = d::ErrFacts {
        every: d::Every::Names,
    };
    let p = d::compose(facts, d::S::String, None).finish();
    assert_eq!(p.as_str(), "Long S.\n\nKnob Ok, fact names.");
    let facts = d::OPTIONALFacts {
        every: d::Every::REQUIRED,
    };
    let p = d::compose(facts, d::S::String, None).finish();
    assert_eq!(p.as_str(), "Long S.\n\nKnob Ok, fact REQUIRED.");
}
