//! Text normalisation shared by the code generator (files embedded at compile time) and the
//! overlay loader (files read at run time), so both give the same bytes for the same file.
//!
//! Each function is a fixed point: applying it twice gives what applying it once gives, so
//! text that went through a lossy converter twice (a CRLF turned into CR CR LF by a second
//! conversion, a BOM written twice) still comes out clean.

use crate::lookalike::{is_default_ignorable, latin};
use unicode_normalization::char::{canonical_combining_class, decompose_canonical};

/// The byte-order mark, U+FEFF.
const BOM: char = '\u{feff}';

/// Drops every leading BOM and turns each run of carriage returns that ends a line
/// (`\r\n`, `\r\r\n`, …) into one `\n`. A carriage return not followed by a line feed is
/// kept: it is not a line ending.
pub fn normalise(raw: &str) -> String {
    let text = raw.trim_start_matches(BOM);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\r') {
        out.push_str(&rest[..at]);
        let run = rest[at..].len() - rest[at..].trim_start_matches('\r').len();
        let after = &rest[at + run..];
        if after.starts_with('\n') {
            // The line feed itself is copied with the next stretch of text.
        } else {
            out.push_str(&rest[at..at + run]);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// [`normalise`], then trims surrounding whitespace and BOMs until neither is left, so a
/// BOM behind leading blank lines does not survive into the text.
pub(crate) fn normalise_trimmed(raw: &str) -> String {
    normalise_trimmed_at(raw).0
}

/// Where a trimmed text starts in its file: the lines before it, and the characters
/// before it on its first line, so a position in the text can be given as one in the file
/// (a BOM that starts the file is not counted, as an editor shows none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Lead {
    pub(crate) lines: usize,
    pub(crate) cols: usize,
}

/// [`normalise_trimmed`], and where its text starts.
pub(crate) fn normalise_trimmed_at(raw: &str) -> (String, Lead) {
    let text = normalise(raw);
    let blank = |c: char| c.is_whitespace() || c == BOM;
    let kept = text.trim_matches(blank);
    let before = &text[..text.len() - text.trim_start_matches(blank).len()];
    let lines = before.matches('\n').count();
    let cols = before.rsplit('\n').next().unwrap_or("").chars().count();
    (kept.to_string(), Lead { lines, cols })
}

/// A name as a person (or a case-insensitive file system) reads it: lowercase, without
/// default-ignorable code points (zero-width spaces and joiners, soft hyphens, variation
/// selectors, bidi controls, tags…), which render as nothing, without accents (each
/// character decomposed, its combining marks dropped: `è` and `e` with U+0300 read as
/// `e`), and with letters of other scripts that read as Latin ones (Cyrillic `а`, Greek
/// `Ο`, fullwidth `ｓ`…) written as those (`lookalike`). Two overlay
/// file names, or two skill names, that fold alike could be taken for one another. Folding
/// is a fixed point: a folded name folds to itself.
pub fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        decompose_canonical(c, |d| read(d, &mut out));
    }
    out
}

/// One decomposed character of [`fold`]. A look-alike is mapped before lowercasing, so a
/// capital that reads as a Latin capital (Greek `Η`, `H`) is not read as its small letter
/// (`η`, nearer `n`), and after it too, for a capital whose small letter is the look-alike;
/// a lowercase form is decomposed again (`İ` lowercases to `i` and a combining dot).
fn read(c: char, out: &mut String) {
    if unseen(c) {
        return;
    }
    if let Some(latin) = latin(c) {
        return out.push(latin);
    }
    for l in c.to_lowercase() {
        decompose_canonical(l, |d| {
            if !unseen(d) {
                out.push(latin(d).unwrap_or(d));
            }
        });
    }
}

/// What folding drops: a default-ignorable code point, or a combining mark.
fn unseen(c: char) -> bool {
    is_default_ignorable(c) || is_mark(c)
}

/// A combining mark as folding reads it: a nonzero canonical combining class, the marks
/// that attach to a letter and reorder among themselves (accents among them). Spacing vowel
/// signs, of class 0, are letters of their own and stay.
pub(crate) fn is_mark(c: char) -> bool {
    canonical_combining_class(c) != 0
}

/// The largest character boundary of `s` at or below `at` (and `s.len()` past the end):
/// where to cut text without splitting a character. (`str::floor_char_boundary` is newer
/// than this crate's minimum Rust.)
pub fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A name for a message: its first 40 characters as shown, then `…` if there are more, so
/// a megabyte-long name does not become a megabyte-long compile error or notice; a line
/// break or control character in them is shown escaped (`\r`, `\u{202e}`), each escape
/// counting as the characters it is shown as, so the message says what is there, is
/// itself one line, and stays short however the name is made.
pub fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    use crate::one_line::breaks;
    const MAX: usize = 40;
    let short = name.char_indices().nth(MAX).is_none();
    if short && !name.chars().any(|c| breaks(c).is_some()) {
        return name.into();
    }
    let mut out = String::with_capacity(name.len().min(4 * MAX) + 3);
    let mut count = 0;
    for c in name.chars() {
        let escaped = breaks(c).map(|_| c.escape_debug());
        let len = escaped.clone().map_or(1, Iterator::count);
        if count + len > MAX {
            out.push('…');
            break;
        }
        match escaped {
            Some(e) => out.extend(e),
            None => out.push(c),
        }
        count += len;
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[cfg(feature = "frontmatter")]
    #[test]
    fn a_shown_name_is_short_and_on_one_line() {
        assert_eq!(shown("release"), "release");
        assert_eq!(
            shown("josé \"x\""),
            "josé \"x\"",
            "only what breaks a line is escaped"
        );
        assert_eq!(shown("a\rb\u{202e}c"), "a\\rb\\u{202e}c");
        let long = format!("{}\n", "x".repeat(40));
        assert_eq!(shown(&long), format!("{}…", "x".repeat(40)));
        // Escapes count as what they are shown as: forty control characters are not
        // four hundred characters of message.
        let controls = "\u{19}".repeat(40);
        assert_eq!(shown(&controls), format!("{}…", "\\u{19}".repeat(6)));
    }

    #[test]
    fn names_fold_as_they_read() {
        assert_eq!(fold("Safety.MD"), "safety.md");
        assert_eq!(fold("safe\u{200b}ty\u{ad}"), "safety");
        // Cyrillic `ѕ`, `а`, `е`, `у`; Greek capitals; fullwidth.
        assert_eq!(fold("ѕаfеtу"), "safety");
        assert_eq!(fold("ЅАFЕТΥ"), "safety");
        assert_eq!(fold("ｓａｆｅｔｙ"), "safety");
        // A Greek capital Eta reads as `H`, though its small letter does not read as `h`.
        assert_eq!(fold("Ηelp"), "help");
        // An accent reads as the letter it sits on, combining or precomposed, in either
        // case.
        assert_eq!(fold("rele\u{301}ase"), "release");
        assert_eq!(fold("rel\u{e8}ase"), "release");
        assert_eq!(fold("R\u{c9}LEASE"), "release");
        assert_eq!(fold("\u{130}"), "i");
        // Plain ASCII names fold alike only when they differ in case alone.
        assert_ne!(fold("step1"), fold("stepl"));
        assert_ne!(fold("modern"), fold("rnodern"));
    }

    #[test]
    fn line_endings_and_boms() {
        assert_eq!(normalise("\u{feff}a\r\nb\r\n"), "a\nb\n");
        assert_eq!(normalise("a\rb"), "a\rb");
        assert_eq!(normalise("a\r\r\nb"), "a\nb");
        assert_eq!(normalise("a\r\r\r\n\r\nb\r"), "a\n\nb\r");
        assert_eq!(normalise("\u{feff}\u{feff}x\u{feff}"), "x\u{feff}");
        assert_eq!(normalise_trimmed("\n\u{feff} \r\r\n x \r\n"), "x");
        assert_eq!(normalise_trimmed("\u{feff}"), "");
        // Where the text starts in its file: lines and columns trimmed before it.
        let at = |raw: &str| normalise_trimmed_at(raw).1;
        assert_eq!(at("x"), Lead { lines: 0, cols: 0 });
        assert_eq!(at("\u{feff}  x"), Lead { lines: 0, cols: 2 });
        assert_eq!(at("\r\n\r\n\t x\n"), Lead { lines: 2, cols: 2 });
        assert_eq!(at("\n\u{feff} \r\r\n x"), Lead { lines: 2, cols: 1 });
    }

    fn messy() -> impl Strategy<Value = String> {
        // Random bytes read lossily, plus the characters that matter here, often.
        let piece = prop_oneof![
            Just("\r".to_string()),
            Just("\n".to_string()),
            Just("\u{feff}".to_string()),
            Just(" ".to_string()),
            proptest::collection::vec(any::<u8>(), 0..8)
                .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        ];
        proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn normalising_is_a_fixed_point(raw in messy()) {
            let once = normalise(&raw);
            prop_assert_eq!(&normalise(&once), &once);
            prop_assert!(!once.contains("\r\n"));
            prop_assert!(!once.starts_with(BOM));
            let trimmed = normalise_trimmed(&raw);
            prop_assert_eq!(&normalise_trimmed(&trimmed), &trimmed);
            prop_assert!(!trimmed.contains("\r\n"));
        }

        #[test]
        fn folding_is_a_fixed_point(name in any::<String>()) {
            let once = fold(&name);
            prop_assert_eq!(fold(&once), once);
        }

        #[test]
        fn only_line_ending_carriage_returns_and_leading_boms_go(raw in messy()) {
            // Nothing else is touched: removing CRs before LFs and leading BOMs from the
            // input gives the output.
            let mut expect = raw.trim_start_matches(BOM).to_string();
            while expect.contains("\r\n") {
                expect = expect.replace("\r\n", "\n");
            }
            prop_assert_eq!(normalise(&raw), expect);
        }
    }
}
