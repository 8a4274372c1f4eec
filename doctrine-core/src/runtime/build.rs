//! Helpers for a user crate's `build.rs`.
//!
//! Cargo rebuilds a crate when a file the macro embedded changes (the generated code
//! `include_bytes!`s each one), but stable Rust gives a proc-macro no way to watch a
//! directory, so adding a file to a `dir` layer would go unnoticed. Listing the directory
//! here makes cargo rescan it on every build.

/// Prints `cargo:rerun-if-changed` for each path (a directory is scanned recursively by
/// cargo). Call from `build.rs`: `doctrine::build::rerun_if_changed(&["prompts"]);`.
pub fn rerun_if_changed(paths: &[&str]) {
    for path in paths {
        println!("cargo:rerun-if-changed={path}");
    }
}
