//! Selectors: a layer whose source is chosen at run time by a string the caller passes
//! (an environment variable's value, a command-line flag…); the library reads no
//! environment itself. The loader (`doctrine-load`) reads the files a selector names and
//! gives a [`Resolution`]; the runtime composes from it.
//!
//! A value is an off word, an on word, or a path (see [`Selector::parse`]). `on` takes the
//! copy in the user's directory when there is a usable one (read by the overlay loader's
//! rules, legacy bypass included), else the shipped text; a path takes that file, and a
//! file that cannot be used leaves the layer out with a notice: never a hard failure, and
//! never a fallback to another source, so a typo in a path is seen rather than papered over.

mod doctor;
mod resolution;

use std::path::PathBuf;

pub use doctor::{Doctor, SelectorOrigin, SelectorReport};
pub use resolution::{selected, Picked, Resolution, Selected};

/// A selector's value, parsed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Selector {
    /// No layer: the output is byte-identical to a manifest without it.
    Off,
    /// The user's copy if there is a usable one, else the shipped text.
    On,
    /// This file, and nothing else.
    Path(PathBuf),
}

impl Selector {
    /// The words that turn a selector off (besides no value at all).
    pub const OFF_WORDS: &'static [&'static str] = &["off", "0", "false", "no"];
    /// The words that turn a selector on. A value that can also be a path must name its
    /// on words: "not off" cannot mean "on" when anything unrecognised is a file name.
    pub const ON_WORDS: &'static [&'static str] = &["on", "1", "true", "yes"];

    /// Parses a selector's value: `None`, or a value that is blank once trimmed, is off;
    /// an off or on word (compared after trimming, ignoring ASCII case) is off or on;
    /// anything else is a path, kept verbatim (not trimmed, case kept: file systems are
    /// case-sensitive and a file name may end in a space).
    pub fn parse(value: Option<&str>) -> Selector {
        let Some(raw) = value else {
            return Selector::Off;
        };
        let word = raw.trim();
        let is = |words: &[&str]| words.iter().any(|w| w.eq_ignore_ascii_case(word));
        if word.is_empty() || is(Self::OFF_WORDS) {
            Selector::Off
        } else if is(Self::ON_WORDS) {
            Selector::On
        } else {
            Selector::Path(PathBuf::from(raw))
        }
    }

    /// Whether a value counts as given: not `None` and not blank. A selector that follows
    /// another takes the other's value when its own is not given.
    pub fn is_given(value: Option<&str>) -> bool {
        value.is_some_and(|v| !v.trim().is_empty())
    }
}
