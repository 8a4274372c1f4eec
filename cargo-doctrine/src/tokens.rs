//! How a command counts tokens: exactly in an OpenAI encoding (`--encoding`, with the
//! `tokens` feature), or else the runtime's estimate, bytes / 4 rounded up.

use doctrine_core::introspect::approx_tokens;

use crate::cli::{Opt, Stop};

#[cfg(feature = "tokens")]
pub(crate) use doctrine_core::tokens::Encoding;

#[cfg(not(feature = "tokens"))]
pub(crate) use no_tokenizer::Encoding;

/// The option every command that counts tokens takes.
pub(crate) const OPTION: Opt = Opt {
    name: "--encoding",
    value: "ENCODING",
    help: "Count tokens exactly: `o200k` (o200k_base) or `cl100k` (cl100k_base) \
[default: bytes / 4, approximate]",
};

/// What an estimated count says when this build cannot count exactly: how to get a build
/// that can (the tokenizer adds a quarter to the tool's build, hence a feature).
const EXACT_HINT: Option<&str> = if cfg!(feature = "tokens") {
    None
} else {
    Some("exact counts: install with `--features tokens`")
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
        encoding(value).map(Counter::Exact)
    }

    /// The prompt book's counter: o200k_base when this build has the tokenizer, as the
    /// page itself counts (`doctrine-book`'s `tokens`), else the estimate.
    pub(crate) fn book() -> Counter {
        #[cfg(feature = "tokens")]
        return Counter::Exact(Encoding::O200k);
        #[cfg(not(feature = "tokens"))]
        Counter::Estimate
    }

    pub(crate) fn count(self, text: &str) -> usize {
        match self {
            Counter::Estimate => approx_tokens(text.len()),
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

    /// What its counts are where a command's output does not open with them (`check`'s
    /// notes): the estimate of a build that cannot count exactly says so, else nothing.
    pub(crate) fn caveat(self) -> Option<String> {
        match self {
            Counter::Estimate => EXACT_HINT.map(|_| self.describe()),
            Counter::Exact(_) => None,
        }
    }

    /// How to count exactly, after output that already says its counts are estimates
    /// (`explain`'s table, the book's page); `None` where this build can count exactly.
    pub(crate) fn hint(self) -> Option<&'static str> {
        match self {
            Counter::Estimate => EXACT_HINT,
            Counter::Exact(_) => None,
        }
    }

    /// What its counts are, for the line that opens a command's output.
    pub(crate) fn describe(self) -> String {
        match self {
            Counter::Estimate => match EXACT_HINT {
                Some(hint) => format!("~tokens = bytes / 4, approximate; {hint}"),
                None => "~tokens = bytes / 4, approximate".to_string(),
            },
            Counter::Exact(encoding) => format!("tokens in {encoding}"),
        }
    }
}

/// An encoding's name (`o200k`, `cl100k_base`…), or the usage error saying why not.
pub(crate) fn encoding(value: &str) -> Result<Encoding, Stop> {
    #[cfg(feature = "tokens")]
    return value
        .parse()
        .map_err(|e: doctrine_core::tokens::ParseEncodingError| Stop::Usage(e.to_string()));
    #[cfg(not(feature = "tokens"))]
    Err(no_tokenizer::refused(value))
}

/// A build without the `tokens` feature has no tokenizer: no encoding can be named, so
/// `Encoding` has no value and every exact count is unreachable code the compiler checks.
#[cfg(not(feature = "tokens"))]
mod no_tokenizer {
    use crate::cli::Stop;

    #[derive(Clone, Copy, Debug)]
    pub(crate) enum Encoding {}

    impl Encoding {
        pub(crate) fn count(self, _: &str) -> usize {
            match self {}
        }

        pub(crate) fn token_ends(self, _: &str) -> Vec<usize> {
            match self {}
        }
    }

    impl std::fmt::Display for Encoding {
        fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match *self {}
        }
    }

    /// `--encoding VALUE` in a build that cannot count exactly.
    pub(crate) fn refused(value: &str) -> Stop {
        Stop::Usage(format!(
            "`--encoding {value}` counts with OpenAI's tokenizer, which this build of \
             cargo-doctrine leaves out; install it with the `tokens` feature \
             (`cargo install --path cargo-doctrine --features tokens` from a checkout), \
             or leave out `--encoding` for the estimate (bytes / 4)"
        ))
    }
}
