//! The manifest error cases of `tests/errors`, as the tests that run them find them: this
//! crate's (`manifest_errors`, through the code generator; `tests/schema.rs`, through the
//! manifest's JSON Schema) and `cargo-doctrine`'s (through the binary); the last two include
//! this file by its path.

use std::path::{Path, PathBuf};

/// Every `tests/errors/<case>.toml` under `repo`, sorted, with what the cases need in place
/// (see [`escape_link`]).
pub fn cases(repo: &Path) -> Vec<PathBuf> {
    let dir = repo.join("tests/errors");
    escape_link(&dir);
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 60, "{} cases in tests/errors", cases.len());
    cases
}

/// The file holding `case`'s diagnostics: `<case>.diag`, or, for a build that counts
/// tokens (`tokens`: `doctrine_codegen::__internals::COUNTS_TOKENS`), `<case>.tokens.diag`
/// where there is one. `[budget] tokens` is refused without the feature and checked with
/// it, and a workspace build may unify the feature into any test's build.
pub fn expected(case: &Path, tokens: bool) -> PathBuf {
    let with_tokens = case.with_extension("tokens.diag");
    match tokens && with_tokens.is_file() {
        true => with_tokens,
        false => case.with_extension("diag"),
    }
}

/// `tests/errors/path_symlink_escape.toml` names `files/escape.md`, which must be a symlink
/// out of the crate. It is made here rather than committed (a committed link to a system
/// file would be odd to ship); it points at a file of the system's temporary directory.
fn escape_link(dir: &Path) {
    let link = dir.join("files/escape.md");
    let target = std::env::temp_dir().join("doctrine-escape-target.md");
    std::fs::write(&target, "outside the crate\n").unwrap();
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    std::os::unix::fs::symlink(&target, &link).unwrap();
    #[cfg(windows)]
    std::os::windows::fs::symlink_file(&target, &link).unwrap();
}
