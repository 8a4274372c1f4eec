//! Text meant for a person at a terminal: the tool's messages on standard error and the
//! `explain` table. A control character taken from a manifest or a user's file would be
//! acted on by the terminal (ESC opens a sequence that can recolour, move the cursor, set
//! the window title or hide what follows; CR overwrites the line; a bidi control reorders
//! what is shown), so each is shown as its escape, `\u{1b}`, as the runtime shows a model
//! name. Line breaks and tabs are kept: the text's own layout.

use std::borrow::Cow;

/// `text` with every control character but `\n` and `\t` (Unicode's `Cc`: C0, DEL, C1)
/// and every bidi control written as Rust writes it escaped (`\u{1b}`, `\r`).
pub(crate) fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acted_on) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match acted_on(c) {
            // Rust's escapes, as the runtime's own: `\r`, `\u{1b}`.
            true => out.extend(c.escape_debug()),
            false => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn acted_on(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn controls_and_bidi_controls_are_escaped_and_layout_is_kept() {
        assert_eq!(shown("plain\n\ttext"), "plain\n\ttext");
        assert_eq!(
            shown("a\x1b[31mb\rc\x07d\u{7f}e\u{9b}f"),
            "a\\u{1b}[31mb\\rc\\u{7}d\\u{7f}e\\u{9b}f"
        );
        assert_eq!(shown("x\u{202e}y\u{2066}z"), "x\\u{202e}y\\u{2066}z");
    }
}
