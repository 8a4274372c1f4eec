//! `[budget] tokens` (feature `tokens`): the stable prefix's ceiling in an encoding's
//! tokens, counted on the largest text as `stable_bytes` counts bytes. The counts are the
//! tokenizer's own (`Encoding::count`), checked against its tables in `tokens::tests`.
#![cfg(feature = "tokens")]

use doctrine_core::tokens::Encoding;

use crate::support::{errors, generate_with};

/// Twelve pieces, each a whole entry of o200k's table: 12 tokens.
const TWELVE: &str = "Read before you change anything, and say what you checked.";

fn manifest(tokens: usize, encoding: &str, layer: &str) -> String {
    format!("[budget]\ntokens = {tokens}\nencoding = \"{encoding}\"\n\n[[layer]]\nname = \"doctrine\"\n{layer}\n")
}

#[test]
fn the_ceiling_is_exact() {
    assert_eq!(Encoding::O200k.count(TWELVE), 12);
    let text = format!("text = \"{TWELVE}\"");
    assert!(generate_with(&manifest(12, "o200k", &text), &[]).is_ok());
    let errs = errors(&manifest(11, "o200k_base", &text), &[]);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].contains("the stable prefix of the prompt is 12 tokens (o200k_base) of compiled text, over its budget of 11 tokens"),
        "{errs:#?}"
    );
    assert!(
        errs[0].contains("largest layers: `doctrine` 12 tokens"),
        "{errs:#?}"
    );
}

#[test]
fn the_encoding_counts() {
    // 4 tokens in o200k, 6 in cl100k (`tokens::tests`).
    let text = "text = \"Привет, мир\"";
    assert!(generate_with(&manifest(5, "o200k", text), &[]).is_ok());
    let errs = errors(&manifest(5, "cl100k", text), &[]);
    assert!(
        errs[0].contains("is 6 tokens (cl100k_base) of compiled text, over its budget of 5 tokens"),
        "{errs:#?}"
    );
}

/// A choice counts at its variant with the most tokens, which need not be the one with
/// the most bytes.
#[test]
fn a_choice_counts_at_its_variant_with_the_most_tokens() {
    let (long, dense) = ("hello world, hello world", "Привет, мир");
    let count = |t| Encoding::Cl100k.count(t);
    assert!(long.len() > dense.len() && count(long) < count(dense));
    let files: &[(&str, &[u8])] = &[
        ("teams/long.md", long.as_bytes()),
        ("teams/dense.md", dense.as_bytes()),
    ];
    let layer = "dir = \"teams\"";
    let errs = errors(&manifest(count(dense) - 1, "cl100k", layer), files);
    assert!(
        errs[0].contains(&format!("is {} tokens (cl100k_base)", count(dense))),
        "{errs:#?}"
    );
    assert!(generate_with(&manifest(count(dense), "cl100k", layer), files).is_ok());
}

#[test]
fn an_encoding_alone_or_unknown_is_an_error() {
    let text = format!("text = \"{TWELVE}\"");
    let alone =
        format!("[budget]\nencoding = \"o200k\"\n\n[[layer]]\nname = \"doctrine\"\n{text}\n");
    let errs = errors(&alone, &[]);
    assert!(
        errs[0]
            .contains("`[budget] encoding` says how `tokens` is counted, and no `tokens` is set"),
        "{errs:#?}"
    );
    let errs = errors(&manifest(100, "p50k_base", &text), &[]);
    assert!(
        errs[0].contains("unknown encoding `p50k_base`: expected `o200k_base` (or `o200k`) or `cl100k_base` (or `cl100k`)"),
        "{errs:#?}"
    );
}
