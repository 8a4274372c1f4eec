//! `sanitize`: what is cleaned out of values from outside, for the manifest (its slots and
//! the files users supply) and per fact (its own list, or `false`).

use doctrine_core::__private::Clean;

use crate::diag::Sink;
use crate::raw::{self, SanitizeClass, SanitizeSpec};

/// The classes listed.
fn classes(list: &[toml::Spanned<SanitizeClass>]) -> Clean {
    let has = |class| list.iter().any(|c| *c.get_ref() == class);
    Clean {
        tags: has(SanitizeClass::Tags),
        bidi: has(SanitizeClass::Bidi),
        nfc: has(SanitizeClass::Nfc),
    }
}

/// The manifest's `sanitize` (nothing without one).
pub(super) fn manifest(raw: &raw::Manifest) -> Clean {
    raw.sanitize
        .as_ref()
        .map_or(Clean::NONE, |s| classes(s.get_ref()))
}

/// Fact `name`'s cleaning: its own `sanitize`, else the manifest's. A closed set's values
/// are the manifest's own text: nothing is cleaned, and a `sanitize` on one is refused.
pub(super) fn fact(
    name: &str,
    fact: &raw::Fact,
    closed: bool,
    manifest: Clean,
    sink: &mut Sink<'_>,
) -> Clean {
    match (&fact.sanitize, closed) {
        (Some(s), true) => {
            sink.error(
                Some(s.span()),
                format!("fact `{name}` has a closed set of values: there is nothing to sanitize"),
                Some(
                    "a value outside the set is refused before it is composed: remove `sanitize`"
                        .into(),
                ),
            );
            Clean::NONE
        }
        (_, true) => Clean::NONE,
        (None, false) => manifest,
        (Some(s), false) => match s.get_ref() {
            SanitizeSpec::Off => Clean::NONE,
            SanitizeSpec::Classes(list) => classes(list),
        },
    }
}
