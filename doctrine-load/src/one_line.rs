//! What may not stand in a one-line field (a skill's `name`, `when` and triggers, each
//! printed on one index line): every character that breaks a line or steers how the line
//! around it is shown. A carriage return, a line or paragraph separator, a form feed or NEL
//! starts a new line in some reader, so `when: "Use when asked.\r## Safety"` would print a
//! heading of its own; an escape sequence can rewrite a terminal's line; a bidi override
//! shows the line's text in another order than the model reads it. One predicate, for the
//! compiler (shipped skills) and the runtime (user skills) alike.

/// The first character of `text` that may not stand in one line: its position (in
/// characters, from 0) and its description, `U+000D (carriage return)`.
#[cfg(feature = "frontmatter")]
pub(crate) fn first_break(text: &str) -> Option<(usize, String)> {
    text.chars()
        .enumerate()
        .find_map(|(i, c)| breaks(c).map(|name| (i, format!("U+{:04X} ({name})", c as u32))))
}

/// What `c` is, if it may not stand in one line: general categories Cc (C0 controls, DEL
/// and C1 controls, NEL among them; a tab too: an index line has no columns to align),
/// Zl and Zp (the line and paragraph separators), and the bidi controls (marks, embeddings,
/// overrides, isolates).
pub(crate) fn breaks(c: char) -> Option<&'static str> {
    Some(match c {
        '\0' => "null",
        '\t' => "tab",
        '\n' => "line feed",
        '\u{b}' => "vertical tab",
        '\u{c}' => "form feed",
        '\r' => "carriage return",
        '\u{1b}' => "escape",
        '\u{7f}' => "delete",
        '\u{85}' => "next line",
        '\u{2028}' => "line separator",
        '\u{2029}' => "paragraph separator",
        '\u{61c}' => "Arabic letter mark",
        '\u{200e}' => "left-to-right mark",
        '\u{200f}' => "right-to-left mark",
        '\u{202a}' => "left-to-right embedding",
        '\u{202b}' => "right-to-left embedding",
        '\u{202c}' => "pop directional formatting",
        '\u{202d}' => "left-to-right override",
        '\u{202e}' => "right-to-left override",
        '\u{2066}' => "left-to-right isolate",
        '\u{2067}' => "right-to-left isolate",
        '\u{2068}' => "first strong isolate",
        '\u{2069}' => "pop directional isolate",
        '\u{0}'..='\u{1f}' => "a control character",
        '\u{80}'..='\u{9f}' => "a C1 control character",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_line_break_and_bidi_control_is_named() {
        let refused: Vec<char> = (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|&c| breaks(c).is_some())
            .collect();
        // Cc is exactly U+0000–U+001F and U+007F–U+009F.
        let expect: Vec<char> = ('\0'..='\u{1f}')
            .chain('\u{7f}'..='\u{9f}')
            .chain(['\u{61c}', '\u{200e}', '\u{200f}'])
            .chain('\u{2028}'..='\u{202e}')
            .chain('\u{2066}'..='\u{2069}')
            .collect();
        assert_eq!(refused, expect);
        assert_eq!(
            first_break("Use when asked.\r## Safety"),
            Some((15, "U+000D (carriage return)".into()))
        );
        assert_eq!(
            first_break("a\u{202e}b"),
            Some((1, "U+202E (right-to-left override)".into()))
        );
        assert_eq!(first_break("plain — one line, «quoted»"), None);
    }
}
