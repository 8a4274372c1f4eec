//! The manifest reference has one source, `doctrine/docs/reference.md` (rustdoc shows it as
//! `doctrine::guide::reference`): a table of one-line cells, each key linking to the guide
//! section that explains it. README.md links to it and stays short.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

/// The README holds what a newcomer needs and links to the guide for the rest.
#[test]
fn the_readme_is_at_most_300_lines_and_links_to_the_reference() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines: move detail into a guide page (doctrine/docs/)"
    );
    assert!(readme.contains("(doctrine/docs/reference.md)"));
}

/// The id rustdoc (and GitHub) gives a heading: its letters, digits, `-` and `_`
/// lowercased, each space a `-`, the rest dropped; a repeat gets `-1`, `-2`….
pub(crate) fn heading_ids(page: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in page.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        let Some(text) = line.strip_prefix('#').filter(|_| !fenced) else {
            continue;
        };
        let text = text.trim_start_matches('#');
        if !text.starts_with(' ') {
            continue;
        }
        let slug: String = text
            .trim()
            .chars()
            .filter_map(|c| match c {
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
                c if c.is_whitespace() => Some('-'),
                _ => None,
            })
            .collect();
        let repeats = ids
            .iter()
            .filter(|i| {
                **i == slug
                    || i.strip_prefix(&format!("{slug}-"))
                        .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .count();
        ids.push(if repeats == 0 {
            slug
        } else {
            format!("{slug}-{repeats}")
        });
    }
    ids
}

/// Every row of the reference's tables is one short line, and each key (each row of the
/// table of keys inside tables) links to a section of a guide page that exists.
#[test]
fn every_reference_row_is_one_line_linking_to_a_guide_section() {
    let reference = read("doctrine/docs/reference.md");
    let mut problems = Vec::new();
    let rows = reference
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| key") && !l.starts_with("| table"));
    let mut count = 0;
    for row in rows {
        count += 1;
        let meaning = row.trim_end_matches('|').rsplit(" | ").next().unwrap_or("");
        // The meaning as read: a link's text without its label.
        let shown = meaning
            .split("][")
            .map(|p| p.split_once(']').map_or(p, |(_, rest)| rest))
            .collect::<String>();
        if shown.chars().count() > 160 {
            problems.push(format!("longer than one line (160 characters): {row}"));
        }
        let Some((_, target)) = row.split_once("[crate::guide::") else {
            problems.push(format!("no link to a guide page: {row}"));
            continue;
        };
        let target = target.split(']').next().unwrap();
        let (page, id) = target.split_once('#').unwrap_or((target, ""));
        let path = root().join("doctrine/docs").join(format!("{page}.md"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            problems.push(format!(
                "links to a guide page that does not exist ({page}): {row}"
            ));
            continue;
        };
        if id.is_empty() || !heading_ids(&text).iter().any(|h| h == id) {
            problems.push(format!("links to no section of {page}.md (`#{id}`): {row}"));
        }
    }
    assert!(count > 60, "only {count} rows read");
    assert!(
        problems.is_empty(),
        "doctrine/docs/reference.md:\n{}",
        problems.join("\n")
    );
}

#[test]
fn headings_get_the_ids_rustdoc_gives_them() {
    let page = "# Facts\n\n```toml\n# not a heading\n```\n## `[facts.NAME]`\n## `roles` (layer)\n# Facts\n";
    assert_eq!(
        heading_ids(page),
        ["facts", "factsname", "roles-layer", "facts-1"]
    );
}

/// Every key the manifest reader accepts is in the reference, written as a key
/// (`` `key` ``, `key = `, or a table header such as `[facts.NAME]`), so a key added to the
/// reader without a line in the reference fails here.
#[test]
fn the_reference_documents_every_manifest_key() {
    let reference = read("doctrine/docs/reference.md");
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
        "doctrine/docs/reference.md does not document: {missing:?}"
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
    let reference = read("doctrine/docs/reference.md");
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
