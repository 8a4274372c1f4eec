//! Diagnostics rendered where they leave the generator (the macro's `compile_error!`, the
//! tool's text, JSON and SARIF): each span resolved, once, to its file's name and a line
//! and column, and printed as rustc prints the macro's error.

use std::fmt;

use super::{Diagnostic, Diagnostics};
use crate::codegen::lines::Lines;

/// A line and a column, both from 1; columns count characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// A diagnostic with its span resolved: what every rendering prints from.
#[derive(Clone, Copy, Debug)]
pub struct Located<'d> {
    /// The file's name, relative to the crate directory.
    pub file: &'d str,
    /// `None` for a diagnostic about the file as a whole.
    pub position: Option<Position>,
    pub diagnostic: &'d Diagnostic,
}

/// `file:line:col: message` (`file: message` without a position), then `  help: …`.
impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.file)?;
        if let Some(Position { line, column }) = self.position {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": {}", self.diagnostic.message)?;
        if let Some(help) = &self.diagnostic.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl Located<'_> {
    /// As rustc prints the macro's error, less rustc's excerpt of the invoking line:
    /// `error: ` and the diagnostic, each line ending in a newline. `cargo doctrine check`
    /// prints this, and the `tests/errors/*.diag` files hold it.
    pub fn rendered(&self) -> String {
        format!("error: {self}\n")
    }
}

impl Diagnostics {
    /// Each diagnostic with its span resolved, in order. A file's line index is built when
    /// a span first points into it, and kept: offsets asked in increasing order then cost
    /// one pass over the file in all (see `Lines`).
    pub fn located(&self) -> impl Iterator<Item = Located<'_>> {
        let mut lines: Vec<Option<Lines<'_>>> = Vec::new();
        self.list.iter().map(move |d| {
            let file = d.span.file;
            let position = d.span.start().map(|at| {
                if lines.len() <= file.0 {
                    lines.resize_with(file.0 + 1, || None);
                }
                let index = lines[file.0].get_or_insert_with(|| Lines::new(self.files.text(file)));
                let (line, column) = index.at(at);
                Position { line, column }
            });
            Located {
                file: self.files.name(file),
                position,
                diagnostic: d,
            }
        })
    }

    /// Every diagnostic [rendered](Located::rendered), one blank line apart.
    pub fn rendered(&self) -> String {
        let blocks: Vec<String> = self.located().map(|d| d.rendered()).collect();
        blocks.join("\n")
    }
}

/// Each diagnostic as [`Located`] displays it, one a line.
impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.located().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Files, Span};
    use super::*;

    #[test]
    fn renders_as_rustc_prints_the_macro_error() {
        let mut files = Files::default();
        let manifest = files.add("d.toml", "a = 1\nbé = 2\n");
        let d =
            |bytes: Option<std::ops::Range<usize>>, message: &str, help: Option<&str>| Diagnostic {
                span: Span {
                    file: manifest,
                    bytes,
                },
                message: message.into(),
                help: help.map(Into::into),
            };
        let all = Diagnostics {
            files,
            list: vec![
                d(Some(1..2), "one", Some("fix it")),
                d(Some(9..9), "two", None),
                d(None, "three", None),
            ],
        };
        assert_eq!(
            all.rendered(),
            "error: d.toml:1:2: one\n  help: fix it\n\n\
             error: d.toml:2:3: two\n\n\
             error: d.toml: three\n"
        );
        assert_eq!(
            all.to_string(),
            "d.toml:1:2: one\n  help: fix it\nd.toml:2:3: two\nd.toml: three"
        );
        assert_eq!(Diagnostics::default().rendered(), "");
    }

    #[test]
    fn spans_resolve_to_lines_and_columns_of_their_own_file() {
        let mut files = Files::default();
        let a = files.add("a.toml", "x\ny\n");
        let b = files.add("b.md", "é{z}\n");
        let at = |file, at: usize| Diagnostic {
            span: Span::new(file, at..at),
            message: "m".into(),
            help: None,
        };
        let all = Diagnostics {
            files,
            list: vec![at(a, 2), at(b, 2), at(a, 0)],
        };
        let found: Vec<(&str, Option<Position>)> =
            all.located().map(|d| (d.file, d.position)).collect();
        let pos = |line, column| Some(Position { line, column });
        assert_eq!(
            found,
            [
                ("a.toml", pos(2, 1)),
                ("b.md", pos(1, 2)),
                ("a.toml", pos(1, 1))
            ]
        );
    }
}
