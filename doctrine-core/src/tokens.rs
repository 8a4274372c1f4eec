//! Exact token counts for OpenAI's `o200k_base` and `cl100k_base` encodings (feature
//! `tokens`), with tiktoken-rs; [`estimate`] is the bytes / 4 rule used where no encoding is
//! chosen.
//!
//! ```
//! use doctrine_core::tokens::Encoding;
//!
//! let encoding: Encoding = "o200k".parse().unwrap();
//! assert_eq!(encoding.to_string(), "o200k_base");
//! assert_eq!(encoding.count("hello world"), 2);
//! ```
//!
//! Text is counted as ordinary text: `<|endoftext|>` in a prompt is counted as the
//! characters it is made of, as an API counts a system prompt's text, not as the special
//! token.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

/// An OpenAI tokenizer encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// `o200k_base`: GPT-4o, GPT-4.1, GPT-5 and the `o` series.
    O200k,
    /// `cl100k_base`: GPT-4 and GPT-3.5-turbo.
    Cl100k,
}

impl Encoding {
    /// Every encoding, in the order messages list them.
    pub const ALL: [Encoding; 2] = [Encoding::O200k, Encoding::Cl100k];

    /// The encoding's full name, as OpenAI writes it (`o200k_base`); also its `Display`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::O200k => "o200k_base",
            Encoding::Cl100k => "cl100k_base",
        }
    }

    /// The short name `FromStr` also accepts (`o200k`).
    pub fn short_name(self) -> &'static str {
        match self {
            Encoding::O200k => "o200k",
            Encoding::Cl100k => "cl100k",
        }
    }

    /// The number of tokens `text` encodes to. The first call for an encoding loads its
    /// table (embedded in the binary; about 100 ms), once per process.
    pub fn count(self, text: &str) -> usize {
        self.bpe().encode_ordinary(text).len()
    }

    /// Where each token of `text` ends, as a byte offset into it, in order: the last is
    /// `text.len()`. A prefix of `n` tokens is `text.as_bytes()[..ends[n - 1]]`; a token of
    /// byte-level BPE may end inside a character, so that prefix is bytes, not always a `str`.
    pub fn token_ends(self, text: &str) -> Vec<usize> {
        let bpe = self.bpe();
        let mut end = 0;
        bpe.encode_ordinary(text)
            .into_iter()
            .map(|token| {
                // A token the table just produced always decodes; its bytes are a stretch
                // of `text`.
                end += bpe.decode_bytes(&[token]).map_or(0, |b| b.len());
                end
            })
            .collect()
    }

    fn bpe(self) -> &'static CoreBPE {
        static O200K: OnceLock<CoreBPE> = OnceLock::new();
        static CL100K: OnceLock<CoreBPE> = OnceLock::new();
        let (cell, load): (_, fn() -> _) = match self {
            Encoding::O200k => (&O200K, tiktoken_rs::o200k_base),
            Encoding::Cl100k => (&CL100K, tiktoken_rs::cl100k_base),
        };
        // The table is a file tiktoken-rs embeds, not input: failing to read it is a
        // broken build of that crate, which no caller could handle.
        cell.get_or_init(|| load().expect("tiktoken-rs reads its embedded table"))
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`Encoding`]; its message lists the valid ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseEncodingError {
    name: String,
}

impl ParseEncodingError {
    /// The name as it was given.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for ParseEncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown encoding `{}`: expected ", self.name)?;
        for (i, e) in Encoding::ALL.iter().enumerate() {
            let sep = if i == 0 { "" } else { " or " };
            write!(f, "{sep}`{}` (or `{}`)", e.name(), e.short_name())?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseEncodingError {}

impl FromStr for Encoding {
    type Err = ParseEncodingError;

    /// `o200k_base` or `o200k`, `cl100k_base` or `cl100k`; exactly as written.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Encoding::ALL
            .into_iter()
            .find(|e| s == e.name() || s == e.short_name())
            .ok_or_else(|| ParseEncodingError {
                name: s.to_string(),
            })
    }
}

/// The estimate where no encoding is chosen: bytes / 4, rounded up (the `~tokens` of
/// `explain()`; the same as [`approx_tokens`](crate::introspect::approx_tokens)).
pub fn estimate(bytes: usize) -> usize {
    crate::introspect::approx_tokens(bytes)
}

#[cfg(test)]
mod tests;
