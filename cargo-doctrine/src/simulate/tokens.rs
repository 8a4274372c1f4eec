//! How the simulator counts tokens: the command's [`Counter`] (exact in an OpenAI encoding,
//! else bytes / 4 rounded up), and where a text's first tokens end, for caching in token
//! steps.

use crate::tokens::Counter;

/// The tokens of `text`.
pub(crate) fn count(counter: Counter, text: &str) -> usize {
    counter.count(text)
}

/// Where each token of `text` ends, in bytes: the first `n` tokens are
/// `text.as_bytes()[..ends[n - 1]]`. With the estimate a token is 4 bytes (the last one
/// what is left).
pub(crate) fn ends(counter: Counter, text: &str) -> Vec<usize> {
    match counter {
        Counter::Estimate => (1..=counter.count(text))
            .map(|n| (n * 4).min(text.len()))
            .collect(),
        Counter::Exact(encoding) => encoding.token_ends(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use doctrine_core::tokens::Encoding;

    #[test]
    fn ends_are_every_fourth_byte_estimated_and_each_token_s_end_exactly() {
        assert_eq!(ends(Counter::Estimate, "abcdefghij"), [4, 8, 10]);
        assert_eq!(ends(Counter::Estimate, ""), [0usize; 0]);
        let exact = Counter::Exact(Encoding::O200k);
        assert_eq!(ends(exact, "hello world"), [5, 11]);
        assert_eq!(count(exact, "hello world"), 2);
    }
}
