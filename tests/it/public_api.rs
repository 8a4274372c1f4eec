//! The published crates' public API, pinned as text (`tests/api/CRATE.txt`), and a check
//! that every change to it since the API the CHANGELOG's "Unreleased" section starts from
//! (`tests/api/base/CRATE.txt`) is named there. A change to a public item shows in review
//! as a changed line of the listing, and cannot land without its CHANGELOG entry.
//!
//! - `DOCTRINE_BLESS=1 cargo test --test it public_api` rewrites the listings from the
//!   sources (read the diff; then name each change in CHANGELOG.md).
//! - On a release, copy `tests/api/*.txt` to `tests/api/base/` and open a new
//!   "Unreleased" section. `DOCTRINE_API_BASE_FROM=DIR` writes the base from the checkout
//!   at DIR instead (how the base of `4bd15d3` was written).
//!
//! The listing is read from the sources with `syn` (`public_api/tree.rs` resolves the
//! paths, `public_api/listing.rs` writes the lines): rustdoc's JSON, which would do it
//! for us, needs a nightly toolchain.

mod listing;
mod macros;
mod tree;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The published library crates: directory, library name.
const CRATES: [(&str, &str); 7] = [
    ("doctrine", "doctrine"),
    ("doctrine-core", "doctrine_core"),
    ("doctrine-load", "doctrine_load"),
    ("doctrine-codegen", "doctrine_codegen"),
    ("doctrine-macros", "doctrine_macros"),
    ("doctrine-claims", "doctrine_claims"),
    ("doctrine-book", "doctrine_book"),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn listing_of(checkout: &Path, dir: &str, lib: &str) -> BTreeSet<String> {
    match tree::Tree::read(&checkout.join(dir).join("src/lib.rs")) {
        Some(tree) => listing::listing(lib, &tree),
        None => BTreeSet::new(),
    }
}

fn text(lines: &BTreeSet<String>) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

fn read_lines(path: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_public_api_listing_is_current() {
    let bless = std::env::var_os("DOCTRINE_BLESS").is_some();
    if let Some(base) = std::env::var_os("DOCTRINE_API_BASE_FROM") {
        for (dir, lib) in CRATES {
            let lines = listing_of(Path::new(&base), dir, lib);
            std::fs::write(
                root().join(format!("tests/api/base/{lib}.txt")),
                text(&lines),
            )
            .unwrap();
        }
    }
    let mut stale = Vec::new();
    for (dir, lib) in CRATES {
        let lines = listing_of(&root(), dir, lib);
        assert!(!lines.is_empty(), "{lib}: the listing read nothing");
        let file = root().join(format!("tests/api/{lib}.txt"));
        let pinned = std::fs::read_to_string(&file).unwrap_or_default();
        if pinned != text(&lines) {
            if bless {
                std::fs::write(&file, text(&lines)).unwrap();
            } else {
                let old = read_lines(&file);
                let gone: Vec<_> = old.difference(&lines).map(|l| format!("  - {l}")).collect();
                let new: Vec<_> = lines.difference(&old).map(|l| format!("  + {l}")).collect();
                stale.push(format!(
                    "{}:\n{}\n{}",
                    file.display(),
                    gone.join("\n"),
                    new.join("\n")
                ));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "the public API changed; name the change in CHANGELOG.md and rewrite the listing with \
         `DOCTRINE_BLESS=1 cargo test --test it public_api`:\n{}",
        stale.join("\n")
    );
}

/// The identifiers written in code spans of the CHANGELOG's "Unreleased" section, and the
/// section's text.
fn unreleased_names() -> (BTreeSet<String>, String) {
    let changelog = std::fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    let start = changelog
        .find("\n## Unreleased")
        .expect("CHANGELOG.md has no `## Unreleased`");
    let body = &changelog[start + 1..];
    let end = body[3..].find("\n## ").map_or(body.len(), |at| at + 3);
    let mut names = BTreeSet::new();
    for (n, span) in body[..end].split('`').enumerate() {
        if n % 2 == 1 {
            for word in span.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                names.insert(word.to_string());
            }
        }
    }
    (names, body[..end].to_string())
}

/// A line's path: `doctrine_core::introspect::Escape.written`.
fn path_of(line: &str) -> &str {
    line.split("  ").next().unwrap().trim_end_matches("::*")
}

/// A path's last name; a tuple field (`Error.0`) is known by its type's.
fn last_segment(path: &str) -> &str {
    let mut names = path.rsplit(['.', ':']);
    let last = names.next().unwrap();
    if last.bytes().all(|b| b.is_ascii_digit()) {
        return names.next().unwrap_or(last);
    }
    last
}

/// The name a changed line is known by: the outermost item on its path that the other
/// side lacks (a new type's methods are named by the type), else the line's own item (a
/// changed signature, a derive added to a type that was there).
fn key<'a>(line: &'a str, other: &BTreeSet<&str>) -> &'a str {
    let path = path_of(line);
    // From the crate's first item on (the crate's root is on both sides).
    let mut ends: Vec<usize> = path
        .match_indices([':', '.'])
        .map(|(at, _)| at)
        .skip(2)
        .collect();
    ends.push(path.len());
    for end in ends {
        let prefix = &path[..end];
        if !prefix.ends_with(':') && !prefix.is_empty() && !other.contains(prefix) {
            return last_segment(prefix);
        }
    }
    last_segment(path)
}

#[test]
fn every_change_to_the_public_api_is_in_the_changelog() {
    let (named, text) = unreleased_names();
    let mut missing: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (dir, lib) in CRATES {
        let base = read_lines(&root().join(format!("tests/api/base/{lib}.txt")));
        let now = listing_of(&root(), dir, lib);
        if base.is_empty() {
            // A crate new since the base is named as a crate, not item by item.
            let package = if dir == "doctrine" {
                "doctrine-prompt"
            } else {
                dir
            };
            if !text.contains(&format!("`{package}`")) {
                missing
                    .entry(format!("{package} (a new crate)"))
                    .or_default();
            }
            continue;
        }
        let base_paths: BTreeSet<&str> = base.iter().map(|l| path_of(l)).collect();
        let now_paths: BTreeSet<&str> = now.iter().map(|l| path_of(l)).collect();
        let removed = base.difference(&now).map(|l| ('-', l, &now_paths));
        let added = now.difference(&base).map(|l| ('+', l, &base_paths));
        for (sign, line, other) in removed.chain(added) {
            let name = key(line, other);
            if !named.contains(name) {
                missing
                    .entry(name.to_string())
                    .or_default()
                    .push(format!("    {sign} {line}"));
            }
        }
    }
    let report: Vec<String> = missing
        .iter()
        .map(|(name, lines)| format!("  `{name}`:\n{}", lines.join("\n")))
        .collect();
    assert!(
        missing.is_empty(),
        "{} public name(s) changed since the API of tests/api/base/ and are named in no code span \
         of CHANGELOG.md's \"Unreleased\" section; add an entry naming each (in backticks):\n{}",
        missing.len(),
        report.join("\n")
    );
}
