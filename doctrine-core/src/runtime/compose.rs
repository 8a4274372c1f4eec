//! The one composition routine every generated `finish()` calls.

use super::layer::{LayerInfo, Origin, Skip, Tier};
use super::prompt::{Prompt, Section, SectionState};

/// One layer's contribution, as resolved by generated code for a given role, choices,
/// flags, knobs, overlay and slots.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    pub info: &'static LayerInfo,
    pub origin: Origin,
    pub body: Body<'a>,
}

/// A layer's text as up to four pieces written back to back (shipped text, knob suffix,
/// overlay separator, overlay text), or the reason it contributes nothing.
#[derive(Clone, Copy, Debug)]
pub enum Body<'a> {
    Skip(Skip),
    Text([&'a str; 4]),
}

impl Body<'_> {
    #[inline]
    fn len(&self) -> usize {
        match self {
            Body::Skip(_) => 0,
            Body::Text([a, b, c, d]) => a.len() + b.len() + c.len() + d.len(),
        }
    }
}

/// Joins the non-empty parts with `separator`, in order, into one allocation of exactly
/// the composed length.
///
/// `parts` must list every stable layer before every volatile one; manifest validation
/// guarantees this for generated code.
// Plain loops over references: `array::map` here was not inlined and moved every
// `Section` through the stack (see BENCHMARKS.md).
#[inline]
pub fn compose<const N: usize>(separator: &str, parts: [Part<'_>; N]) -> Prompt<N> {
    let mut total = 0;
    let mut count = 0usize;
    for part in &parts {
        let len = part.body.len();
        total += len;
        count += usize::from(len > 0);
    }
    total += separator.len() * count.saturating_sub(1);

    let mut text = String::with_capacity(total);
    let mut stable_end = 0;
    let mut volatile_start = None;
    let mut sections = [Section::UNSET; N];
    for (section, part) in sections.iter_mut().zip(&parts) {
        section.info = part.info;
        section.origin = part.origin;
        let pieces = match part.body {
            Body::Skip(skip) => {
                section.state = SectionState::Skipped(skip);
                continue;
            }
            Body::Text(pieces) => pieces,
        };
        if part.body.len() == 0 {
            section.state = SectionState::Skipped(Skip::Empty);
            continue;
        }
        if !text.is_empty() {
            text.push_str(separator);
        }
        let start = text.len();
        for piece in pieces {
            text.push_str(piece);
        }
        match part.info.tier {
            Tier::Stable => {
                debug_assert!(volatile_start.is_none(), "stable layer after volatile");
                stable_end = text.len();
            }
            Tier::Volatile => {
                volatile_start.get_or_insert(start);
            }
        }
        section.state = SectionState::Included {
            start,
            end: text.len(),
        };
    }
    debug_assert_eq!(text.len(), total);
    debug_assert_eq!(text.capacity(), total);
    let volatile_start = volatile_start.unwrap_or(text.len());
    Prompt::from_parts(text, stable_end, volatile_start, sections)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Origin;

    static STABLE: LayerInfo = LayerInfo {
        name: "base",
        tier: Tier::Stable,
        locked: false,
    };
    static VOLATILE: LayerInfo = LayerInfo {
        name: "now",
        tier: Tier::Volatile,
        locked: false,
    };

    fn text(info: &'static LayerInfo, s: &'static str) -> Part<'static> {
        Part {
            info,
            origin: Origin::Inline,
            body: Body::Text([s, "", "", ""]),
        }
    }

    #[test]
    fn joins_non_empty_parts_and_skips_the_rest_without_separators() {
        let p = compose(
            "|",
            [
                text(&STABLE, "a"),
                text(&STABLE, ""),
                Part {
                    info: &STABLE,
                    origin: Origin::Unresolved,
                    body: Body::Skip(Skip::NotInRole),
                },
                Part {
                    info: &STABLE,
                    origin: Origin::Inline,
                    body: Body::Text(["b", "c", "", ""]),
                },
                text(&VOLATILE, "v"),
            ],
        );
        assert_eq!(p.as_str(), "a|bc|v");
        assert_eq!(p.stable(), "a|bc");
        assert_eq!(p.volatile(), "v");
        let states: Vec<SectionState> = p.sections().iter().map(|s| s.state).collect();
        assert_eq!(
            states,
            [
                SectionState::Included { start: 0, end: 1 },
                SectionState::Skipped(Skip::Empty),
                SectionState::Skipped(Skip::NotInRole),
                SectionState::Included { start: 2, end: 4 },
                SectionState::Included { start: 5, end: 6 },
            ]
        );
        assert_eq!(p.layer("now"), Some("v"));
    }

    #[test]
    fn prompt_without_volatile_text_is_all_stable() {
        let p = compose("|", [text(&STABLE, "a"), text(&VOLATILE, "")]);
        assert_eq!((p.stable(), p.volatile()), ("a", ""));
        let p = compose("|", [text(&STABLE, ""), text(&VOLATILE, "v")]);
        assert_eq!((p.stable(), p.volatile(), p.as_str()), ("", "v", "v"));
    }

    #[test]
    fn capacity_is_exact() {
        let p = compose("\n\n---\n\n", [text(&STABLE, "abc"), text(&VOLATILE, "de")]);
        let s = p.into_string();
        assert_eq!(s.capacity(), s.len());
    }

    #[test]
    fn explain_lists_every_layer() {
        let p = compose(
            "|",
            [
                text(&STABLE, "abc"),
                Part {
                    info: &VOLATILE,
                    origin: Origin::Slot,
                    body: Body::Skip(Skip::NotSupplied),
                },
            ],
        );
        assert_eq!(
            p.explain().to_string(),
            "#  layer  tier      bytes  status                 source             provenance\n\
             1  base   stable        3  included               inline (manifest)\n\
             2  now    volatile      0  skipped: not supplied  runtime slot\n"
        );
    }
}
