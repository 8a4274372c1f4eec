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

    /// The value's name, as written in the manifest.
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
    /// What the set is of (`role`, a knob's name, a fact's).
    pub kind: &'static str,
    /// The name given.
    pub value: String,
    /// The names the set holds.
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

/// The trait impls every generated closed set has: `Debug` (the variant's identifier, from
/// an array: a derive matches each variant to its string, which rustc checks in memory
/// growing with the square of the variants), [`Choice`], `FromStr` and `Display` (the name
/// as written in the manifest). Used by generated code, once per enum; the enum has the
/// inherent items `ALL`, `NAMES` and `as_str`.
#[doc(hidden)]
#[macro_export]
macro_rules! __choice_impls {
    ($ty:ident, $kind:literal, [$($ident:literal),*]) => {
        #[automatically_derived]
        impl ::core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                const VARIANTS: &[&str] = &[$($ident),*];
                f.write_str(VARIANTS[*self as usize])
            }
        }

        #[automatically_derived]
        impl $crate::Choice for $ty {
            const KIND: &'static str = $kind;
            const ALL: &'static [Self] = $ty::ALL;
            const NAMES: &'static [&'static str] = $ty::NAMES;
            fn as_str(self) -> &'static str {
                $ty::as_str(self)
            }
        }

        #[automatically_derived]
        impl ::core::str::FromStr for $ty {
            type Err = $crate::input::ParseChoiceError;
            fn from_str(s: &str) -> ::core::result::Result<Self, $crate::input::ParseChoiceError> {
                <Self as $crate::Choice>::parse(s)
            }
        }

        #[automatically_derived]
        impl ::core::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
