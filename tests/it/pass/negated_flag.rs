// `when = "!flag"` includes a layer when the flag is off: exactly one of the two layers
// appears, and explain says why the other one did not.
mod d {
    doctrine::doctrine!("negated_flag.toml");
}

#[test]
fn composes() {
    let quiet = d::compose().finish();
    assert_eq!(quiet.as_str(), "Answer in one line.");
    assert_eq!(
        quiet.sections()[1].state,
        doctrine::introspect::SectionState::Skipped(doctrine::introspect::Skip::FlagOff("verbose"))
    );
    let loud = d::compose().flag(d::Flag::Verbose, true).finish();
    assert_eq!(loud.as_str(), "Explain your reasoning step by step.");
    assert_eq!(
        loud.sections()[0].state,
        doctrine::introspect::SectionState::Skipped(doctrine::introspect::Skip::FlagOn("verbose"))
    );
}
