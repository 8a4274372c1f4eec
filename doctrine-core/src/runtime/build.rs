//! Helpers for a user crate's `build.rs` (the facade's `doctrine::build`, which adds
//! `watch` from the code generator).

/// Prints `cargo:rerun-if-changed` for each path (a directory is scanned recursively by
/// cargo). Call from `build.rs`: `doctrine::build::rerun_if_changed(&["prompts"]);`.
pub fn rerun_if_changed(paths: &[&str]) {
    for path in paths {
        println!("cargo:rerun-if-changed={path}");
    }
}
