//! The Jinja importer on templates built from Jinja's own pieces (block, variable and
//! comment tags, `-` and `+` markers, `if`/`elif`/`else`/`for`/`endfor`, filters, tests,
//! names good and bad, any text, a token repeating the template so far), and the mustache
//! reader on the same text. The import never panics: a problem sits inside its template
//! (line and column within it), what it writes parses as placeholders (braces escaped),
//! and a template that does not parse writes no file.
#![no_main]

use arbitrary::Arbitrary;
use doctrine_codegen::__internals::{mustache, placeholders};
use doctrine_codegen::import::{jinja, Template};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Token {
    If(u8),
    IfNot(u8),
    IfDefined(u8),
    Elif(u8),
    Else,
    EndIf,
    For(u8, u8),
    EndFor,
    Print(u8),
    Field(u8, u8),
    Filter(u8, u8),
    Comment,
    Marker(u8),
    Text(String),
    Newline,
    Blank,
    Brace(bool),
    Repeat(u16),
}

const NAMES: &[&str] = &["a", "xs", "item", "x.y", "", "1", "é", "not", "for"];
const FILTERS: &[&str] = &["trim", "tojson", "upper", "default('x')", ""];

fn name(n: u8) -> &'static str {
    NAMES[n as usize % NAMES.len()]
}

fn render(tokens: &[Token]) -> String {
    let mut t = String::new();
    for token in tokens {
        if t.len() > 1 << 16 {
            break;
        }
        match token {
            Token::If(n) => t += &format!("{{% if {} %}}", name(*n)),
            Token::IfNot(n) => t += &format!("{{% if not {} %}}", name(*n)),
            Token::IfDefined(n) => t += &format!("{{% if {} is defined %}}", name(*n)),
            Token::Elif(n) => t += &format!("{{% elif {} %}}", name(*n)),
            Token::Else => t += "{% else %}",
            Token::EndIf => t += "{% endif %}",
            Token::For(a, b) => t += &format!("{{% for {} in {} %}}", name(*a), name(*b)),
            Token::EndFor => t += "{% endfor %}",
            Token::Print(n) => t += &format!("{{{{ {} }}}}", name(*n)),
            Token::Field(a, b) => t += &format!("{{{{ {}.{} }}}}", name(*a), name(*b)),
            Token::Filter(n, f) => {
                t += &format!(
                    "{{{{ {} | {} }}}}",
                    name(*n),
                    FILTERS[*f as usize % FILTERS.len()]
                )
            }
            Token::Comment => t += "{# note #}",
            Token::Marker(m) => t += ["{%-", "-%}", "{%+", "+%}", "{{-", "-}}"][*m as usize % 6],
            Token::Text(s) => t += s,
            Token::Newline => t.push('\n'),
            Token::Blank => t.push(' '),
            Token::Brace(open) => t.push(if *open { '{' } else { '}' }),
            // Up to 128 KiB: a larger text only times the machine (a 4 MB one took 1.4 s,
            // and 11 s on a loaded machine, which libFuzzer reports as a timeout).
            Token::Repeat(n) => {
                let times = (*n as usize % 64)
                    .max(1)
                    .min((1 << 16) / t.len().max(1))
                    .max(1);
                t = t.repeat(times)
            }
        }
    }
    t
}

fuzz_target!(|tokens: Vec<Token>| {
    let source = render(&tokens);
    let imported = jinja(&[Template {
        name: "t.jinja".into(),
        source: source.clone(),
    }]);
    let lines = source.matches('\n').count() + 1;
    for p in &imported.problems {
        assert!(p.line >= 1 && p.col >= 1, "{p}");
        // minijinja counts lines in u16; past that its spans wrap, never past the text.
        assert!(p.line <= lines, "{p}");
    }
    for (_, md) in &imported.files {
        if let Err(e) = placeholders(md) {
            // Tags the import wrote may fail doctrine's checks (depth, names), never the
            // reading of a brace it escaped.
            assert!(
                matches!(md[e.at..].chars().next(), Some('{' | '}')),
                "{}",
                e.message
            );
        }
    }
    let _ = mustache(&source, &|n| n == "xs");
});
