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

/// Every key the manifest reader accepts is in the reference, written as a key
/// (`` `key` ``, `key = `, or a table header such as `[facts.NAME]`), so a key added to the
/// reader without a line in the reference fails here.
#[test]
fn the_reference_documents_every_manifest_key() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let reference = std::fs::read_to_string(root.join("doctrine/docs/reference.md")).unwrap();
    let mut missing = Vec::new();
    for (table, keys) in doctrine_core::codegen::__internals::MANIFEST_KEYS {
        for key in *keys {
            let forms = [
                format!("`{key}`"),
                format!("`{key} = "),
                format!(" {key} = "),
                format!("[{key}]"),
                format!("[{key}."),
                format!("[[{key}]]"),
                format!(".{key}]"),
            ];
            if !forms.iter().any(|f| reference.contains(f.as_str())) {
                missing.push(format!("{table}: `{key}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "doctrine/docs/reference.md (and README.md) do not document: {missing:?}"
    );
}

/// The `manifest` fuzz target's dictionary names every manifest key (as `"key = "`), so a
/// new key is fuzzed from the start rather than found by chance.
#[test]
fn the_fuzz_dictionary_has_every_manifest_key() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dict = std::fs::read_to_string(root.join("fuzz/manifest.dict")).unwrap();
    let mut missing = Vec::new();
    for (table, keys) in doctrine_core::codegen::__internals::MANIFEST_KEYS {
        for key in *keys {
            if !dict.contains(&format!("\"{key} = \"")) {
                missing.push(format!("{table}: `{key}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "fuzz/manifest.dict has no `\"KEY = \"` entry for: {missing:?}"
    );
}
