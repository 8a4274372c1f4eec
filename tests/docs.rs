//! The manifest reference has one source, `doctrine/docs/reference.md`: rustdoc shows it as
//! `doctrine::guide::reference`, and README.md carries a copy between markers that must
//! not drift from it.

#[test]
fn the_readme_carries_the_reference_verbatim() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let reference = std::fs::read_to_string(root.join("doctrine/docs/reference.md")).unwrap();
    let start = "<!-- reference:start -->\n";
    let end = "<!-- reference:end -->";
    let from = readme
        .find(start)
        .expect("README.md has a reference:start marker")
        + start.len();
    let to = readme
        .find(end)
        .expect("README.md has a reference:end marker");
    assert!(
        readme[from..to] == reference,
        "README.md's manifest reference differs from doctrine/docs/reference.md: copy the file \
         between the markers"
    );
}
