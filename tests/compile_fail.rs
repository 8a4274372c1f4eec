//! trybuild: every manifest error and every misuse of the generated API is a compile
//! error with a pinned message (`tests/ui/fail`), and the documented features compose
//! exactly the bytes expected (`tests/ui/pass`).
//!
//! Regenerate the `.stderr` files with `TRYBUILD=overwrite cargo test --test compile_fail`
//! and read every diff.

#[test]
fn ui() {
    escape_link();
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}

/// `tests/ui/fail/path_symlink_escape.toml` names `files/escape.md`, which must be a symlink
/// out of the crate. It is made here rather than committed (a committed link to a system
/// file would be odd to ship); it points at a file of the system's temporary directory.
fn escape_link() {
    let link =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui/fail/files/escape.md");
    let target = std::env::temp_dir().join("doctrine-escape-target.md");
    std::fs::write(&target, "outside the crate\n").unwrap();
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    std::os::unix::fs::symlink(&target, &link).unwrap();
    #[cfg(windows)]
    std::os::windows::fs::symlink_file(&target, &link).unwrap();
}
