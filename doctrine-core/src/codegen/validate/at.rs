//! Where a diagnostic about a layer's text lands: a position in its file, or (inline
//! text) the manifest entry that holds it.

use std::ops::Range;

use crate::codegen::diag::{Diagnostic, Sink};

/// Where a problem in a layer's text is reported: a file position, or the manifest entry.
pub(super) enum At {
    File(String),
    Manifest(Range<usize>),
}

/// Reports at `at`; at a manifest entry, which the inline texts it holds share, each
/// diagnostic once.
pub(super) fn report(sink: &mut Sink<'_>, at: &At, message: String, help: &str) {
    match at {
        At::Manifest(span) => sink.error_once(span.clone(), message, Some(help.to_string())),
        At::File(location) => sink.push(Diagnostic {
            location: location.clone(),
            message,
            help: Some(help.to_string()),
        }),
    }
}
