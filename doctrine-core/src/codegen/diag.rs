//! Compile errors that name the manifest's `file:line:col` (or a markdown file) and a fix.

use std::fmt;
use std::ops::Range;

use super::lines::Lines;

/// One problem found in a manifest or a file it references.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// `path:line:col` or `path`.
    pub location: String,
    pub message: String,
    /// How to fix it, when there is something to say.
    pub help: Option<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl Diagnostic {
    /// This diagnostic as rustc prints the macro's error, less rustc's excerpt of the
    /// invoking line: `error: location: message`, then `  help: …`, each line ending in a
    /// newline. `cargo doctrine check` prints this, and the `tests/errors/*.diag` files hold it.
    pub fn rendered(&self) -> String {
        format!("error: {self}\n")
    }

    /// The file [`location`](Diagnostic::location) names and, where it names a position, the
    /// line and column there (from 1; columns count characters): the location split where
    /// it was joined.
    pub fn position(&self) -> (&str, Option<(usize, usize)>) {
        let mut parts = self.location.rsplitn(3, ':');
        let (col, line, file) = (parts.next(), parts.next(), parts.next());
        match (
            file,
            line.and_then(|l| l.parse().ok()),
            col.and_then(|c| c.parse().ok()),
        ) {
            (Some(file), Some(line), Some(col)) => (file, Some((line, col))),
            _ => (&self.location, None),
        }
    }
}

/// Every diagnostic found in one manifest, in the order found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Every diagnostic [rendered](Diagnostic::rendered), one blank line apart.
    pub fn rendered(&self) -> String {
        let blocks: Vec<String> = self.0.iter().map(Diagnostic::rendered).collect();
        blocks.join("\n")
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Maps byte offsets of one file to `path:line:col` and collects diagnostics against it.
pub(super) struct Sink<'s> {
    path: String,
    lines: Lines<'s>,
    found: Vec<Diagnostic>,
    reported: Reported,
}

/// What failed to parse and was reported already, so that nothing referring to it is
/// reported again (one broken value, one diagnostic).
#[derive(Clone, Debug, Default)]
pub(super) struct Reported {
    /// Knobs and facts whose declaration failed to deserialise.
    pub(super) names: Vec<String>,
    /// `roles` (or `modes`) failed to deserialise.
    pub(super) roles: bool,
    /// Layers whose table failed to deserialise (by name, `""` when it had none).
    pub(super) layers: Vec<String>,
}

impl<'s> Sink<'s> {
    pub(super) fn new(path: String, source: &'s str) -> Self {
        Sink {
            path,
            lines: Lines::new(source),
            found: Vec::new(),
            reported: Reported::default(),
        }
    }

    /// What failed to parse, reported already.
    pub(super) fn reported(&self) -> &Reported {
        &self.reported
    }

    pub(super) fn reported_mut(&mut self) -> &mut Reported {
        &mut self.reported
    }

    /// How many diagnostics so far: a stage compares counts to tell whether it added any.
    pub(super) fn count(&self) -> usize {
        self.found.len()
    }

    pub(super) fn has_errors(&self) -> bool {
        !self.found.is_empty()
    }

    /// Every diagnostic, in the order found.
    pub(super) fn into_diagnostics(self) -> Diagnostics {
        Diagnostics(self.found)
    }

    /// `path:line:col` of a byte offset, counting columns in characters from 1.
    pub(super) fn locate(&self, offset: usize) -> String {
        let (line, col) = self.lines.at(offset);
        format!("{}:{line}:{col}", self.path)
    }

    pub(super) fn error(
        &mut self,
        span: Option<Range<usize>>,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        let location = match span {
            Some(span) => self.locate(span.start),
            None => self.path.clone(),
        };
        self.found.push(Diagnostic {
            location,
            message: message.into(),
            help,
        });
    }

    /// As [`Sink::error`], unless the same diagnostic is there already: texts written
    /// inline are all located at their manifest entry, where two alike would be one
    /// mistake reported twice.
    pub(super) fn error_once(
        &mut self,
        span: Range<usize>,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        let diagnostic = Diagnostic {
            location: self.locate(span.start),
            message: message.into(),
            help,
        };
        if !self.found.contains(&diagnostic) {
            self.found.push(diagnostic);
        }
    }

    pub(super) fn push(&mut self, diagnostic: Diagnostic) {
        self.found.push(diagnostic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_line_and_column() {
        let sink = Sink::new("d.toml".into(), "a = 1\nbé = 2\n");
        assert_eq!(sink.locate(0), "d.toml:1:1");
        assert_eq!(sink.locate(6), "d.toml:2:1");
        assert_eq!(sink.locate(9), "d.toml:2:3");
    }

    #[test]
    fn a_location_splits_into_file_line_and_column() {
        let at = |location: &str| Diagnostic {
            location: location.into(),
            message: "m".into(),
            help: None,
        };
        assert_eq!(
            at("src/d.toml:3:14").position(),
            ("src/d.toml", Some((3, 14)))
        );
        assert_eq!(
            at("a:b/d.toml:1:2").position(),
            ("a:b/d.toml", Some((1, 2)))
        );
        assert_eq!(at("files/x.md").position(), ("files/x.md", None));
        assert_eq!(at("x.md:7").position(), ("x.md:7", None));
        assert_eq!(at("C:\\x.md").position(), ("C:\\x.md", None));
    }

    #[test]
    fn renders_as_rustc_prints_the_macro_error() {
        let d = |message: &str, help: Option<&str>| Diagnostic {
            location: "d.toml:1:2".into(),
            message: message.into(),
            help: help.map(Into::into),
        };
        let all = Diagnostics(vec![d("one", Some("fix it")), d("two", None)]);
        assert_eq!(
            all.rendered(),
            "error: d.toml:1:2: one\n  help: fix it\n\nerror: d.toml:1:2: two\n"
        );
        assert_eq!(Diagnostics::default().rendered(), "");
    }
}
