//! Helpers for a user crate's `build.rs`.
//!
//! Cargo rebuilds a crate when a file the macro embedded changes (the generated code
//! `include_bytes!`s each one), but stable Rust gives a proc-macro no way to watch a
//! directory, so adding a file to a `dir` layer, a skills directory or the directory a
//! `{role}` pattern reads would go unnoticed. Listing them here makes cargo rescan them on
//! every build.

/// Prints `cargo:rerun-if-changed` for each path (a directory is scanned recursively by
/// cargo). Call from `build.rs`: `doctrine::build::rerun_if_changed(&["prompts"]);`.
pub fn rerun_if_changed(paths: &[&str]) {
    for path in paths {
        println!("cargo:rerun-if-changed={path}");
    }
}

/// Has cargo watch the manifest and every directory it names: each `dir` layer, `[skills]
/// dir`, and the directory of each `{role}` pattern. `manifest` is relative to the crate
/// (where `build.rs` runs), e.g. `"src/doctrine.toml"`. Needs the facade's `build` feature,
/// in `[build-dependencies]`:
///
/// ```toml
/// [build-dependencies]
/// doctrine-prompt = { version = "0.1", features = ["build"] }
/// ```
///
/// ```no_run
/// // build.rs, in `fn main()`:
/// doctrine_core::build::watch("src/doctrine.toml");
/// ```
#[cfg(feature = "codegen")]
pub fn watch(manifest: impl AsRef<std::path::Path>) {
    for path in crate::codegen::watched(manifest.as_ref()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
