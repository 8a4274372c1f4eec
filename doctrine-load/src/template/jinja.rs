//! `whitespace = "jinja"`: a layer's block tags (sections and loops) take whitespace as
//! Jinja does with `trim_blocks` and `lstrip_blocks`, so a template translated tag for tag
//! prints what it printed there. The default, `"standalone"`, is
//! [`super::standalone`].

use super::Piece;

/// Jinja's two rules on the pieces of a text, in reading order:
/// - `trim_blocks`: the line break right after a block tag goes (`\r\n`, `\n` or `\r`),
///   whatever stands before the tag on its line, so `{x}{/x}` ending a line of text takes
///   that line's break too;
/// - `lstrip_blocks`: the whitespace before a block tag goes when only whitespace stands
///   between the tag and the start of its line: a line break, the start of the text, or a
///   break the rule above removed. Whitespace after a placeholder or another tag on the
///   same line stays.
///
/// And as Jinja reads a template, one line break ending the text is not part of it
/// (`keep_trailing_newline` off, the default).
pub fn jinja(mut pieces: Vec<Piece>) -> Vec<Piece> {
    if let Some(Piece::Lit(last)) = pieces.last_mut() {
        for end in ['\n', '\r'] {
            if last.ends_with(end) {
                last.pop();
            }
        }
    }
    let blocks: Vec<bool> = pieces.iter().map(Piece::is_block).collect();
    let mut out = Vec::with_capacity(pieces.len());
    for (i, p) in pieces.into_iter().enumerate() {
        let Piece::Lit(text) = p else {
            out.push(p);
            continue;
        };
        let after_block = i > 0 && blocks[i - 1];
        let (mut kept, at_line_start) = match after_block {
            true => match line_break(&text) {
                Some(len) => (&text[len..], true),
                None => (&text[..], false),
            },
            false => (&text[..], i == 0),
        };
        if blocks.get(i + 1).copied().unwrap_or(false) {
            kept = lstrip(kept, at_line_start);
        }
        if !kept.is_empty() {
            out.push(Piece::Lit(kept.to_string()));
        }
    }
    out
}

/// The length of the line break `text` starts with.
fn line_break(text: &str) -> Option<usize> {
    if text.starts_with("\r\n") {
        Some(2)
    } else if text.starts_with(['\n', '\r']) {
        Some(1)
    } else {
        None
    }
}

/// `text` without the whitespace that ends it after its last line break (or all of it,
/// whitespace only, when it starts a line).
fn lstrip(text: &str, at_line_start: bool) -> &str {
    let end = text.trim_end_matches(|c: char| c.is_whitespace() && c != '\n');
    match end.ends_with('\n') || (end.is_empty() && at_line_start) {
        true => end,
        false => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the text prints with every section on and every placeholder `v`.
    fn render(text: &str) -> String {
        jinja(super::super::placeholders(text, super::super::shaped).unwrap())
            .into_iter()
            .map(|p| match p {
                Piece::Lit(s) => s,
                Piece::Name(..) => "v".into(),
                _ => String::new(),
            })
            .collect()
    }

    /// Each case's right side is what minijinja 3.1 printed for it with `trim_blocks` and
    /// `lstrip_blocks`, written `{% if t %}…{% endif %}` and `{{ x }}` there, `t` true and
    /// `x` `"v"` (`tests/it/jinja.rs` holds the corpus of whole templates).
    #[test]
    fn block_tags_take_whitespace_as_jinja_does() {
        for (text, theirs) in [
            ("a\n  {?t}\nX\n  {/t}\nb", "a\nX\nb"),
            ("v {x}  {?t}Y{/t}  z", "v v  Y  z"),
            ("{?t}  {?t}Y{/t}{/t}", "  Y"),
            ("{x}{?t}A{/t}\nB", "vAB"),
            ("a\r\n  {?t}\r\nX\r\n{/t}\r\nb", "a\r\nX\r\nb"),
            ("x\n\u{3000} {?t}Z{/t}", "x\nZ"),
            ("{?t}\n  {?t}Y{/t}{/t}", "Y"),
            ("{x}\n  {?t}Y{/t}", "v\nY"),
            ("  {?t}Y{/t}", "Y"),
            (" \n {?t}Y\n {/t} \nZ", " \nY\n \nZ"),
            ("{?t}\r\n{/t}|", "|"),
            ("{?t}\rX{/t}|", "X|"),
            ("{?t}  \nX{/t}|", "  \nX|"),
            ("A{?t}\n{/t}\nB", "AB"),
            ("{?t}\n\n{/t}", "\n"),
            ("t\n", "t"),
            ("t\n\n", "t\n"),
            ("t\r\n", "t"),
            ("{?t}\n{/t}\n", ""),
        ] {
            assert_eq!(render(text), theirs, "{text:?}");
        }
    }
}
