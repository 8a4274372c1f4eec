mod d {
    doctrine::doctrine!("single_file.toml");
}

#[test]
fn composes() {
    let p = d::compose().finish();
    // No trim: the file's final newline is kept byte for byte.
    assert_eq!(p.as_str(), "The base layer.\n");
    assert_eq!(p.stable(), "The base layer.\n");
    assert_eq!(p.volatile(), "");
    assert_eq!(d::text::BASE, "The base layer.\n");
    assert_eq!(d::sources::BASE.path, "tests/it/pass/files/base.md");
    assert_eq!(d::LAYER_COUNT, 1);
}
