//! Where a diagnostic about a layer's text lands: a place in its file, or (inline text)
//! the manifest entry that holds it.

use std::ops::Range;

use crate::diag::{Sink, Span};

/// Where a problem in a layer's text is reported: a span of its file, or the manifest entry.
pub(super) enum At {
    File(Span),
    Manifest(Range<usize>),
}

/// Reports at `at`; at a manifest entry, which the inline texts it holds share, each
/// diagnostic once.
pub(super) fn report(sink: &mut Sink<'_>, at: &At, message: String, help: &str) {
    let help = Some(help.to_string());
    match at {
        At::Manifest(span) => sink.error_once(span.clone(), message, help),
        At::File(span) => sink.error_at(span.clone(), message, help),
    }
}
