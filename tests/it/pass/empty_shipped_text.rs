// An empty shipped text drops its suffix (the suffix belongs to the text), and an appended
// overlay does not start with a separator; with no overlay the layer is left out whole.
mod d {
    doctrine::doctrine!("empty_shipped_text.toml");
}

#[test]
fn composes() {
    let overlay = d::Overlay {
        notes: "User note.".into(),
    };
    let a = d::compose(d::Role::A).overlay(&overlay).finish();
    assert_eq!(a.as_str(), "## Notes\n\nUser note.");
    assert_eq!(d::compose(d::Role::A).finish().as_str(), "");
    let b = d::compose(d::Role::B).overlay(&overlay).finish();
    assert_eq!(
        b.as_str(),
        "## Notes\n\nShipped.\n\nPace: calm.\n\nUser note."
    );
}
