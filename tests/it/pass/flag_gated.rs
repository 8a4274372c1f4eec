mod d {
    doctrine::doctrine!("flag_gated.toml");
}

#[test]
fn composes() {
    assert_eq!(d::Flags::default(), d::Flags { fable: false });

    let off = d::compose().finish();
    assert_eq!(off.as_str(), "The base layer.\n\n---\n\nThe end.");
    assert_eq!(off.layer("fable"), None);

    let on = d::compose().flag(d::Flag::Fable, true).finish();
    assert_eq!(
        on.as_str(),
        "The base layer.\n\n---\n\nFable doctrine.\n\n---\n\nThe end."
    );
    let on2 = d::compose().flags(d::Flags { fable: true }).finish();
    assert_eq!(on2.as_str(), on.as_str());
}
