//! Compile errors as data: each a message, a fix, and a span (a file and bytes of it), as
//! serde's `Ctxt` and askama's `CompileError` keep theirs. They are rendered, naming the
//! `file:line:col`, only where they leave the generator ([`render`]).

mod files;
mod render;
mod sink;

pub use files::{FileId, Files, Span};
pub use render::{Located, Position};
pub(super) use sink::{Reported, Sink};

/// One problem found in a manifest or a file it references.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where it is, in the [`Files`] of the [`Diagnostics`] that hold it.
    pub span: Span,
    pub message: String,
    /// How to fix it, when there is something to say.
    pub help: Option<String>,
}

/// Every diagnostic found in one manifest, in the order found, and the files they point into.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    pub files: Files,
    pub list: Vec<Diagnostic>,
}

impl Diagnostics {
    /// One diagnostic about the file (or directory) shown as `name` as a whole: one the
    /// generator could not read, or a path it was given.
    pub fn about(
        name: impl Into<String>,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> Self {
        let mut files = Files::default();
        let file = files.add(name, String::new());
        Diagnostics {
            files,
            list: vec![Diagnostic {
                span: Span::file(file),
                message: message.into(),
                help: Some(help.into()),
            }],
        }
    }
}

impl std::error::Error for Diagnostics {}
