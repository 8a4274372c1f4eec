//! How the page counts tokens: exactly in o200k_base with the `tokens` feature, else the
//! runtime's estimate (bytes / 4), and the page says which. Prompts share prefixes, so each
//! distinct text is counted once.

use std::collections::HashMap;

/// Counts tokens, remembering each text counted.
#[derive(Clone, Debug, Default)]
pub(crate) struct Counter {
    known: HashMap<String, usize>,
}

impl Counter {
    pub(crate) fn count(&mut self, text: &str) -> usize {
        if let Some(&n) = self.known.get(text) {
            return n;
        }
        let n = count(text);
        self.known.insert(text.to_string(), n);
        n
    }
}

/// What the page's counts are, as its header says.
pub(crate) const UNIT: &str = if cfg!(feature = "tokens") {
    "tokens (o200k_base)"
} else {
    "~tokens (bytes / 4, approximate)"
};

#[cfg(feature = "tokens")]
fn count(text: &str) -> usize {
    doctrine_core::tokens::Encoding::O200k.count(text)
}

#[cfg(not(feature = "tokens"))]
fn count(text: &str) -> usize {
    doctrine_core::introspect::approx_tokens(text.len())
}
