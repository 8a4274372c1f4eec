//! What every generated closed set (roles, directory choices, knobs, flags) shares.

use std::error::Error;
use std::fmt;

/// A closed set of named values generated from the manifest.
pub trait Choice: Copy + Sized + 'static {
    /// What the set is called in messages, e.g. `role` or `intensity`.
    const KIND: &'static str;
    /// Every value, in manifest order.
    const ALL: &'static [Self];
    /// Every value's name, in the same order as `ALL`.
    const NAMES: &'static [&'static str];

    fn as_str(self) -> &'static str;

    /// Parses a name exactly as written in the manifest (or a file stem).
    fn parse(name: &str) -> Result<Self, ParseChoiceError> {
        match Self::NAMES.iter().position(|n| *n == name) {
            Some(i) => Ok(Self::ALL[i]),
            None => Err(ParseChoiceError {
                kind: Self::KIND,
                value: name.to_string(),
                valid: Self::NAMES,
            }),
        }
    }
}

/// A name that is not in a closed set; its message lists the valid names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseChoiceError {
    pub kind: &'static str,
    pub value: String,
    pub valid: &'static [&'static str],
}

impl fmt::Display for ParseChoiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} `{}`; valid values: {}",
            self.kind,
            self.value,
            self.valid.join(", ")
        )
    }
}

impl Error for ParseChoiceError {}
