//! The tool accepts the inputs the macro accepts and no others: the manifest and every file
//! it names go through the macro's own path checks (inside the crate directory, the nearest
//! one above the manifest holding a `Cargo.toml`; regular files only), and `schema
//! --output` writes to a regular file only. Each run is bounded in time, so a FIFO that
//! blocks fails the test instead of hanging it.
#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::Path;

mod bounded;
use bounded::{mkfifo, run_in};

use doctrine_codegen::{generate, Request};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `root/crate` (with a `Cargo.toml`) and `root/outside`, beside it.
fn crate_and_outside() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let (krate, outside) = (root.path().join("crate"), root.path().join("outside"));
    std::fs::create_dir_all(&krate).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(krate.join("Cargo.toml"), "[package]\nname = \"c\"\n").unwrap();
    (root, krate, outside)
}

const MANIFEST: &str = "[[layer]]\nname = \"base\"\nfile = \"base.md\"\n";

/// `check` in `krate` prints what the macro reports for its `doctrine.toml`, exit 1.
fn check_reports_as_the_macro(krate: &Path) {
    let macro_says = match generate(&Request::new("doctrine.toml", krate, krate)) {
        Ok(_) => panic!("the macro accepts it"),
        Err(d) => d.rendered(),
    };
    let out = run_in(krate, &["check", "doctrine.toml"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), macro_says);
}

#[test]
fn a_manifest_linked_from_outside_the_crate_is_refused() {
    let (_root, krate, outside) = crate_and_outside();
    std::fs::write(outside.join("doctrine.toml"), MANIFEST).unwrap();
    std::fs::write(outside.join("base.md"), "OUTSIDE TEXT").unwrap();
    symlink("../outside/doctrine.toml", krate.join("doctrine.toml")).unwrap();
    // The macro refuses it.
    let macro_says = generate(&Request::new("doctrine.toml", &krate, &krate))
        .err()
        .unwrap()
        .rendered();
    assert!(
        macro_says.contains("outside the crate directory"),
        "{macro_says}"
    );
    for command in ["check", "render", "expand", "matrix"] {
        let out = run_in(&krate, &[command, "doctrine.toml"]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{command}: {}",
            text(&out.stdout)
        );
        assert!(out.stdout.is_empty(), "{command}: {}", text(&out.stdout));
        let said = text(&out.stderr);
        assert!(
            said.contains("cannot read doctrine.toml: the manifest resolves to ")
                && said.contains("outside the crate directory"),
            "{command}: {said}"
        );
        assert!(
            said.contains("keep the manifest inside the crate"),
            "{said}"
        );
    }
    // A link to a manifest inside the crate is fine, as for the macro; its files are
    // relative to where the link leads.
    std::fs::remove_file(krate.join("doctrine.toml")).unwrap();
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(krate.join("src/doctrine.toml"), MANIFEST).unwrap();
    std::fs::write(krate.join("src/base.md"), "Inside.").unwrap();
    symlink("src/doctrine.toml", krate.join("doctrine.toml")).unwrap();
    let out = run_in(&krate, &["render", "doctrine.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "Inside.");
}

#[test]
fn a_layer_file_linked_from_outside_the_crate_is_the_macros_error() {
    let (_root, krate, outside) = crate_and_outside();
    std::fs::write(krate.join("doctrine.toml"), MANIFEST).unwrap();
    std::fs::write(outside.join("base.md"), "OUTSIDE TEXT").unwrap();
    symlink("../outside/base.md", krate.join("base.md")).unwrap();
    check_reports_as_the_macro(&krate);
    let out = run_in(&krate, &["render", "doctrine.toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stdout).contains("OUTSIDE"));
}

#[test]
fn a_fifo_or_a_directory_is_refused_as_the_manifest_or_a_layer_file() {
    let (_root, krate, _outside) = crate_and_outside();
    mkfifo(&krate.join("doctrine.toml"));
    let out = run_in(&krate, &["check", "doctrine.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains(
            "cannot read doctrine.toml: manifest is a FIFO (named pipe), not a regular file"
        ),
        "{said}"
    );
    std::fs::remove_file(krate.join("doctrine.toml")).unwrap();
    std::fs::create_dir(krate.join("doctrine.toml")).unwrap();
    let out = run_in(&krate, &["check", "doctrine.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains("cannot read doctrine.toml: manifest is a directory, not a regular file"),
        "{said}"
    );
    // As a layer's file, each is the macro's diagnostic.
    std::fs::remove_dir(krate.join("doctrine.toml")).unwrap();
    std::fs::write(krate.join("doctrine.toml"), MANIFEST).unwrap();
    mkfifo(&krate.join("base.md"));
    check_reports_as_the_macro(&krate);
    std::fs::remove_file(krate.join("base.md")).unwrap();
    std::fs::create_dir(krate.join("base.md")).unwrap();
    check_reports_as_the_macro(&krate);
}

#[test]
fn schema_writes_only_to_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("schema.json");
    mkfifo(&fifo);
    let out = run_in(dir.path(), &["schema", "--output", "schema.json"]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains("cannot write schema.json: it is a FIFO (named pipe), not a regular file"),
        "{said}"
    );
    // A regular file is replaced whole, however long it was.
    std::fs::remove_file(&fifo).unwrap();
    std::fs::write(&fifo, "x".repeat(1 << 20)).unwrap();
    let out = run_in(dir.path(), &["schema", "--output", "schema.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&fifo).unwrap();
    assert_eq!(written, doctrine_codegen::manifest_schema());
}
