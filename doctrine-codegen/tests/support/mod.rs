//! A temporary crate directory holding a manifest and the files it names, for the tests
//! that run the code generator as a library. (Each test file uses part of it.)
#![allow(dead_code)]

use std::path::Path;

use doctrine_codegen::model::Doctrine;
use doctrine_codegen::{generate, load, Diagnostics, Request};
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

/// Loads and validates `manifest` with `files` beside it. Every diagnostic must read as
/// written by a person (see [`reads_badly`]).
pub fn load_with(manifest: &str, files: &[(&str, &[u8])]) -> Result<Doctrine, Diagnostics> {
    let dir = crate_dir(manifest, files);
    load(&request(dir.path())).inspect_err(assert_reads_well)
}

/// Generates the code for `manifest` with `files` beside it, checking its diagnostics as
/// [`load_with`] does.
pub fn generate_with(manifest: &str, files: &[(&str, &[u8])]) -> Result<TokenStream, Diagnostics> {
    let dir = crate_dir(manifest, files);
    generate(&request(dir.path())).inspect_err(assert_reads_well)
}

/// Panics naming every way `diagnostics` read badly.
pub fn assert_reads_well(diagnostics: &Diagnostics) {
    let problems = reads_badly(diagnostics);
    assert!(problems.is_empty(), "{problems:#?}\nin:\n{diagnostics}");
}

/// What makes a set of diagnostics read as if no person wrote them: a list after a colon
/// with nothing in it (`declared facts: `), a doubled article (`a a`, `no a`, `the the`),
/// and the same diagnostic twice.
pub fn reads_badly(diagnostics: &Diagnostics) -> Vec<String> {
    let mut problems = Vec::new();
    let shown: Vec<String> = diagnostics.located().map(|d| d.to_string()).collect();
    for (i, d) in diagnostics.list.iter().enumerate() {
        if shown[..i].contains(&shown[i]) {
            problems.push(format!("repeated: {}", shown[i]));
        }
        for text in std::iter::once(&d.message).chain(&d.help) {
            if let Some(why) = empty_list(text).or_else(|| doubled_article(text)) {
                problems.push(format!("{why} in {text:?}"));
            }
        }
    }
    problems
}

/// A colon with nothing after it but blanks or the end of a clause.
fn empty_list(text: &str) -> Option<String> {
    text.match_indices(':').find_map(|(i, _)| {
        let after = text[i + 1..].trim_start_matches(' ');
        let ends = after.is_empty() || after.starts_with([',', ';', '.', ')', '\n']);
        ends.then(|| format!("an empty list after the colon at byte {i}"))
    })
}

/// Two articles in a row, or one word twice, outside backticks (where names such as a
/// role `a` are quoted) and with nothing but a space between them (`a, a` is a list).
fn doubled_article(text: &str) -> Option<String> {
    let prose: String = text
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 0 { part } else { " `name` " })
        .collect();
    let words: Vec<String> = prose.split_whitespace().map(str::to_lowercase).collect();
    words.windows(2).find_map(|w| {
        let (first, second) = (
            w[0].as_str(),
            w[1].trim_end_matches(|c: char| !c.is_alphanumeric()),
        );
        let article = |w: &str| matches!(w, "a" | "an" | "the");
        let doubled = (article(second) && (article(first) || first == "no"))
            || (first == second && first.chars().all(char::is_alphabetic));
        doubled.then(|| format!("`{first} {second}`"))
    })
}
/// The diagnostics for `manifest`, each as displayed; panics when it is valid.
pub fn errors(manifest: &str, files: &[(&str, &[u8])]) -> Vec<String> {
    match load_with(manifest, files) {
        Ok(_) => panic!("expected errors for:\n{manifest}"),
        Err(d) => d.located().map(|d| d.to_string()).collect(),
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
