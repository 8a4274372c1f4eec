//! `sanitize`: what is cleaned out of values from outside, for the manifest (its slots and
//! the files users supply) and per fact (its own list, or `false`).

use doctrine_core::__private::Clean;

use super::at::{report, At};
use crate::diag::Sink;
use crate::raw::{self, SanitizeClass, SanitizeSpec};
use doctrine_load::__internals::clean::{first_removed, is_variation_selector};

/// The classes listed.
fn classes(list: &[toml::Spanned<SanitizeClass>]) -> Clean {
    let has = |class| list.iter().any(|c| *c.get_ref() == class);
    Clean {
        tags: has(SanitizeClass::Tags),
        bidi: has(SanitizeClass::Bidi),
        nfc: has(SanitizeClass::Nfc),
        variation: has(SanitizeClass::Variation),
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

/// Shipped text (layer `layer`'s `body`) holding a character that cleaning removes from
/// values from outside: a tag character always (it carries text no reader sees, and
/// nothing a prompt needs: the emoji flags that use tags are let through), a bidi control
/// or invisible character when the manifest's `sanitize` names `bidi` (the manifest would
/// ship what it refuses from users). Reported once per text, at the first such character,
/// with how many there are; never cleaned silently, since the text is the author's.
pub(super) fn shipped(
    layer: &str,
    body: &str,
    locate: &dyn Fn(usize) -> At,
    manifest: Clean,
    sink: &mut Sink<'_>,
) {
    let refused = Clean {
        tags: true,
        bidi: manifest.bidi,
        nfc: false,
        variation: manifest.variation,
    };
    let Some((at, c, removed)) = first_removed(body, refused) else {
        return;
    };
    let class = match c as u32 {
        0xE0000..=0xE007F => "a tag character",
        _ if removed.variation > 0 && is_variation_selector(c) => {
            "a variation selector that selects nothing"
        }
        _ => "a bidi control or invisible character",
    };
    let more = match removed.tags + removed.bidi + removed.variation {
        1 => String::new(),
        n => format!(", and {} more such characters", n - 1),
    };
    report(
        sink,
        &locate(at),
        format!("the text of layer `{layer}` holds {class}, U+{:04X}, which no reader sees{more}", c as u32),
        "delete it (an editor that shows invisible characters finds it): shipped text is checked, never cleaned, since it is the manifest's own",
    );
}
