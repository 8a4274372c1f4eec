//! How the simulator counts tokens: the runtime's estimate (bytes / 4, rounded up). The one
//! place exact counts plug in (a tokenizer's count, and the byte length of a text's first
//! tokens for caching in token steps).

use doctrine_core::introspect::approx_tokens;

/// The tokens of `text`.
pub(crate) fn count(text: &str) -> usize {
    approx_tokens(text.len())
}

/// How many bytes of `text` its first `tokens` tokens take (all of it when it has fewer).
pub(crate) fn prefix_bytes(text: &str, tokens: usize) -> usize {
    tokens.saturating_mul(4).min(text.len())
}
