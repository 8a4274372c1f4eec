//! The Jinja importer on up to three templates built from Jinja's own pieces (block,
//! variable and comment tags, `raw`/`endraw`, `-` and `+` markers,
//! `if`/`elif`/`else`/`for`/`endfor`, filters, tests, names good and bad, Rust keywords
//! and names the generator keeps among them, any text, a token repeating the template so
//! far), under file names good and bad (no stem, a keyword, the same stem twice), and the
//! mustache reader on the same text. The import never panics: a problem sits inside its
//! template (line and column within it), what it writes parses as placeholders (braces
//! escaped), no two files share a name, and what it imports without a problem the
//! generator's own validator (`load`, as `cargo doctrine check` runs it) accepts.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use doctrine_codegen::__internals::{mustache, placeholders};
use doctrine_codegen::import::{jinja, Template};
use doctrine_codegen::{load, Request};
use doctrine_fuzz::scratch_dir;
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
    Raw,
    EndRaw,
    /// The tokens after it are another template, under `FILES[n]` (the first one's file
    /// name when it comes first).
    File(u8),
}

const NAMES: &[&str] = &[
    "a", "xs", "item", "x.y", "", "1", "é", "not", "for", "fn", "ALL", "NAMES", "type", "Name",
    "self", "self_", "gen", "loop", "t", "extra", "facts", "a_b",
];
const FILES: &[&str] = &[
    "t.jinja",
    ".jinja",
    "..jinja",
    "...jinja",
    "type.jinja",
    "a/sys.jinja",
    "b/sys.jinja",
    "Sys.jinja",
    "sys_2.jinja",
    "2nd.jinja",
    "self.jinja",
    "é.jinja",
    "t-2.jinja",
    "extra.jinja",
    "fn.prompt.jinja",
    "a\\b\\t.jinja",
];
const FILTERS: &[&str] = &["trim", "tojson", "upper", "default('x')", ""];

fn name(n: u8) -> &'static str {
    NAMES[n as usize % NAMES.len()]
}

/// The templates the tokens make, each as `(file name, text)`.
fn templates(tokens: &[Token]) -> Vec<(String, String)> {
    let mut out = vec![("t.jinja".to_string(), String::new())];
    for token in tokens {
        if let Token::File(n) = token {
            let file = FILES[*n as usize % FILES.len()].to_string();
            let count = out.len();
            match out.last_mut() {
                Some((name, text)) if text.is_empty() => *name = file,
                _ if count < 3 => out.push((file, String::new())),
                _ => {}
            }
            continue;
        }
        if let Some((_, text)) = out.last_mut() {
            render(token, text);
        }
    }
    out
}

fn render(token: &Token, t: &mut String) {
    if t.len() > 1 << 16 {
        return;
    }
    match token {
        Token::If(n) => *t += &format!("{{% if {} %}}", name(*n)),
        Token::IfNot(n) => *t += &format!("{{% if not {} %}}", name(*n)),
        Token::IfDefined(n) => *t += &format!("{{% if {} is defined %}}", name(*n)),
        Token::Elif(n) => *t += &format!("{{% elif {} %}}", name(*n)),
        Token::Else => *t += "{% else %}",
        Token::EndIf => *t += "{% endif %}",
        Token::For(a, b) => *t += &format!("{{% for {} in {} %}}", name(*a), name(*b)),
        Token::EndFor => *t += "{% endfor %}",
        Token::Print(n) => *t += &format!("{{{{ {} }}}}", name(*n)),
        Token::Field(a, b) => *t += &format!("{{{{ {}.{} }}}}", name(*a), name(*b)),
        Token::Filter(n, f) => {
            *t += &format!(
                "{{{{ {} | {} }}}}",
                name(*n),
                FILTERS[*f as usize % FILTERS.len()]
            )
        }
        Token::Comment => *t += "{# note #}",
        Token::Marker(m) => *t += ["{%-", "-%}", "{%+", "+%}", "{{-", "-}}"][*m as usize % 6],
        Token::Text(s) => *t += s,
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
            *t = t.repeat(times)
        }
        Token::Raw => *t += "{% raw %}",
        Token::EndRaw => *t += "{% endraw %}",
        Token::File(_) => {}
    }
}

/// A directory of this process's own, emptied for each input.
fn scratch() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR
        .get_or_init(|| scratch_dir("doctrine-fuzz-import"))
        .join("out");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("cannot create the output directory");
    dir
}

fuzz_target!(|tokens: Vec<Token>| {
    let given: Vec<Template> = templates(&tokens)
        .into_iter()
        .map(|(name, source)| Template { name, source })
        .collect();
    let imported = jinja(&given);
    for p in &imported.problems {
        assert!(p.line >= 1 && p.col >= 1, "{p}");
        // minijinja counts lines in u16; past that its spans wrap, never past the text.
        let within = |t: &Template| p.line <= t.source.matches('\n').count() + 1;
        assert!(
            given.iter().any(|t| t.name == p.template && within(t)),
            "{p}"
        );
    }
    let mut names: Vec<&str> = imported.files.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names.len(),
        imported.files.len(),
        "two files of one name: {names:?}"
    );
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
    if imported.problems.is_empty() {
        // What imports without a problem, the generator accepts.
        let dir = scratch();
        std::fs::write(dir.join("doctrine.toml"), &imported.manifest).unwrap();
        for (name, md) in &imported.files {
            std::fs::write(dir.join(name), md).unwrap();
        }
        if let Err(e) = load(&Request::new("doctrine.toml", &dir, &dir)) {
            panic!(
                "imported without a problem, refused by the generator:\n{e}\n{}",
                imported.manifest
            );
        }
    }
    for t in &given {
        let _ = mustache(&t.source, &|n| n == "xs");
    }
});
