//! Building a generated `Facts` value from untyped `(name, value)` pairs, as a command
//! line or a wire protocol delivers them. The typed facts structs need none of this: there
//! a missing or foreign fact does not compile.

use std::error::Error;
use std::fmt;

use super::choice::{Choice, ParseChoiceError};
use super::part::Trim;

/// Why a set of `(name, value)` pairs does not make the facts of a role (mode).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FactError {
    /// A fact the role requires was not given.
    Missing {
        /// The role (mode).
        role: &'static str,
        /// The fact it requires.
        fact: &'static str,
    },
    /// The role does not take a fact of that name (or no fact has that name).
    NotTaken {
        /// The role (mode).
        role: &'static str,
        /// The name given.
        fact: String,
        /// The facts the role takes.
        takes: &'static [&'static str],
    },
    /// The same fact was given twice.
    Repeated(&'static str),
    /// A closed-set fact got a value outside its set.
    Value(ParseChoiceError),
    /// A list fact named in a pair: a list is given on the facts struct, as `&[&str]`.
    List(&'static str),
}

impl fmt::Display for FactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FactError::Missing { role, fact } => write!(f, "`{role}` requires fact `{fact}`"),
            FactError::NotTaken { role, fact, takes } => write!(
                f,
                "`{role}` does not take fact `{fact}`; it takes: {}",
                if takes.is_empty() {
                    "none".to_string()
                } else {
                    takes.join(", ")
                }
            ),
            FactError::Repeated(fact) => write!(f, "fact `{fact}` is given twice"),
            FactError::Value(e) => e.fmt(f),
            FactError::List(fact) => write!(
                f,
                "fact `{fact}` is a list: set it on the facts struct as a slice"
            ),
        }
    }
}

impl Error for FactError {}

/// Fills `slots` (one per declared fact, in manifest order) from `pairs`, accepting only
/// the facts whose index is in `takes`. Used by generated `Facts::from_pairs`.
pub fn collect<'a, const F: usize>(
    role: &'static str,
    names: &'static [&'static str; F],
    takes: &'static [&'static str],
    lists: &'static [&'static str],
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<[Option<&'a str>; F], FactError> {
    let mut slots = [None; F];
    for (name, value) in pairs {
        if let Some(list) = lists.iter().find(|l| **l == name) {
            return Err(FactError::List(list));
        }
        let Some(i) = names
            .iter()
            .position(|n| *n == name)
            .filter(|&i| takes.contains(&names[i]))
        else {
            return Err(FactError::NotTaken {
                role,
                fact: name.to_string(),
                takes,
            });
        };
        if slots[i].replace(value).is_some() {
            return Err(FactError::Repeated(names[i]));
        }
    }
    Ok(slots)
}

/// A required free-text fact.
pub fn required<'a>(
    role: &'static str,
    fact: &'static str,
    value: Option<&'a str>,
) -> Result<&'a str, FactError> {
    value.ok_or(FactError::Missing { role, fact })
}

/// A required fact given to `Facts::builder`, of any type.
pub fn need<T>(value: Option<T>, role: &'static str, fact: &'static str) -> Result<T, FactError> {
    value.ok_or(FactError::Missing { role, fact })
}

/// `Facts::builder`'s check that the role takes every fact given: `given[i]` for fact `i`
/// of `names`, `taken[i]` whether the role takes it, `takes` what it takes (for the
/// message).
pub fn taken(
    role: &'static str,
    (given, taken): (&[bool], &[bool]),
    names: &[&'static str],
    takes: &'static [&'static str],
) -> Result<(), FactError> {
    let foreign = (0..given.len()).find(|&i| given[i] && !taken[i]);
    match foreign {
        None => Ok(()),
        Some(i) => Err(FactError::NotTaken {
            role,
            fact: names[i].to_string(),
            takes,
        }),
    }
}

/// An optional closed-set fact.
pub fn choice<T: Choice>(value: Option<&str>) -> Result<Option<T>, FactError> {
    value.map(T::parse).transpose().map_err(FactError::Value)
}

/// A required closed-set fact.
pub fn required_choice<T: Choice>(
    role: &'static str,
    fact: &'static str,
    value: Option<&str>,
) -> Result<T, FactError> {
    T::parse(required(role, fact, value)?).map_err(FactError::Value)
}

/// An optional fact given as `""` is not given: `Some("")` and `None` compose the same.
/// Used by generated code.
#[inline]
pub fn present(value: Option<&str>) -> Option<&str> {
    value.filter(|v| !v.is_empty())
}

/// A slot value as the layer takes it: trimmed where the manifest trims the layer, and not
/// given when empty after that. Used by generated code.
#[inline]
pub fn given(value: Option<&str>, trim: Trim) -> Option<&str> {
    present(value.map(|v| trim.apply(v)))
}

/// What a fact with value texts prints: the text of its value, or the value itself when it
/// is not a key (free text, with `other = "verbatim"`); `""` when not given. Used by
/// generated code.
#[inline]
pub fn value_text<'a>(value: Option<&'a str>, texts: &[(&'a str, &'a str)]) -> &'a str {
    match value {
        None => "",
        Some(v) => texts.iter().find(|(k, _)| *k == v).map_or(v, |(_, t)| t),
    }
}
