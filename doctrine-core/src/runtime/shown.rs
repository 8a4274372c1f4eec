//! Text quoted in a notice or an `explain()` line: line breaks, tabs and other control
//! characters written as escapes so the quote stays on its line, everything else as the
//! prompt holds it (a `\` is one `\`, where `escape_debug` would write two).

use std::fmt;

/// `text` as a notice quotes it.
pub(crate) struct Shown<'a>(pub(crate) &'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
                true => write!(f, "{}", c.escape_debug())?,
                false => write!(f, "{c}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Shown;

    #[test]
    fn a_backslash_is_shown_once_and_a_line_break_as_an_escape() {
        assert_eq!(Shown("<\\/safety>").to_string(), "<\\/safety>");
        assert_eq!(Shown("a\n\\#b\t\"c\"").to_string(), "a\\n\\#b\\t\"c\"");
        assert_eq!(Shown("\u{7}\u{2028}é").to_string(), "\\u{7}\\u{2028}é");
    }
}
