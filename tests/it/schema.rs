//! The manifest's JSON Schema (`doctrine_codegen::manifest_schema`, which
//! `cargo doctrine schema` prints) is the committed one. What it accepts and refuses is
//! checked by a draft-07 validator in `tests/schema.rs`, an opt-in test (feature `schema`)
//! since the validator's dependencies are a sixth of the suite's build.
//!
//! After a change to the manifest's declarations or to the reference's key tables:
//! `DOCTRINE_BLESS=1 cargo test --test it schema` rewrites `doctrine/docs/doctrine.schema.json`
//! and the reference's copy in `doctrine-core`; read their `git diff` before committing.

use std::path::Path;

use doctrine_codegen::manifest_schema;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `path` holds `expected`, or is rewritten to it under `DOCTRINE_BLESS`.
fn pinned(path: &str, expected: &str) {
    let path = root().join(path);
    if std::env::var_os("DOCTRINE_BLESS").is_some() {
        std::fs::write(&path, expected).unwrap();
        return;
    }
    assert!(
        read(&path) == expected,
        "{} is not what the code generator gives: run `DOCTRINE_BLESS=1 cargo test --test it \
         schema` and read the diff",
        path.display()
    );
}

#[test]
fn the_committed_schema_is_the_generated_one() {
    pinned("doctrine/docs/doctrine.schema.json", &manifest_schema());
}

/// The schema's descriptions come from the reference's key tables, which the published
/// `doctrine-codegen` carries as a copy (a crate cannot include a file outside it).
#[test]
fn doctrine_codegen_carries_the_references_key_tables() {
    let reference = read(&root().join("doctrine/docs/reference.md"));
    pinned(
        "doctrine-codegen/src/schema/reference_keys.md",
        &doctrine_codegen::__internals::reference_keys(&reference),
    );
}
