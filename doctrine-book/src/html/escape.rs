//! Escaping for the page: every byte of a prompt, a layer's name or a file's path reaches
//! the page through these, so none can open a tag, close an element or end a comment, and
//! the browser's text is the prompt's text. A carriage return and the other C0 controls are
//! written as character references (a raw CR would be read as a line feed); NUL cannot be
//! held by a page's text at all, so the copy control reads the prompt from a JSON string
//! ([`json`]), where it is `\u0000`.

use std::fmt::Write as _;

/// `text` as the content of an element.
pub(crate) fn text(out: &mut String, text: &str) {
    escape(out, text, false);
}

/// `text` inside a double-quoted attribute value.
pub(crate) fn attr(out: &mut String, text: &str) {
    escape(out, text, true);
}

fn escape(out: &mut String, text: &str, quotes: bool) {
    let mut plain = 0;
    for (i, c) in text.char_indices() {
        let replaced = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' if quotes => "&quot;",
            '\'' if quotes => "&#39;",
            '\n' | '\t' => continue,
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&text[plain..i]);
                let _ = write!(out, "&#{};", c as u32);
                plain = i + c.len_utf8();
                continue;
            }
            _ => continue,
        };
        out.push_str(&text[plain..i]);
        out.push_str(replaced);
        plain = i + c.len_utf8();
    }
    out.push_str(&text[plain..]);
}

/// `text` as a JSON string literal that can stand inside a `<script>` element: `<`, `>`
/// and `&` are escaped too, so no `</script>` or `<!--` can appear in it.
pub(crate) fn json(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// How a short stretch (a separator) is spelled on its label: `"\n\n"`.
pub(crate) fn spelled(text: &str) -> String {
    format!("{text:?}")
}

/// The invisible and direction-changing characters in `text`, as `U+200B ×2`, for a
/// label: they are kept in the bytes, and the label says they are there.
pub(crate) fn invisibles(text: &str) -> Vec<String> {
    let mut found: Vec<(char, usize)> = Vec::new();
    for c in text.chars().filter(|&c| invisible(c)) {
        match found.iter_mut().find(|(k, _)| *k == c) {
            Some((_, n)) => *n += 1,
            None => found.push((c, 1)),
        }
    }
    found
        .into_iter()
        .map(|(c, n)| format!("U+{:04X} ×{n}", c as u32))
        .collect()
}

fn invisible(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}'
        | '\u{FEFF}' | '\u{00AD}' | '\u{061C}' | '\u{E0000}'..='\u{E007F}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_opens_a_tag_or_closes_an_attribute() {
        let mut out = String::new();
        attr(&mut out, "</pre><script>\"'&amp;-->\r\0");
        assert_eq!(
            out,
            "&lt;/pre&gt;&lt;script&gt;&quot;&#39;&amp;amp;--&gt;&#13;&#0;"
        );
        let mut out = String::new();
        text(&mut out, "a\"b'\n\tc");
        assert_eq!(out, "a\"b'\n\tc");
    }

    #[test]
    fn json_cannot_end_its_script() {
        let mut out = String::new();
        json(&mut out, "</script><!--\u{0}\"\\\n\u{2028}");
        assert_eq!(out, r#""\u003c/script\u003e\u003c!--\u0000\"\\\n\u2028""#);
    }

    #[test]
    fn invisibles_are_counted() {
        assert_eq!(
            invisibles("a\u{200B}b\u{202E}c\u{200B}"),
            ["U+200B ×2", "U+202E ×1"]
        );
    }
}
