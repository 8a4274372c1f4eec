//! `placeholders = "mustache"`: a layer's text read with double braces, as files kept
//! for mustache-like engines are written: `{{name}}`, `{{#list}}…{{/list}}` (a loop over
//! a list fact; over anything else a section, `{?name}`), `{{^name}}…{{/name}}` (printed
//! when it is not given), `{{.}}`, and single braces literal. The tags become the same
//! pieces the braces reader makes, so everything after reading is shared.

use super::{NameCheck, Piece, Reader, TemplateError};
use crate::text::shown;

/// Splits `text` into pieces; `is_list` tells which names are list facts, so
/// `{{#name}}` loops over a list and is a section on anything else.
pub fn mustache(
    text: &str,
    is_list: &dyn Fn(&str) -> bool,
    check: NameCheck,
) -> Result<Vec<Piece>, TemplateError> {
    let mut reader = Reader::new(false, check);
    let mut from = 0;
    while let Some(found) = text[from..].find("{{") {
        let at = from + found;
        reader.lit.push_str(&text[from..at]);
        let triple = text[at + 2..].starts_with('{');
        let (open, close) = if triple { (3, "}}}") } else { (2, "}}") };
        let start = at + open;
        // A tag ends on its own line, so a stray `{{` is found where it is. Its close is
        // looked for first, so a line of many tags is read once, not once per tag.
        let len = text[start..]
            .find(close)
            .filter(|&len| !text[start..start + len].contains('\n'));
        let Some(len) = len else {
            let line = text[start..].find('\n').map_or(text.len(), |i| start + i);
            let written = shown(&text[at..line]);
            return Err(TemplateError::new(
                at,
                format!("tag `{written}` is never closed (add `{close}` on its line)"),
            ));
        };
        let inner = text[start..start + len].trim();
        let tag = braces_form(inner, triple, at, is_list)?;
        reader.tag(&tag, at).map_err(as_written)?;
        from = start + len + close.len();
    }
    reader.lit.push_str(&text[from..]);
    reader.finish().map_err(as_written)
}

/// The shared reader's error with its tags (`` `{#roots}` ``, `` `{/x}` ``) as a mustache
/// text writes them.
fn as_written(mut e: TemplateError) -> TemplateError {
    e.message = mustache_tags(&e.message);
    e.help = e.help.as_deref().map(mustache_tags);
    e
}

/// `words` with each `` `{…}` `` in double braces, a section written `{{#…}}` or `{{^…}}`.
fn mustache_tags(words: &str) -> String {
    let mut out = String::with_capacity(words.len() + 8);
    let mut rest = words;
    while let Some(i) = rest.find("`{") {
        out.push_str(&rest[..i + 1]);
        let after = &rest[i + 1..];
        match after.find("}`") {
            Some(end) => {
                let inner = &after[1..end];
                let inner = match inner.strip_prefix("?!") {
                    Some(n) => format!("^{n}"),
                    None => inner
                        .strip_prefix('?')
                        .map_or(inner.to_string(), |n| format!("#{n}")),
                };
                out.push_str(&format!("{{{{{inner}}}}}"));
                rest = &after[end + 1..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// What the braces reader would read inside `{…}` for the mustache tag `inner` at `at`.
fn braces_form(
    inner: &str,
    triple: bool,
    at: usize,
    is_list: &dyn Fn(&str) -> bool,
) -> Result<String, TemplateError> {
    let refuse = |message: String, help: &str| TemplateError {
        at,
        message,
        help: Some(help.to_string()),
    };
    let (sigil, bare) = match inner.chars().next() {
        Some(c @ ('#' | '^' | '/' | '&' | '!' | '>' | '=')) if !triple => (c, inner[1..].trim()),
        _ => (' ', inner),
    };
    Ok(match sigil {
        // Doctrine never HTML-escapes a value, so `{{{x}}}` and `{{&x}}` are `{{x}}`.
        ' ' | '&' => bare.to_string(),
        // A condition (`{{#a and b}}`) is never a list.
        '#' if is_list(bare) && !super::is_condition(bare) => format!("#{bare}"),
        '#' => format!("?{bare}"),
        '^' => format!("?!{bare}"),
        '/' => format!("/{bare}"),
        '!' => {
            return Err(refuse(
                format!("comment `{{{{{}}}}}` in a layer's text", shown(inner)),
                "comments are not read here: delete it, or say it in the layer's `note`",
            ))
        }
        '>' => {
            return Err(refuse(
                format!(
                    "partial `{{{{{}}}}}`: another file is not read into this one",
                    shown(inner)
                ),
                "put the other file in a layer of its own, or in a list's `item_file`",
            ))
        }
        _ => {
            return Err(refuse(
                format!("`{{{{{}}}}}` would change the delimiters", shown(inner)),
                "delimiters stay `{{` and `}}` in a layer with `placeholders = \"mustache\"`",
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::{shaped, Count};

    fn placeholders(text: &str) -> Result<Vec<Piece>, TemplateError> {
        super::super::placeholders(text, shaped)
    }
    use super::*;

    fn lists(name: &str) -> bool {
        matches!(name, "roots" | "tools")
    }

    /// The mustache text reads as the braces text does, offsets aside.
    fn same(mustache_text: &str, braces: &str) {
        let strip = |pieces: Vec<Piece>| -> Vec<Piece> {
            pieces
                .into_iter()
                .map(|p| match p {
                    Piece::Name(n, _) => Piece::Name(n, 0),
                    Piece::Open(n, neg, _) => Piece::Open(n, neg, 0),
                    Piece::Count(n, c, neg, _) => Piece::Count(n, c, neg, 0),
                    Piece::Loop(n, _) => Piece::Loop(n, 0),
                    Piece::Close(n, _) => Piece::Close(n, 0),
                    Piece::When(c, w, _) => Piece::When(c, w, 0),
                    lit => lit,
                })
                .collect()
        };
        assert_eq!(
            strip(mustache(mustache_text, &lists, shaped).unwrap()),
            strip(placeholders(braces).unwrap()),
            "{mustache_text}"
        );
    }

    #[test]
    fn tags_read_as_their_braces_forms() {
        same("Hi {{name}}, {x} {{ name }}!", "Hi {name}, {{x}} {name}!");
        same("{{#roots}}- {{.}}\n{{/roots}}", "{#roots}- {.}\n{/roots}");
        // Conditions read as in braces; `{{^…}}` negates the whole of one.
        same(
            "{{#roots and not x}}a{{/roots and not x}}{{^c or (d)}}b{{/c or (d)}}",
            "{?roots and not x}a{/roots and not x}{?!c or (d)}b{/c or (d)}",
        );
        // `{{#x}}` on what is not a list is a section, `{{^x}}` its negation.
        same(
            "{{#ci}}CI{{/ci}}{{^ci}}local{{/ci}}",
            "{?ci}CI{/ci}{?!ci}local{/ci}",
        );
        same(
            "{{#tools}}{{#on}}*{{/on}}{{/tools}}",
            "{#tools}{?on}*{/on}{/tools}",
        );
        same("{{{raw}}} {{& raw}}", "{raw} {raw}");
        same("{{?roots:one}}root{{/roots}}", "{?roots:one}root{/roots}");
        same("}} and {single} stay", "}}}} and {{single}} stay");
        let p = mustache("ab{{#roots}}{{.}}{{/roots}}", &lists, shaped).unwrap();
        assert_eq!(p[1], Piece::Loop("roots".into(), 2));
        assert_eq!(p[2], Piece::Name(".".into(), 12));
        assert!(!p.contains(&Piece::Count("roots".into(), Count::One, false, 0)));
    }

    #[test]
    fn errors_sit_at_the_tag() {
        let e = mustache("a\n{{name\n}}", &lists, shaped).unwrap_err();
        assert_eq!(e.at, 2);
        assert_eq!(
            e.message,
            "tag `{{name` is never closed (add `}}` on its line)"
        );
        let e = mustache("x {{#roots}}", &lists, shaped).unwrap_err();
        assert_eq!(
            (e.at, e.message.as_str()),
            (2, "loop `{{#roots}}` is never closed (add `{{/roots}}`)")
        );
        let e = mustache("x {{^ci}}{{/cd}}", &lists, shaped).unwrap_err();
        assert_eq!(e.at, 9);
        for (text, says) in [
            ("{{! note }}", "comment"),
            ("{{> other}}", "partial"),
            ("{{=<% %>=}}", "delimiters"),
            ("{{x y}}", "not a placeholder or section name"),
        ] {
            let e = mustache(text, &lists, shaped).unwrap_err();
            assert_eq!(e.at, 0);
            assert!(e.message.contains(says), "{}", e.message);
        }
        // A hostile text: one error, found in one pass.
        let deep = "{{#a}}".repeat(100_000);
        assert!(mustache(&deep, &lists, shaped)
            .unwrap_err()
            .message
            .contains("nested"));
        assert!(mustache(&"{{".repeat(100_000), &lists, shaped).is_err());
        // 200,000 tags on one line: each is read to its own close, not to the line's end
        // (the fuzzer's timeout of a first version).
        let line = mustache(&"{{a}}".repeat(200_000), &lists, shaped).unwrap();
        assert_eq!(line.len(), 200_000);
    }
}
