//! How a command counts tokens: the runtime's estimate (bytes / 4, rounded up) until an
//! encoding is chosen.

use doctrine_core::introspect::approx_tokens;

/// A way of counting tokens, with the heading its counts go under.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Counter {
    /// bytes / 4, rounded up.
    Estimate,
}

impl Counter {
    pub(crate) fn count(self, text: &str) -> usize {
        match self {
            Counter::Estimate => approx_tokens(text.len()),
        }
    }

    /// The column heading for its counts.
    pub(crate) fn heading(self) -> &'static str {
        match self {
            Counter::Estimate => "~tokens",
        }
    }

    /// What its counts are, for the line that opens a command's output.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Counter::Estimate => "~tokens = bytes / 4, approximate",
        }
    }
}
