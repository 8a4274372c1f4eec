//! Where a diagnostic points, as data: a file of the diagnostics' own table and bytes of
//! its text. Lines and columns are worked out only when a diagnostic is rendered.

use std::ops::Range;

/// One file diagnostics name: its index in the [`Files`] that hold the diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileId(pub(super) usize);

/// Where a diagnostic points: a file and, when the problem has a place in it, the bytes of
/// that place in the file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub file: FileId,
    /// `None`: the file as a whole (one that is not UTF-8, say).
    pub bytes: Option<Range<usize>>,
}

impl Span {
    /// The whole of `file`.
    pub fn file(file: FileId) -> Self {
        Span { file, bytes: None }
    }

    /// `bytes` of `file`'s text.
    pub fn new(file: FileId, bytes: Range<usize>) -> Self {
        Span {
            file,
            bytes: Some(bytes),
        }
    }

    /// The first byte, when the span has a place in its file.
    pub fn start(&self) -> Option<usize> {
        self.bytes.as_ref().map(|b| b.start)
    }
}

/// The files a set of diagnostics points into: each one's name as messages show it
/// (relative to the crate directory) and the text its spans index. A markdown file's text
/// is the one the loader read (BOM and CRLF normalised), whose lines are the file's lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Files(Vec<File>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct File {
    name: String,
    text: String,
}

impl Files {
    /// Adds a file; `text` may be empty for one that is only ever named whole.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.0.push(File {
            name: name.into(),
            text: text.into(),
        });
        FileId(self.0.len() - 1)
    }

    /// The name `file` is shown by (empty for an id of another table).
    pub fn name(&self, file: FileId) -> &str {
        self.0.get(file.0).map_or("", |f| &f.name)
    }

    /// The text `file`'s spans index (empty for an id of another table).
    pub fn text(&self, file: FileId) -> &str {
        self.0.get(file.0).map_or("", |f| &f.text)
    }

    /// Gives `file` its text, for a file added before its text was needed.
    pub(super) fn set_text(&mut self, file: FileId, text: String) {
        if let Some(f) = self.0.get_mut(file.0) {
            f.text = text;
        }
    }
}
