//! trybuild: every manifest error and every misuse of the generated API is a compile
//! error with a pinned message (`tests/ui/fail`), and the documented features compose
//! exactly the bytes expected (`tests/ui/pass`).
//!
//! Regenerate the `.stderr` files with `TRYBUILD=overwrite cargo test --test compile_fail`
//! and read every diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
