//! Every diagnostic the repository's manifests produce reads as written by a person: no
//! empty list after a colon, no doubled article, no diagnostic twice. The manifests are
//! the error cases (`tests/errors`), those of the trybuild cases and test programs
//! (`doctrine/tests/ui`, `tests/it`) and the fixtures (`tests/fixtures`, `doctrine-core/tests/fixtures`), run
//! through the code generator as a library, without rustc; the manifests written inline in
//! this crate's tests are checked by `support::load_with` as they run.

use std::path::{Path, PathBuf};

use doctrine_codegen::{generate, Request};

use crate::support;

/// Every `.toml` file under `dir`, at any depth, sorted.
fn manifests(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            manifests(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

#[test]
fn every_fixture_diagnostic_reads_well() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut found = Vec::new();
    for dir in [
        root.join("tests/errors"),
        root.join("doctrine/tests/ui"),
        root.join("tests/it"),
        root.join("tests/fixtures"),
        root.join("doctrine-core/tests/fixtures"),
    ] {
        manifests(&dir, &mut found);
    }
    assert!(found.len() > 80, "{} manifests found", found.len());
    let (mut failing, mut problems) = (0, Vec::new());
    for path in &found {
        let name = path.file_name().unwrap().to_str().unwrap();
        // Judged from its own directory, inside the workspace, as the macro would.
        let req = Request::new(name, path.parent().unwrap(), root);
        if let Err(d) = generate(&req) {
            failing += 1;
            for p in support::reads_badly(&d) {
                problems.push(format!("{}: {p}", path.display()));
            }
        }
    }
    assert!(failing > 50, "only {failing} manifests have errors");
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_checks_catch_what_they_look_for() {
    use doctrine_codegen::{Diagnostic, Diagnostics, Files, Span};
    let mut files = Files::default();
    let manifest = files.add("doctrine.toml", "a = 1\n");
    let one = |message: &str, help: Option<&str>| Diagnostic {
        span: Span::new(manifest, 0..0),
        message: message.into(),
        help: help.map(Into::into),
    };
    let bad = |list: Vec<Diagnostic>| {
        let files = files.clone();
        !support::reads_badly(&Diagnostics { files, list }).is_empty()
    };
    assert!(bad(vec![one("x", Some("declared facts and knobs: "))]));
    assert!(bad(vec![one("known keys:; more", None)]));
    assert!(bad(vec![one("which names no a slot", None)]));
    assert!(bad(vec![one("the the layer", None)]));
    assert!(bad(vec![one("x", None), one("x", None)]));
    // Names in backticks are not prose, and a location is not a list.
    assert!(!bad(vec![one(
        "role `a` a `b` in `x.md:1:2`: no layer `the`",
        Some("declared roles: a, b")
    )]));
}
