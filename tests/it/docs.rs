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
    for (table, keys) in doctrine_codegen::__internals::MANIFEST_KEYS {
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
    for (table, keys) in doctrine_codegen::__internals::MANIFEST_KEYS {
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

/// The packaged docs list every example of the repository (and no example that is gone), so
/// a reader of docs.rs can find each one in a checkout.
#[test]
fn the_overview_lists_every_example() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let overview = std::fs::read_to_string(root.join("doctrine/docs/overview.md")).unwrap();
    let section = overview.split("# Examples\n").nth(1).unwrap();
    let section = section.split("\n# ").next().unwrap();
    let listed: std::collections::BTreeSet<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("- `")?.split('`').next())
        .collect();
    let present: std::collections::BTreeSet<String> = std::fs::read_dir(root.join("examples"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().join("main.rs").is_file())
        .map(|e| e.file_name().into_string().unwrap())
        .collect();
    let present: std::collections::BTreeSet<&str> = present.iter().map(String::as_str).collect();
    assert_eq!(listed, present, "doctrine/docs/overview.md, \"# Examples\"");
}

/// Every published crate says where its documentation is and has a homepage, so
/// `cargo package` has nothing to warn about and crates.io links somewhere.
#[test]
fn every_published_crate_names_its_documentation() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for krate in ["doctrine", "doctrine-core", "doctrine-macros"] {
        let manifest = std::fs::read_to_string(root.join(krate).join("Cargo.toml")).unwrap();
        for key in ["documentation", "homepage"] {
            assert!(
                manifest
                    .lines()
                    .any(|l| l.starts_with(&format!("{key} = \"https://"))),
                "{krate}/Cargo.toml has no `{key}`"
            );
        }
    }
}

/// The reference's two tables of keys, the top level's and `[[layer]]`'s, have one row
/// per key the reader declares for that table, and no row for a key it does not: a key
/// added, renamed or removed on one side only fails here.
#[test]
fn the_reference_rows_are_the_declared_keys() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let reference = std::fs::read_to_string(root.join("doctrine/docs/reference.md")).unwrap();
    let declared = |table: &str| {
        let (_, keys) = doctrine_codegen::__internals::MANIFEST_KEYS
            .iter()
            .find(|(t, _)| *t == table)
            .unwrap();
        let mut keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        keys.sort();
        keys
    };
    for (heading, table, prefix) in [
        ("Top-level keys:", "top level", ""),
        ("Layer keys (`[[layer]]`):", "[[layer]]", "layer."),
    ] {
        let (_, rest) = reference.split_once(heading).unwrap();
        // The table's rows: from its header to the first line that is not a row.
        let rows = rest.lines().skip_while(|l| !l.starts_with('|')).skip(2);
        let mut documented = Vec::new();
        for row in rows.take_while(|l| l.starts_with('|')) {
            let cell = row.split('|').nth(1).unwrap();
            // "`roles` (or `modes`)", "`[facts.NAME]`", "`[[layer]]`", "`[layer.suffix]`".
            for key in cell.split('`').skip(1).step_by(2) {
                let key = key.trim_start_matches('[').trim_end_matches(']');
                let key = key.strip_prefix(prefix).unwrap_or(key);
                documented.push(key.split('.').next().unwrap().to_string());
            }
        }
        documented.sort();
        assert_eq!(
            documented,
            declared(table),
            "the rows of {heading:?} in doctrine/docs/reference.md (left) are not the keys declared for `{table}` (right)"
        );
    }
}
