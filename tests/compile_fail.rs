//! trybuild, for what only rustc can tell: every misuse of the generated API is a compile
//! error with a pinned message (`tests/ui/fail`: a locked layer set on `Overlay`, choices
//! in the wrong order, a slot out of order…), and a bad manifest's diagnostics land on the
//! macro's string literal (`manifest_errors_span.rs`). The manifest errors themselves are
//! data, checked without rustc (`tests/errors`, run by `tests/it/manifest_errors.rs`).
//!
//! Regenerate the `.stderr` files with `TRYBUILD=overwrite cargo test --test compile_fail`
//! and read every diff.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/ui/fail/*.rs");
}
