mod d {
    doctrine::doctrine!("overlay_append.toml");
}

#[test]
fn composes() {
    assert_eq!(d::Overlay::FIELDS, &["tools_more"]);

    let shipped = d::compose().finish();
    assert_eq!(
        shipped.as_str(),
        "The tool policy.\nUse the tools.\n\n---\n\nNever run rm -rf."
    );

    // An empty overlay field leaves the shipped text intact.
    let empty = d::Overlay::default();
    assert_eq!(
        d::compose().overlay(&empty).finish().as_str(),
        shipped.as_str()
    );

    let o = d::Overlay {
        tools_more: "Also use the linter.".to_string(),
    };
    let p = d::compose().overlay(&o).finish();
    assert_eq!(
        p.as_str(),
        "The tool policy.\nUse the tools.\nAlso use the linter.\n\n---\n\nNever run rm -rf."
    );
    assert_eq!(
        p.layer("tool_policy"),
        Some("The tool policy.\nUse the tools.\nAlso use the linter.")
    );
}
