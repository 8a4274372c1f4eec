//! A temporary crate directory holding a manifest and the files it names, for the tests
//! that run the code generator as a library. (Each test file uses part of it.)
#![allow(dead_code)]

use std::path::Path;

use doctrine_core::codegen::__internals::model::Doctrine;
use doctrine_core::codegen::{generate, load, Diagnostics, Request};
use proc_macro2::TokenStream;

/// A fresh crate directory (with an empty `Cargo.toml`) holding `doctrine.toml` = `manifest`
/// and `files` (paths relative to it; parent directories are made).
pub fn crate_dir(manifest: &str, files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "").unwrap();
    std::fs::write(dir.path().join("doctrine.toml"), manifest).unwrap();
    for (path, bytes) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    dir
}

/// The request the macro would make for `doctrine.toml` in `dir`.
pub fn request(dir: &Path) -> Request {
    Request::new("doctrine.toml", dir, dir)
}

/// Loads and validates `manifest` with `files` beside it.
pub fn load_with(manifest: &str, files: &[(&str, &[u8])]) -> Result<Doctrine, Diagnostics> {
    let dir = crate_dir(manifest, files);
    load(&request(dir.path()))
}

/// Generates the code for `manifest` with `files` beside it.
pub fn generate_with(manifest: &str, files: &[(&str, &[u8])]) -> Result<TokenStream, Diagnostics> {
    let dir = crate_dir(manifest, files);
    generate(&request(dir.path()))
}

/// The diagnostics for `manifest`, each as displayed; panics when it is valid.
pub fn errors(manifest: &str, files: &[(&str, &[u8])]) -> Vec<String> {
    match load_with(manifest, files) {
        Ok(_) => panic!("expected errors for:\n{manifest}"),
        Err(d) => d.0.iter().map(ToString::to_string).collect(),
    }
}

/// Makes a FIFO (named pipe) at `path`: what would block a reader that opens it blindly.
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
}
