//! Arbitrary text through the text functions the generator applies to every markdown file:
//! `normalise`, `strip_frontmatter` and the `{placeholder}` scanner; through the skill-file
//! parser (one-line fields hold no line break or control character); as a name through
//! `fold` (a fixed point); and inside a marker through `marked` (it can never close the
//! marker). Each result is checked against a property of its input, not only for not
//! panicking.
#![no_main]

use doctrine_codegen::__internals::{fold, parse_skill};
use doctrine_codegen::__internals::{normalise, strip_frontmatter, Fields};
use doctrine_codegen::__internals::{placeholders, Piece, TemplateError};
use doctrine_core::__private::marked;
use libfuzzer_sys::fuzz_target;

const BOM: char = '\u{feff}';

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check_normalise(&text);
    let normalised = normalise(&text);
    for t in [text.as_ref(), normalised.as_str()] {
        check_frontmatter(t);
        check_placeholders(t);
    }
    check_skill(&normalised);
    check_fold(&text);
    check_marked(&text);
});

/// Whether `c` may not stand in a one-line field: Cc, the line and paragraph separators,
/// the bidi controls. Written out here, apart from the library's own predicate.
fn breaks_a_line(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// A skill that parses has one-line fields, trimmed and non-empty, and a body; one that
/// does not says why.
fn check_skill(text: &str) {
    match parse_skill(text, "stem") {
        Ok((name, when, triggers, body)) => {
            for field in [&name, &when].into_iter().chain(&triggers) {
                assert!(!field.is_empty(), "an empty field: {field:?}");
                assert_eq!(field.trim(), field, "an untrimmed field");
                assert!(
                    !field.chars().any(breaks_a_line),
                    "a one-line field breaks its line: {field:?}"
                );
            }
            assert!(name.chars().count() <= doctrine_load::limits::MAX_SKILL_NAME_CHARS);
            assert!(!body.is_empty());
        }
        Err(message) => {
            assert!(!message.is_empty());
            assert!(
                !message.chars().any(breaks_a_line),
                "a message that breaks its line: {message:?}"
            );
        }
    }
}

/// Folding is a fixed point, leaves no ASCII capital, and turns plain ASCII into its
/// lowercase alone (so no two ASCII names fold alike unless they differ in case only).
fn check_fold(name: &str) {
    let once = fold(name);
    assert_eq!(fold(&once), once, "fold is not a fixed point");
    assert!(!once.chars().any(|c| c.is_ascii_uppercase()), "{once:?}");
    if name.is_ascii() {
        assert_eq!(once, name.to_ascii_lowercase());
    }
}

/// Inside a marker, the text cannot close it: every occurrence of the closing text (in any
/// ASCII case, overlapping ones too) lies in the marker's own text; only escapes were added;
/// and escaped text wraps as it is.
fn check_marked(text: &str) {
    for (before, after) in [
        ("<system-reminder>\n", "\n</system-reminder>"),
        ("[[", "]]"),
        ("\\begin ", " \\end"),
        ("abab", "abab"),
    ] {
        let (out, n) = marked(before, text, after);
        assert!(out.starts_with(before) && out.ends_with(after));
        let closer = after.trim();
        let escape = if closer.contains('\\') { '/' } else { '\\' };
        assert_eq!(
            out.len(),
            before.len() + text.len() + after.len() + n * escape.len_utf8()
        );
        let inner_end = out.len() - after.len();
        let bytes = out.as_bytes();
        for i in 0..=out.len() - closer.len() {
            if bytes[i..i + closer.len()].eq_ignore_ascii_case(closer.as_bytes()) {
                assert!(
                    i + closer.len() <= before.len() || i >= inner_end,
                    "`{closer}` at {i} closes the marker early: {out:?}"
                );
            }
        }
        let inner = &out[before.len()..inner_end];
        assert_eq!(marked(before, inner, after), (out.clone(), 0), "not stable");
    }
}

/// Only line-ending carriage returns and leading BOMs go, and once is enough.
fn check_normalise(text: &str) {
    let once = normalise(text);
    assert_eq!(normalise(&once), once, "not idempotent");
    assert!(!once.contains("\r\n"), "a CRLF survives");
    assert!(!once.starts_with(BOM), "a leading BOM survives");
    // Reference: drop leading BOMs, then every CR that ends a line (linear, so a long run
    // of CRs does not time the target out).
    let lines: Vec<&str> = text.trim_start_matches(BOM).split('\n').collect();
    let last = lines.len() - 1;
    let expect: Vec<&str> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i < last {
                l.trim_end_matches('\r')
            } else {
                l
            }
        })
        .collect();
    assert_eq!(once, expect.join("\n"));
}

fn check_frontmatter(text: &str) {
    let first = text.split_inclusive('\n').next().unwrap_or("");
    let fence = |f: &str| first.ends_with('\n') && first.trim_end_matches(['\n', ' ', '\t']) == f;
    let fenced = fence("---") || fence("+++");
    match strip_frontmatter(text) {
        Ok((body, fields)) => {
            // The body is the input's own tail, so nothing after the fence moves.
            assert!(text.ends_with(body), "body is not a suffix");
            let start = text.len() - body.len();
            assert!(
                body.is_empty() || body.as_ptr() == text[start..].as_ptr(),
                "body is a copy, not the input's tail"
            );
            if !fenced {
                assert_eq!(body.len(), text.len(), "unfenced text lost bytes");
                assert_eq!(fields, Fields::default(), "fields from unfenced text");
            } else {
                // Between the opening fence and the body: the matter, then a closing
                // fence line of the same kind.
                let head = &text[first.len()..start];
                let closing = head.split_inclusive('\n').next_back().unwrap_or_default();
                assert_eq!(
                    closing.trim_end_matches(['\n', ' ', '\t']),
                    first.trim_end_matches(['\n', ' ', '\t']),
                    "no closing fence before the body"
                );
                assert!(
                    closing.ends_with('\n') || body.is_empty(),
                    "the closing fence shares its line with the body"
                );
                // YAML read no line as two: no line break but a line feed got through (a
                // bare CR once ended a value there, and the rest was dropped in silence).
                let matter = &head[..head.len() - closing.len()];
                assert!(
                    !fence("---") || !matter.contains(['\r', '\u{85}', '\u{2028}', '\u{2029}']),
                    "YAML frontmatter with a line break other than LF was read: {matter:?}"
                );
            }
        }
        Err(e) => {
            assert!(fenced, "error for unfenced text: {}", e.message);
            assert!(!e.message.is_empty());
            // Lines are counted at `\n` only, as everywhere the generator reports a place
            // (a lone CR once counted as a line break in YAML errors: FUZZING.md).
            let lines = text.split_inclusive('\n').count().max(1);
            assert!(
                e.line >= 1 && e.line <= lines,
                "error line {} outside the {lines}-line text: {}",
                e.line,
                e.message
            );
        }
    }
}

/// The pieces rebuild the input exactly (literal braces doubled back), and every offset
/// points at the brace it names.
fn check_placeholders(text: &str) {
    match placeholders(text) {
        Ok(pieces) => {
            let mut rebuilt = String::with_capacity(text.len());
            for piece in &pieces {
                match piece {
                    Piece::Html(name, _) => panic!("`{name}` read as handlebars' from braces"),
                    Piece::Lit(lit) => {
                        assert!(!lit.is_empty(), "empty literal piece");
                        rebuilt.push_str(&lit.replace('{', "{{").replace('}', "}}"));
                    }
                    Piece::Name(name, at) => {
                        assert_eq!(*at, rebuilt.len(), "offset of `{{{name}}}`");
                        assert!(text.is_char_boundary(*at));
                        assert!(text[*at..].starts_with(&format!("{{{name}}}")));
                        // A Rust field name: a lowercase letter, then [a-z0-9_], no keyword;
                        // two of them joined by `.` (a nested struct's field); or `.`, a
                        // loop's plain item.
                        let field = |part: &str| {
                            let mut chars = part.chars();
                            chars.next().is_some_and(|c| c.is_ascii_lowercase())
                                && chars.all(|c| {
                                    c == '_' || c.is_ascii_lowercase() || c.is_ascii_digit()
                                })
                                && syn::parse_str::<syn::Ident>(part).is_ok()
                        };
                        let parts: Vec<&str> = name.split('.').collect();
                        assert!(
                            name == "." || parts.len() <= 2 && parts.iter().all(|p| field(p)),
                            "`{name}` accepted as a placeholder name"
                        );
                        rebuilt.push_str(&format!("{{{name}}}"));
                    }
                    Piece::Open(name, negated, at) => {
                        let written = format!("{{?{}{name}}}", if *negated { "!" } else { "" });
                        assert_eq!(*at, rebuilt.len(), "offset of `{written}`");
                        assert!(text[*at..].starts_with(&written));
                        rebuilt.push_str(&written);
                    }
                    // A condition's tags are spaced as written; the piece holds its words.
                    Piece::When(_, _, at) | Piece::Close(_, at)
                        if text[*at..].find('}').is_some_and(|end| {
                            text[*at + 1..*at + end].contains([' ', '(', '=', '"', '\''])
                        }) =>
                    {
                        assert_eq!(*at, rebuilt.len(), "offset of a condition's tag");
                        let end = at + text[*at..].find('}').unwrap() + 1;
                        assert!(text[*at..].starts_with("{?") || text[*at..].starts_with("{/"));
                        rebuilt.push_str(&text[*at..end]);
                    }
                    Piece::When(_, written, _) => panic!("condition `{written}` without its words"),
                    Piece::Close(name, at) => {
                        let written = format!("{{/{name}}}");
                        assert_eq!(*at, rebuilt.len(), "offset of `{written}`");
                        assert!(text[*at..].starts_with(&written));
                        rebuilt.push_str(&written);
                    }
                    Piece::Count(name, count, negated, at) => {
                        let bang = if *negated { "!" } else { "" };
                        let written = format!("{{?{bang}{name}:{}}}", count.word());
                        assert_eq!(*at, rebuilt.len(), "offset of `{written}`");
                        rebuilt.push_str(&written);
                    }
                    Piece::Loop(name, at) => {
                        let written = format!("{{#{name}}}");
                        assert_eq!(*at, rebuilt.len(), "offset of `{written}`");
                        rebuilt.push_str(&written);
                    }
                }
            }
            // Sections are balanced: every one opened is closed, innermost first.
            let mut open = Vec::new();
            for piece in &pieces {
                match piece {
                    Piece::Open(name, ..) | Piece::Count(name, ..) | Piece::Loop(name, _) => {
                        open.push(name.clone())
                    }
                    Piece::When(_, written, _) => {
                        open.push(written.strip_prefix('!').unwrap_or(written).to_string())
                    }
                    Piece::Close(name, _) => {
                        assert_eq!(open.pop().as_ref(), Some(name), "unbalanced")
                    }
                    _ => {}
                }
            }
            assert!(open.is_empty(), "a section left open");
            assert_eq!(rebuilt, text, "pieces do not rebuild the text");
        }
        Err(TemplateError { at, message, .. }) => {
            assert!(!message.is_empty());
            assert!(at < text.len(), "error offset {at} past the end");
            assert!(text.is_char_boundary(at));
            assert!(
                text[at..].starts_with('{') || text[at..].starts_with('}'),
                "error offset {at} not at a brace: {message}"
            );
        }
    }
}
