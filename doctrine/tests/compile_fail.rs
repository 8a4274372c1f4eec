//! trybuild, for what only rustc can tell: every misuse of the generated API is a compile
//! error with a pinned message (`tests/ui/fail`: a locked layer set on `Overlay`, choices
//! in the wrong order, a slot out of order…), a bad manifest's diagnostics land on the
//! macro's string literal, one error each (`several_errors.rs`), and code naming the
//! generated API compiles against the module emitted beside them, adding no error of its
//! own (`skeleton_*.rs`, one per class of mistake). The manifest errors themselves are
//! data, checked without rustc (the repository's `tests/errors`).
//!
//! Here rather than in the root package: trybuild builds a scratch crate with the package's
//! dependencies and dev-dependencies, and this package has few.
//!
//! Regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p doctrine-prompt --test compile_fail` and read every diff.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/ui/fail/*.rs");
}
