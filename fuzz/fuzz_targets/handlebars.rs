//! `.hbs` text built from handlebars' own pieces (stashes, block helpers, `else`, `else if`,
//! subexpressions, comments, paths good and bad, braces, blanks and line breaks) through
//! the handlebars reader (`placeholders = "handlebars"`) and `cargo doctrine import
//! handlebars`. A text that reads has its sections and loops balanced, within
//! `MAX_SECTION_DEPTH`, every piece's offset on a tag of the text; an error sits on a
//! character boundary of the text and says something short; the import keeps a template
//! it reads as written (reporting only loops that need an `{{else}}`), or reports each
//! mistake (at most 16) inside the text for it.
#![no_main]

use arbitrary::Arbitrary;
use doctrine_codegen::import::{self, Template};
use doctrine_load::__internals::template::{handlebars, shaped, Piece, MAX_SECTION_DEPTH};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Token {
    Value(u8),
    Raw(u8),
    If(u8),
    Unless(u8),
    Each(u8),
    Else,
    ElseIf(u8),
    Close(u8),
    Sub(u8, u8, u8),
    Comment(bool),
    Text(String),
    Blank,
    Newline,
    Brace(u8),
    Repeat(u16),
}

const NAMES: &[&str] = &[
    "xs", "a", "b", "this", "this.f", "@index", "../a", "a.b", "fn", "", "else", "é",
];
const HELPERS: &[&str] = &["or", "and", "not", "eq", "ne", "has", "lookup", "x"];
const CLOSES: &[&str] = &["if", "unless", "each", "xs", "a", "with"];

fn pick<'a>(list: &[&'a str], i: u8) -> &'a str {
    list[i as usize % list.len()]
}

fn text(tokens: &[Token]) -> String {
    let mut out = String::new();
    for t in tokens {
        match t {
            Token::Value(n) => out += &format!("{{{{{}}}}}", pick(NAMES, *n)),
            Token::Raw(n) => out += &format!("{{{{{{{}}}}}}}", pick(NAMES, *n)),
            Token::If(n) => out += &format!("{{{{#if {}}}}}", pick(NAMES, *n)),
            Token::Unless(n) => out += &format!("{{{{#unless {}}}}}", pick(NAMES, *n)),
            Token::Each(n) => out += &format!("{{{{#each {}}}}}", pick(NAMES, *n)),
            Token::Else => out += "{{else}}",
            Token::ElseIf(n) => out += &format!("{{{{else if {}}}}}", pick(NAMES, *n)),
            Token::Close(n) => out += &format!("{{{{/{}}}}}", pick(CLOSES, *n)),
            Token::Sub(h, a, b) => {
                out += &format!(
                    "{{{{#if ({} {} \"{}\")}}}}",
                    pick(HELPERS, *h),
                    pick(NAMES, *a),
                    pick(NAMES, *b)
                )
            }
            Token::Comment(long) => {
                out += if *long {
                    "{{!-- {{x}} --}}"
                } else {
                    "{{! note }}"
                }
            }
            Token::Text(s) => out += s,
            Token::Blank => out.push(' '),
            Token::Newline => out.push('\n'),
            Token::Brace(b) => out += ["{", "}", "{{", "}}", "{{{", "(", ")", "~"][*b as usize % 8],
            Token::Repeat(n) => {
                // The text so far, again: built from what is written, never by recursion,
                // so a run of repeats costs one copy each.
                let again = out.clone();
                for _ in 0..(*n as usize % 64) {
                    if out.len() > 1 << 16 {
                        break;
                    }
                    out += &again;
                }
            }
        }
        if out.len() > 1 << 16 {
            break;
        }
    }
    out
}

fuzz_target!(|tokens: Vec<Token>| {
    let text = text(&tokens);
    let lists = |n: &str| n == "xs";
    match handlebars(&text, &lists, shaped) {
        Ok(pieces) => {
            let mut depth = 0usize;
            for p in &pieces {
                match p {
                    Piece::Lit(s) => assert!(!s.is_empty(), "an empty literal"),
                    Piece::Name(_, at) | Piece::Html(_, at) => {
                        assert!(text[*at..].starts_with("{{"), "a value not at a tag")
                    }
                    Piece::Close(_, at) => {
                        assert!(text[*at..].starts_with("{{"), "a close not at a tag");
                        depth = depth.checked_sub(1).expect("a close with nothing open");
                    }
                    Piece::Open(_, _, at)
                    | Piece::Count(_, _, _, at)
                    | Piece::Loop(_, at)
                    | Piece::When(_, _, at) => {
                        assert!(text[*at..].starts_with("{{"), "an open not at a tag");
                        depth += 1;
                        assert!(depth <= MAX_SECTION_DEPTH, "nested past the limit");
                    }
                }
            }
            assert_eq!(depth, 0, "left open");
        }
        Err(errors) => {
            // Each mistake once, where it stands, and a bounded number of them.
            assert!(!errors.is_empty() && errors.len() <= 16, "{errors:?}");
            for e in &errors {
                assert!(
                    text.is_char_boundary(e.at) && e.at <= text.len(),
                    "error at {}",
                    e.at
                );
                assert!(e.message.chars().count() < 300, "{}", e.message);
            }
        }
    }
    let imported = import::handlebars(&[Template {
        name: "t.hbs".into(),
        source: text.clone(),
    }]);
    match imported.files.as_slice() {
        [(name, kept)] => {
            assert_eq!(name, "t.hbs");
            assert_eq!(kept, &text, "a template not kept as written");
            // Kept, its only problems are loops the author must give an `{{else}}` (past
            // the import's cap on problems, one line says how many more).
            for p in &imported.problems {
                assert!(
                    p.message.contains("add `{{else}}`") || p.message.contains("more things"),
                    "{p}"
                );
            }
        }
        [] => {
            // Each of the reader's mistakes, and no more.
            let n = imported.problems.len();
            assert!((1..=16).contains(&n), "{:?}", imported.problems);
            for p in &imported.problems {
                assert!(
                    p.line >= 1 && p.line <= text.lines().count().max(1) + 1,
                    "{p}"
                );
            }
        }
        more => panic!("{} files for one template", more.len()),
    }
});
