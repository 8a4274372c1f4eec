//! TOML values → the manifest's raw shapes, read by hand from `toml`'s spanned tree.
//!
//! serde's derive would do the same, but it puts `syn` → `serde_derive` → `serde` in a
//! row on the critical path of every user's cold build, ahead of this crate (about 5 s of
//! a 27 s build; BENCHMARKS.md, "Build cost of a user crate"). The tree is `toml`'s own
//! parse: nothing here parses TOML.

use std::collections::BTreeMap;
use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

pub(super) type Value<'i> = Spanned<DeValue<'i>>;

/// The first thing wrong with a value, and where.
#[derive(Debug)]
pub(super) struct Error {
    pub span: Range<usize>,
    pub message: String,
    /// How to fix it, when the message alone does not say (else a pointer to the
    /// reference).
    pub help: Option<String>,
}

/// A manifest shape readable from one TOML value.
pub(super) trait FromToml: Sized {
    /// What the value should be, for messages ("a string").
    const EXPECTED: &'static str;
    fn from_toml(v: &Value<'_>) -> Result<Self, Error>;
}

/// "invalid type: integer `3`, expected a string".
pub(super) fn invalid<T>(v: &Value<'_>, expected: &str) -> Result<T, Error> {
    let found = match v.get_ref() {
        DeValue::String(s) => format!("string {s:?}"),
        DeValue::Integer(i) => format!("integer `{i}`"),
        DeValue::Float(f) => format!("float `{f}`"),
        DeValue::Boolean(b) => format!("boolean `{b}`"),
        other => other.type_str().to_string(),
    };
    Err(Error {
        span: v.span(),
        help: None,
        message: format!("invalid type: {found}, expected {expected}"),
    })
}

impl FromToml for String {
    const EXPECTED: &'static str = "a string";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref().as_str() {
            Some(s) => Ok(s.to_string()),
            None => invalid(v, Self::EXPECTED),
        }
    }
}

impl FromToml for bool {
    const EXPECTED: &'static str = "a boolean";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref().as_bool() {
            Some(b) => Ok(b),
            None => invalid(v, Self::EXPECTED),
        }
    }
}

impl FromToml for usize {
    const EXPECTED: &'static str = "a non-negative integer";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        let Some(i) = v.get_ref().as_integer() else {
            return invalid(v, Self::EXPECTED);
        };
        usize::from_str_radix(i.as_str(), i.radix()).map_err(|_| Error {
            span: v.span(),
            help: None,
            message: format!("invalid value: integer `{i}`, expected {}", Self::EXPECTED),
        })
    }
}

impl<T: FromToml> FromToml for Spanned<T> {
    const EXPECTED: &'static str = T::EXPECTED;
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        Ok(Spanned::new(v.span(), T::from_toml(v)?))
    }
}

impl<T: FromToml> FromToml for Vec<T> {
    const EXPECTED: &'static str = "an array";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref().as_array() {
            Some(items) => items.iter().map(T::from_toml).collect(),
            None => invalid(v, Self::EXPECTED),
        }
    }
}

/// A table of names, each key kept with its span.
impl<T: FromToml> FromToml for BTreeMap<Spanned<String>, T> {
    const EXPECTED: &'static str = "a table";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        table(v)?
            .iter()
            .map(|(k, v)| {
                Ok((
                    Spanned::new(k.span(), k.get_ref().to_string()),
                    T::from_toml(v)?,
                ))
            })
            .collect()
    }
}

pub(super) fn table<'a, 'i>(v: &'a Value<'i>) -> Result<&'a DeTable<'i>, Error> {
    match v.get_ref().as_table() {
        Some(t) => Ok(t),
        None => invalid(v, "a table"),
    }
}

/// The keys of one table, read field by field. Unknown keys are the caller's to report
/// (with "did you mean"), so they are not looked at here.
pub(super) struct Fields<'a, 'i> {
    table: &'a DeTable<'i>,
    span: Range<usize>,
}

impl<'a, 'i> Fields<'a, 'i> {
    pub(super) fn of(v: &'a Value<'i>) -> Result<Self, Error> {
        Ok(Fields {
            table: table(v)?,
            span: v.span(),
        })
    }

    pub(super) fn optional<T: FromToml>(&self, key: &str) -> Result<Option<T>, Error> {
        self.table.get(key).map(T::from_toml).transpose()
    }

    pub(super) fn required<T: FromToml>(&self, key: &str) -> Result<T, Error> {
        match self.table.get(key) {
            Some(v) => T::from_toml(v),
            None => Err(Error {
                span: self.span.clone(),
                help: None,
                message: format!("missing field `{key}`"),
            }),
        }
    }

    pub(super) fn or_default<T: FromToml + Default>(&self, key: &str) -> Result<T, Error> {
        Ok(self.optional(key)?.unwrap_or_default())
    }

    /// A key with a second spelling (`roles` / `modes`); both at once is an error.
    pub(super) fn either<T: FromToml>(&self, key: &str, alias: &str) -> Result<Option<T>, Error> {
        if let (Some(_), Some(second)) = (self.table.get(key), self.table.get_key_value(alias)) {
            return Err(Error {
                span: second.0.span(),
                help: None,
                message: format!("`{key}` and `{alias}` are two spellings of one key: keep one"),
            });
        }
        match self.optional(key)? {
            Some(v) => Ok(Some(v)),
            None => self.optional(alias),
        }
    }
}

/// An enum written as one of a closed set of lowercase words.
macro_rules! keywords {
    ($(#[$doc:meta])* $vis:vis enum $name:ident { $($variant:ident = $word:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name {
            $($variant,)*
        }

        impl $crate::codegen::de::FromToml for $name {
            const EXPECTED: &'static str = "a string";
            fn from_toml(
                v: &$crate::codegen::de::Value<'_>,
            ) -> ::std::result::Result<Self, $crate::codegen::de::Error> {
                let word = <String as $crate::codegen::de::FromToml>::from_toml(v)?;
                match word.as_str() {
                    $($word => Ok($name::$variant),)*
                    _ => Err($crate::codegen::de::unknown_word(v, &word, &[$($word),*])),
                }
            }
        }
    };
}
pub(super) use keywords;

/// "unknown variant `volatil`, expected `stable` or `volatile`".
pub(super) fn unknown_word(v: &Value<'_>, word: &str, words: &[&str]) -> Error {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    let expected = match quoted.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", quoted.join(", ")),
    };
    Error {
        span: v.span(),
        help: super::names::closest(word, words.iter().copied())
            .map(|c| format!("did you mean `{c}`?")),
        message: format!("unknown variant `{word}`, expected {expected}"),
    }
}
