//! The counts here were checked against the encodings' tables themselves (tiktoken-rs's
//! `assets/*.tiktoken`, base64 token → rank): a piece of text that the encoding's pattern
//! splits off and that is a whole entry of the table is one token.

use super::*;

#[test]
fn the_empty_text_is_no_tokens() {
    for e in Encoding::ALL {
        assert_eq!(e.count(""), 0, "{e}");
    }
}

#[test]
fn whole_words_of_the_table_are_one_token_each() {
    // `hello` and ` world` are entries of both tables (o200k 24912 and 2375, cl100k 15339
    // and 1917).
    for e in Encoding::ALL {
        assert_eq!(e.count("hello world"), 2, "{e}");
        // Digits are split in threes by both patterns: `123`, `456`, `7`.
        assert_eq!(e.count("1234567"), 3, "{e}");
    }
}

#[test]
fn the_two_encodings_count_cyrillic_differently() {
    // Both split `Привет`, `,`, ` мир`. o200k has ` мир` (37934) and `,` but not `Привет`
    // (it splits it as `Пр` and `ивет`, see `token_ends` below): 2 + 1 + 1. cl100k has
    // neither word whole.
    let text = "Привет, мир";
    assert_eq!(Encoding::O200k.count(text), 4);
    assert_eq!(Encoding::Cl100k.count(text), 6);
}

#[test]
fn special_tokens_are_counted_as_their_characters() {
    // A prompt holding `<|endoftext|>` is text: `<|`, `endoftext` (two tokens) and `|>`
    // (not an entry: `|` and `>`), never the one special token.
    for e in Encoding::ALL {
        assert_eq!(e.count("<|endoftext|>"), 7, "{e}");
    }
}

#[test]
fn each_table_is_loaded_once() {
    for e in Encoding::ALL {
        assert!(std::ptr::eq(e.bpe(), e.bpe()), "{e}");
    }
    assert!(!std::ptr::eq(Encoding::O200k.bpe(), Encoding::Cl100k.bpe()));
}

#[test]
fn names_parse_both_ways_and_display_in_full() {
    for (name, e) in [
        ("o200k", Encoding::O200k),
        ("o200k_base", Encoding::O200k),
        ("cl100k", Encoding::Cl100k),
        ("cl100k_base", Encoding::Cl100k),
    ] {
        assert_eq!(name.parse::<Encoding>(), Ok(e));
        assert_eq!(e.to_string().parse::<Encoding>(), Ok(e));
    }
    assert_eq!(Encoding::O200k.to_string(), "o200k_base");
    assert_eq!(Encoding::Cl100k.to_string(), "cl100k_base");
    for bad in ["", "O200K", "o200k_base ", "p50k_base", "gpt-4o"] {
        let err = bad.parse::<Encoding>().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "unknown encoding `{bad}`: expected `o200k_base` (or `o200k`) or `cl100k_base` (or `cl100k`)"
            )
        );
    }
}

#[test]
fn the_estimate_is_bytes_over_four_rounded_up() {
    assert_eq!([0, 1, 4, 5, 8, 9].map(estimate), [0, 1, 1, 2, 2, 3],);
}

#[test]
fn token_ends_are_the_byte_offsets_where_each_token_ends() {
    for e in Encoding::ALL {
        // `hello`, ` world`; `123`, `456`, `7` (as counted above).
        assert_eq!(e.token_ends("hello world"), [5, 11], "{e}");
        assert_eq!(e.token_ends("1234567"), [3, 6, 7], "{e}");
        assert_eq!(e.token_ends(""), [0usize; 0], "{e}");
        let text = "Привет, мир";
        let ends = e.token_ends(text);
        assert_eq!(ends.len(), e.count(text), "{e}");
        assert_eq!(ends.last(), Some(&text.len()), "{e}");
    }
    // o200k splits the first word as `Пр` (4 bytes) and `ивет` (8), then `,` and ` мир`.
    assert_eq!(Encoding::O200k.token_ends("Привет, мир"), [4, 12, 13, 20]);
}
