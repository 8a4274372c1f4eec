//! Layer text and item templates built from the loop syntax's own pieces (loop, section,
//! count and close tags on good and bad names, `{.}`, braces, blanks and line breaks)
//! through the template parser and the standalone-tag rule. A text that parses has its
//! loops and sections balanced, no loop inside a loop, at most `MAX_LOOPS` loops and
//! `MAX_SECTION_DEPTH` levels, and an item template holds no loop; an error is on a brace.
//! The standalone rule keeps every tag and placeholder in order and takes nothing but the
//! blanks and line breaks of a tag's own line.
#![no_main]

use arbitrary::Arbitrary;
use doctrine_codegen::__internals::{
    item_placeholders, placeholders, standalone, Piece, TemplateError, MAX_LOOPS, MAX_SECTION_DEPTH,
};
use libfuzzer_sys::fuzz_target;

/// One piece of a text, from what the parser reads.
#[derive(Arbitrary, Debug)]
enum Token {
    Loop(u8),
    Open(u8),
    Negated(u8),
    One(u8),
    Many(u8),
    Close(u8),
    Name(u8),
    Item,
    Text(String),
    Blank,
    Tab,
    Newline,
    Brace(bool),
    /// The same tokens again, so a large text costs a few input bytes.
    Repeat(u16),
}

const NAMES: &[&str] = &["xs", "a", "b", "fn", "A", "", "x y", "é"];

fn name(n: u8) -> &'static str {
    NAMES[n as usize % NAMES.len()]
}

fn text(tokens: &[Token]) -> String {
    let mut out = String::new();
    for t in tokens {
        match t {
            Token::Loop(n) => out += &format!("{{#{}}}", name(*n)),
            Token::Open(n) => out += &format!("{{?{}}}", name(*n)),
            Token::Negated(n) => out += &format!("{{?!{}}}", name(*n)),
            Token::One(n) => out += &format!("{{?{}:one}}", name(*n)),
            Token::Many(n) => out += &format!("{{?{}:many}}", name(*n)),
            Token::Close(n) => out += &format!("{{/{}}}", name(*n)),
            Token::Name(n) => out += &format!("{{{}}}", name(*n)),
            Token::Item => out += "{.}",
            Token::Text(s) => out += s,
            Token::Blank => out += " ",
            Token::Tab => out += "\t",
            Token::Newline => out += "\n",
            Token::Brace(open) => out += if *open { "{" } else { "}" },
            // Up to 64 KiB: enough for `MAX_LOOPS` loops, fast enough for a million runs.
            Token::Repeat(n) => {
                let n = (*n as usize % 64).max(1);
                if out.len() * n <= 1 << 16 {
                    out = out.repeat(n);
                }
            }
        }
    }
    out
}

fuzz_target!(|tokens: Vec<Token>| {
    let text = text(&tokens);
    check(&text, placeholders(&text), false);
    check(&text, item_placeholders(&text), true);
});

fn check(text: &str, parsed: Result<Vec<Piece>, TemplateError>, item: bool) {
    let pieces = match parsed {
        Ok(p) => p,
        Err(TemplateError { at, message, .. }) => {
            assert!(!message.is_empty() && message.len() < 400, "{message}");
            assert!(text.is_char_boundary(at));
            assert!(
                text[at..].starts_with(['{', '}']),
                "error at {at}: {message}"
            );
            return;
        }
    };
    // Balanced, loops not nested, within the limits.
    let (mut open, mut loops) = (Vec::new(), 0);
    for p in &pieces {
        match p {
            Piece::Loop(n, _) => {
                assert!(!item, "an item template holds a loop");
                assert!(!open.iter().any(|(_, l)| *l), "a loop inside a loop");
                loops += 1;
                open.push((n.clone(), true));
            }
            Piece::Open(n, ..) | Piece::Count(n, ..) => open.push((n.clone(), false)),
            Piece::When(_, w, _) => {
                open.push((w.strip_prefix('!').unwrap_or(w).to_string(), false))
            }
            Piece::Close(n, _) => {
                assert_eq!(open.pop().map(|o| o.0).as_ref(), Some(n), "unbalanced")
            }
            Piece::Lit(_) | Piece::Name(..) | Piece::Html(..) => {}
        }
        assert!(open.len() <= MAX_SECTION_DEPTH, "nested past the limit");
    }
    assert!(open.is_empty(), "left open");
    assert!(loops <= MAX_LOOPS, "{loops} loops");
    // The standalone rule: the same tags and names in order, and only blanks gone.
    let kept = standalone(pieces.clone());
    let tags = |ps: &[Piece]| -> Vec<String> {
        ps.iter()
            .filter(|p| !matches!(p, Piece::Lit(_)))
            .map(|p| format!("{p:?}"))
            .collect()
    };
    assert_eq!(tags(&pieces), tags(&kept));
    let lits = |ps: &[Piece]| -> String {
        ps.iter()
            .map(|p| match p {
                Piece::Lit(s) => s.as_str(),
                _ => "\u{0}",
            })
            .collect()
    };
    let (before, after) = (lits(&pieces), lits(&kept));
    // What is left is what was there with some blanks and line breaks taken out.
    let mut rest = before.chars();
    for c in after.chars() {
        loop {
            let b = rest.next().expect("kept text that was not there");
            if b == c {
                break;
            }
            assert!(matches!(b, ' ' | '\t' | '\n'), "took {b:?}");
        }
    }
    assert!(rest.all(|b| matches!(b, ' ' | '\t' | '\n')));
}
