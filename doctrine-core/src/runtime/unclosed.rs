//! What the composer closed of what run-time text left open ([`Unclosed`]): recorded by
//! the prompt and read by its explanation, below both.

use super::boundary::Supplied;

/// A code fence or an HTML comment that run-time text left open inside a container (a
/// layer's or a message's wrapper, a titled layer's tags in the tagged formulation): the
/// composer closed it before the container's closing text, so that a markdown reader, and
/// a model, still see the container end where the manifest ends it. Or one a value left
/// open in a layer's header: closed at the header's end, so that the wrapper and the text
/// after it stand where the manifest put them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unclosed {
    /// Where the closer the composer wrote sits, in [`Prompt::as_str`](crate::Prompt::as_str).
    pub range: std::ops::Range<usize>,
    /// The layer whose text held it.
    pub layer: &'static str,
    /// The run-time text that opened it.
    pub source: Supplied,
    /// `a code fence` or `an HTML comment`.
    pub what: &'static str,
}
