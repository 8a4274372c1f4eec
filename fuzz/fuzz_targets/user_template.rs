//! A user's overlay template (`overlay_interpolate`) built from the grammar's own pieces
//! (placeholders, sections, conditions, counts, loops and closes on names the layer may
//! use, may not, or may not yet; `{.}`; braces, doubled braces, blanks, line breaks and
//! any text), in each dialect (braces, mustache, handlebars with both stashes and
//! `{{else}}`) and whitespace rule, checked as the loader checks it and rendered with
//! arbitrary values as a composition renders it. Nothing panics or hangs; a refusal is on
//! a character boundary with a short message; a template that reads renders to a trimmed
//! text whose user stretches are in order, inside it and on character boundaries, and
//! cover all of it when every value is empty; the composition's path agrees with the
//! loader's; what it would print is measured first, and a template over its bound (a
//! large value printed again and again) renders nothing and says so.
#![no_main]

use arbitrary::Arbitrary;
use doctrine::__private::{
    measure_user, overlay_template, Dialect, NameKind, TemplateName, TemplateSpec, Value,
};
use doctrine_load::__internals::template::user_template;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Token {
    Name(u8),
    Open(u8),
    Negated(u8),
    Count(u8, bool),
    Loop(u8),
    Close(u8),
    Item,
    /// A condition on two names: `a and not b`, `a or b`, `a = b`, `a has b`.
    When(u8, u8, u8),
    /// Handlebars' `{{{name}}}` (in the other dialects, the name's placeholder).
    Raw(u8),
    /// Handlebars' `{{else}}` (in the other dialects, text).
    Else,
    Text(String),
    Blank,
    Newline,
    Brace(bool),
    Double(bool),
    /// The same tokens again, so a large text costs a few input bytes.
    Repeat(u16),
}

#[derive(Arbitrary, Debug)]
struct Input {
    tokens: Vec<Token>,
    dialect: u8,
    jinja: bool,
    values: [String; 5],
    /// The first value repeated this many times (up to 64 KiB), so a template printing it
    /// again and again crosses its bound.
    grow: u16,
}

/// What the layer may use: a text, a list, a knob, a flag, and a later-tier fact.
const NAMES: &[TemplateName] = &[
    name("user", 0, NameKind::Text, false),
    name("roots", 1, NameKind::List, false),
    name("tone", 2, NameKind::Knob, false),
    name("terse", 3, NameKind::Flag, false),
    name("today", 4, NameKind::Text, true),
];

const fn name(name: &'static str, value: u32, kind: NameKind, later: bool) -> TemplateName {
    TemplateName {
        name,
        value,
        kind,
        later,
        values: &[],
    }
}

/// Names used in tags: the layer's, an unknown one, and ones that are no names.
const WRITTEN: &[&str] = &[
    "user", "roots", "tone", "terse", "today", "nobody", "", "A b", "é",
];

fn text(tokens: &[Token], dialect: Dialect) -> String {
    let mut out = String::new();
    let mustache = dialect != Dialect::Braces;
    let hbs = dialect == Dialect::Handlebars;
    let tag = |inner: String| match mustache {
        true => format!("{{{{{inner}}}}}"),
        false => format!("{{{inner}}}"),
    };
    const JOINS: [&str; 4] = ["and", "or", "=", "has"];
    for t in tokens {
        let n = |i: &u8| WRITTEN[*i as usize % WRITTEN.len()];
        out += &match t {
            Token::Name(i) => tag(n(i).to_string()),
            Token::Raw(i) if hbs => format!("{{{{{{{}}}}}}}", n(i)),
            Token::Raw(i) => tag(n(i).to_string()),
            Token::Else if hbs => tag("else".into()),
            Token::Else => "else".into(),
            // Handlebars closes a block by its helper's name.
            Token::Open(i) if hbs => tag(format!("#if {}", n(i))),
            Token::Negated(i) if hbs => tag(format!("#unless {}", n(i))),
            Token::Close(i) if hbs => {
                tag(format!("/{}", ["if", "unless", "each"][*i as usize % 3]))
            }
            Token::When(a, b, j) if hbs => {
                let (a, b) = (n(a), n(b));
                tag(match JOINS[*j as usize % 4] {
                    "and" => format!("#if (and {a} (not {b}))"),
                    "or" => format!("#if (or {a} {b})"),
                    "=" => format!("#if (eq {a} \"{b}\")"),
                    _ => format!("#if (has {a} \"{b}\")"),
                })
            }
            Token::When(a, b, j) => {
                let (a, b, join) = (n(a), n(b), JOINS[*j as usize % 4]);
                let words = match join {
                    "and" => format!("{a} and not {b}"),
                    _ => format!("{a} {join} {b}"),
                };
                match mustache {
                    true => tag(format!("#{words}")),
                    false => tag(format!("?{words}")),
                }
            }
            Token::Open(i) if mustache => tag(format!("#{}", n(i))),
            Token::Open(i) => tag(format!("?{}", n(i))),
            Token::Negated(i) if mustache => tag(format!("^{}", n(i))),
            Token::Negated(i) => tag(format!("?!{}", n(i))),
            Token::Count(i, many) => {
                tag(format!("?{}:{}", n(i), if *many { "many" } else { "one" }))
            }
            Token::Loop(i) => tag(format!("#{}", n(i))),
            Token::Close(i) => tag(format!("/{}", n(i))),
            Token::Item => tag(".".into()),
            Token::Text(s) => s.clone(),
            Token::Blank => " ".into(),
            Token::Newline => "\n".into(),
            Token::Brace(open) => (if *open { "{" } else { "}" }).into(),
            Token::Double(open) => (if *open { "{{" } else { "}}" }).into(),
            // Up to 32 KiB: twice an overlay file's default cap.
            Token::Repeat(k) => {
                let again = out.clone();
                let times = (*k as usize % 64).min(32 * 1024 / again.len().max(1));
                again.repeat(times)
            }
        };
    }
    out
}

fuzz_target!(|input: Input| {
    let dialect =
        [Dialect::Braces, Dialect::Mustache, Dialect::Handlebars][input.dialect as usize % 3];
    let text = text(&input.tokens, dialect);
    let spec = TemplateSpec {
        layer: "greeting",
        file: "greeting.md",
        names: NAMES,
        dialect,
        jinja: input.jinja,
    };
    let first = &input.values[0];
    let grown = first.repeat((input.grow as usize).min(64 * 1024 / first.len().max(1)));
    let mut values: Vec<Value<'_>> = input.values.iter().map(|v| Value::Text(v)).collect();
    values[0] = Value::Text(&grown);
    let (rendered, refused) = overlay_template(&text, &spec, &values);
    match user_template(text.trim(), &spec) {
        Err(e) => {
            let trimmed = text.trim();
            assert!(trimmed.is_char_boundary(e.at), "{e:?}");
            assert!(e.message.chars().count() < 300, "{}", e.message);
            let (line, col) = e.line_col(trimmed);
            assert!(line >= 1 && col >= 1);
            assert!(refused.is_some() && rendered.text.is_empty());
        }
        Ok(t) => {
            // Over its bound, nothing is rendered and the notice says so; within it, what
            // is printed is what was measured, less the blanks trimmed.
            let measured = measure_user(&t, &values);
            if measured.over() {
                let notice = refused.expect("a template over its bound gives a notice");
                assert!(notice.message.contains("over its bound"), "{notice:?}");
                assert!(rendered.text.is_empty() && rendered.user.is_empty());
                return;
            }
            assert!(refused.is_none());
            let out = &rendered.text;
            assert!(out.len() <= measured.printed && measured.printed <= measured.bound);
            assert_eq!(out.trim(), out);
            let mut end = 0;
            for (r, _) in &rendered.user {
                assert!(
                    r.start >= end && r.start < r.end && r.end <= out.len(),
                    "{r:?}"
                );
                assert!(out.is_char_boundary(r.start) && out.is_char_boundary(r.end));
                end = r.end;
            }
            let users: usize = rendered.user.iter().map(|(r, _)| r.len()).sum();
            assert!(users <= t.lits.len());
            // With every value empty, every byte printed is the user's.
            let empty = [Value::Text(""); 5];
            let (bare, _) = overlay_template(&text, &spec, &empty);
            let covered: usize = bare.user.iter().map(|(r, _)| r.len()).sum();
            assert_eq!(covered, bare.text.len(), "{bare:?}");
        }
    }
});
