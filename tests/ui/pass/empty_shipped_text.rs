// After an empty shipped text, neither the suffix nor an appended overlay starts with a
// separator.
mod d {
    doctrine::doctrine!("empty_shipped_text.toml");
}

fn main() {
    let overlay = d::Overlay { notes: "User note.".into() };
    let a = d::compose(d::Role::A).overlay(&overlay).finish();
    assert_eq!(a.as_str(), "## Notes\n\nPace: calm.\n\nUser note.");
    let b = d::compose(d::Role::B).overlay(&overlay).finish();
    assert_eq!(b.as_str(), "## Notes\n\nShipped.\n\nPace: calm.\n\nUser note.");
}
