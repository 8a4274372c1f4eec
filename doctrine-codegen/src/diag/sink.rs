//! Where the stages report: diagnostics collected as spans into the manifest (or a file it
//! names), with what failed to parse so that nothing refers to it twice.

use std::ops::Range;

use super::{Diagnostic, Diagnostics, FileId, Files, Span};

/// Collects diagnostics against the manifest and the files read for it.
pub(crate) struct Sink<'s> {
    /// The manifest's text, copied into `files` only when there is something to report.
    source: &'s str,
    manifest: FileId,
    files: Files,
    found: Vec<Diagnostic>,
    reported: Reported,
}

/// What failed to parse and was reported already, so that nothing referring to it is
/// reported again (one broken value, one diagnostic).
#[derive(Clone, Debug, Default)]
pub(crate) struct Reported {
    /// Knobs and facts whose declaration failed to deserialise.
    pub(crate) names: Vec<String>,
    /// `roles` (or `modes`) failed to deserialise.
    pub(crate) roles: bool,
    /// Layers whose table failed to deserialise (by name, `""` when it had none).
    pub(crate) layers: Vec<String>,
}

impl<'s> Sink<'s> {
    /// A sink for the manifest shown as `path`, whose text is `source`.
    pub(crate) fn new(path: String, source: &'s str) -> Self {
        let mut files = Files::default();
        let manifest = files.add(path, String::new());
        Sink {
            source,
            manifest,
            files,
            found: Vec::new(),
            reported: Reported::default(),
        }
    }

    /// What failed to parse, reported already.
    pub(crate) fn reported(&self) -> &Reported {
        &self.reported
    }

    pub(crate) fn reported_mut(&mut self) -> &mut Reported {
        &mut self.reported
    }

    /// How many diagnostics so far: a stage compares counts to tell whether it added any.
    pub(crate) fn count(&self) -> usize {
        self.found.len()
    }

    pub(crate) fn has_errors(&self) -> bool {
        !self.found.is_empty()
    }

    /// Every diagnostic, in the order found, with the files they point into.
    pub(crate) fn into_diagnostics(mut self) -> Diagnostics {
        self.files.set_text(self.manifest, self.source.to_string());
        Diagnostics {
            files: self.files,
            list: self.found,
        }
    }

    /// A file read for the manifest, `text` as read, so spans can point into it.
    pub(crate) fn add_file(&mut self, name: String, text: String) -> FileId {
        self.files.add(name, text)
    }

    /// Reports at `span` of the manifest (`None`: the manifest as a whole).
    pub(crate) fn error(
        &mut self,
        span: Option<Range<usize>>,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        let span = Span {
            file: self.manifest,
            bytes: span,
        };
        self.error_at(span, message, help);
    }

    /// Reports at `span`, in any file of the sink's.
    pub(crate) fn error_at(
        &mut self,
        span: Span,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        self.found.push(Diagnostic {
            span,
            message: message.into(),
            help,
        });
    }

    /// As [`Sink::error`], unless the same diagnostic is there already at the same place:
    /// texts written inline are all located at their manifest entry, where two alike would
    /// be one mistake reported twice.
    pub(crate) fn error_once(
        &mut self,
        span: Range<usize>,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        let (file, at, message) = (self.manifest, Some(span.start), message.into());
        let same = |d: &Diagnostic| {
            d.span.file == file && d.span.start() == at && d.message == message && d.help == help
        };
        if !self.found.iter().any(same) {
            self.error(Some(span), message, help);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_into_the_manifest_and_the_files_it_names() {
        let mut sink = Sink::new("d.toml".into(), "a = 1\n");
        let md = sink.add_file("x.md".into(), "{y}".into());
        sink.error(Some(4..5), "one", None);
        sink.error_once(4..6, "one", None);
        sink.error_at(Span::new(md, 1..2), "two", None);
        sink.error(None, "three", None);
        assert_eq!(
            sink.into_diagnostics().to_string(),
            "d.toml:1:5: one\nx.md:1:2: two\nd.toml: three"
        );
    }
}
