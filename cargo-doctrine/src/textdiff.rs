//! A unified line diff of two texts (3 lines of context), coloured for a terminal.

use std::io::IsTerminal;

use similar::{ChangeTag, TextDiff};

/// Whether output is coloured: `--color always|never|auto`, `auto` colouring a terminal
/// unless `NO_COLOR` is set (<https://no-color.org>).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Paint(pub(crate) bool);

impl Paint {
    /// `--color`'s value: `Err` names the valid ones.
    pub(crate) fn parse(value: &str) -> Result<Paint, String> {
        match value {
            "always" => Ok(Paint(true)),
            "never" => Ok(Paint(false)),
            "auto" => Ok(Paint::auto()),
            other => Err(format!(
                "unknown colour `{other}`; the choices: auto, always, never"
            )),
        }
    }

    pub(crate) fn auto() -> Paint {
        Paint(std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none())
    }

    /// `text` in the SGR colour `code` (`"31"` red), or as it is.
    pub(crate) fn paint(self, code: &str, text: &str) -> String {
        match self.0 {
            true => format!("\x1b[{code}m{text}\x1b[0m"),
            false => text.to_string(),
        }
    }
}

/// The hunks that turn `old` into `new`, each line `-`, `+` or ` ` and the line.
pub(crate) fn unified(old: &str, new: &str, paint: Paint) -> String {
    let diff = TextDiff::from_lines(old, new);
    let mut out = String::new();
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        out.push_str(&paint.paint("36", &hunk.header().to_string()));
        out.push('\n');
        for change in hunk.iter_changes() {
            let (sign, colour) = match change.tag() {
                ChangeTag::Delete => ('-', "31"),
                ChangeTag::Insert => ('+', "32"),
                ChangeTag::Equal => (' ', ""),
            };
            let line = change.value();
            let body = format!("{sign}{}", line.strip_suffix('\n').unwrap_or(line));
            match colour {
                "" => out.push_str(&body),
                colour => out.push_str(&paint.paint(colour, &body)),
            }
            out.push('\n');
            if !line.ends_with('\n') {
                out.push_str("\\ No newline at end of text\n");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_is_one_hunk_with_its_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nd\nE\nf\ng\nh\n";
        assert_eq!(
            unified(old, new, Paint(false)),
            "@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"
        );
    }

    #[test]
    fn colour_marks_removed_and_added_lines_only() {
        let out = unified("x", "y", Paint(true));
        assert_eq!(
            out,
            "\x1b[36m@@ -1 +1 @@\x1b[0m\n\x1b[31m-x\x1b[0m\n\\ No newline at end of text\n\
             \x1b[32m+y\x1b[0m\n\\ No newline at end of text\n"
        );
    }
}
