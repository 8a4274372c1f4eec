//! How a command counts tokens: exactly in an OpenAI encoding (`--encoding`), or else the
//! runtime's estimate, bytes / 4 rounded up.

use doctrine_core::tokens::{estimate, Encoding};

use crate::cli::{Opt, Stop};

/// The option every command that counts tokens takes.
pub(crate) const OPTION: Opt = Opt {
    name: "--encoding",
    value: "ENCODING",
    help: "Count tokens exactly: `o200k` (o200k_base) or `cl100k` (cl100k_base) \
[default: bytes / 4, approximate]",
};

/// A way of counting tokens, with the heading its counts go under.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Counter {
    /// bytes / 4, rounded up.
    Estimate,
    Exact(Encoding),
}

impl Counter {
    /// `--encoding`'s value.
    pub(crate) fn parse(value: &str) -> Result<Counter, Stop> {
        value
            .parse()
            .map(Counter::Exact)
            .map_err(|e: doctrine_core::tokens::ParseEncodingError| Stop::Usage(e.to_string()))
    }

    pub(crate) fn count(self, text: &str) -> usize {
        match self {
            Counter::Estimate => estimate(text.len()),
            Counter::Exact(encoding) => encoding.count(text),
        }
    }

    /// The column heading for its counts.
    pub(crate) fn heading(self) -> &'static str {
        match self {
            Counter::Estimate => "~tokens",
            Counter::Exact(_) => "tokens",
        }
    }

    /// What its counts are, for the line that opens a command's output.
    pub(crate) fn describe(self) -> String {
        match self {
            Counter::Estimate => "~tokens = bytes / 4, approximate".to_string(),
            Counter::Exact(encoding) => format!("tokens in {encoding}"),
        }
    }
}
