//! The one composition routine every generated `finish()` calls.

use super::layer::{LayerInfo, Origin, Skip, Tier};
use super::prompt::{Prompt, Section, SectionState};

/// One layer's contribution, as resolved by generated code for a given role, choices,
/// flags, knobs, facts, overlay and slots.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    pub info: &'static LayerInfo,
    pub origin: Origin,
    pub body: Body<'a>,
}

/// A layer's text, or the reason it contributes nothing.
#[derive(Clone, Copy, Debug)]
pub enum Body<'a> {
    Skip(Skip),
    /// Up to four pieces written back to back (shipped text, knob suffix, overlay
    /// separator, overlay text).
    Text([&'a str; 4]),
    /// Shipped text with placeholders, then three more pieces as in `Text`.
    Template(&'static [Seg], [&'a str; 3]),
}

/// A segment of a text with placeholders: literal text, or the value at an index of the
/// `values` given to [`compose`] (facts, then knobs, in manifest order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg {
    Lit(&'static str),
    Value(usize),
}

impl Body<'_> {
    #[inline]
    fn len(&self, values: &[&str]) -> usize {
        match self {
            Body::Skip(_) => 0,
            Body::Text([a, b, c, d]) => a.len() + b.len() + c.len() + d.len(),
            Body::Template(segs, [b, c, d]) => {
                let head: usize = segs
                    .iter()
                    .map(|s| match s {
                        Seg::Lit(t) => t.len(),
                        Seg::Value(i) => values[*i].len(),
                    })
                    .sum();
                head + b.len() + c.len() + d.len()
            }
        }
    }

    #[inline]
    fn write(&self, values: &[&str], out: &mut String) {
        match self {
            Body::Skip(_) => {}
            Body::Text(pieces) => {
                for piece in pieces {
                    out.push_str(piece);
                }
            }
            Body::Template(segs, tail) => {
                for seg in segs.iter() {
                    out.push_str(match seg {
                        Seg::Lit(t) => t,
                        Seg::Value(i) => values[*i],
                    });
                }
                for piece in tail {
                    out.push_str(piece);
                }
            }
        }
    }
}

/// The length of the text `parts` join to, and how many of them are non-empty.
#[inline]
fn measure(separator: &str, values: &[&str], parts: &[Part<'_>]) -> usize {
    let mut total = 0;
    let mut count = 0usize;
    for part in parts {
        let len = part.body.len(values);
        total += len;
        count += usize::from(len > 0);
    }
    total + separator.len() * count.saturating_sub(1)
}

/// Joins the non-empty parts with `separator`, in order, into one allocation of exactly
/// the composed length.
///
/// `values` resolves the placeholders of `Template` bodies. `parts` must list every
/// stable layer before every volatile one; manifest validation guarantees this for
/// generated code.
// Plain loops over references: `array::map` here was not inlined and moved every
// `Section` through the stack (see BENCHMARKS.md).
#[inline]
pub fn compose<const N: usize>(
    separator: &str,
    values: &[&str],
    parts: [Part<'_>; N],
) -> Prompt<N> {
    let total = measure(separator, values, &parts);
    let mut text = String::with_capacity(total);
    let mut stable_end = 0;
    let mut volatile_start = None;
    let mut sections = [Section::UNSET; N];
    for (section, part) in sections.iter_mut().zip(&parts) {
        section.info = part.info;
        section.origin = part.origin;
        if let Body::Skip(skip) = part.body {
            section.state = SectionState::Skipped(skip);
            continue;
        }
        if part.body.len(values) == 0 {
            section.state = SectionState::Skipped(Skip::Empty);
            continue;
        }
        if !text.is_empty() {
            text.push_str(separator);
        }
        let start = text.len();
        part.body.write(values, &mut text);
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

/// Joins only the given parts, as [`compose`] would, into one allocation: the per-turn
/// path when the stable prefix is composed once and reused. Costs what the parts cost,
/// whatever the size of the prefix.
#[inline]
pub fn join(separator: &str, values: &[&str], parts: &[Part<'_>]) -> String {
    let mut text = String::with_capacity(measure(separator, values, parts));
    for part in parts {
        if part.body.len(values) > 0 {
            if !text.is_empty() {
                text.push_str(separator);
            }
            part.body.write(values, &mut text);
        }
    }
    text
}

/// FNV-1a, 64-bit: a stable, non-cryptographic fingerprint of a prompt prefix for
/// cache-key logging and for noticing a prefix change in review. `const`, so generated
/// code and user code compute the same number at compile time or at run time.
pub const fn fingerprint(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
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
            &[],
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
        let p = compose("|", &[], [text(&STABLE, "a"), text(&VOLATILE, "")]);
        assert_eq!((p.stable(), p.volatile()), ("a", ""));
        let p = compose("|", &[], [text(&STABLE, ""), text(&VOLATILE, "v")]);
        assert_eq!((p.stable(), p.volatile(), p.as_str()), ("", "v", "v"));
    }

    #[test]
    fn templates_resolve_values_and_join_skips_like_compose() {
        static SEGS: [Seg; 3] = [Seg::Lit("root: "), Seg::Value(1), Seg::Lit(".")];
        let values = ["unused", "/repo"];
        let part = Part {
            info: &STABLE,
            origin: Origin::Inline,
            body: Body::Template(&SEGS, ["", "!", ""]),
        };
        let p = compose("|", &values, [part, text(&VOLATILE, "v")]);
        assert_eq!(p.as_str(), "root: /repo.!|v");
        assert_eq!(
            join(
                "|",
                &values,
                &[text(&VOLATILE, ""), text(&VOLATILE, "v"), part]
            ),
            "v|root: /repo.!"
        );
    }

    #[test]
    fn fingerprint_is_fnv1a() {
        assert_eq!(fingerprint(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fingerprint(b"a"), 0xaf63_dc4c_8601_ec8c);
        const AT_COMPILE_TIME: u64 = fingerprint(b"prefix");
        assert_eq!(AT_COMPILE_TIME, fingerprint("prefix".as_bytes()));
    }

    #[test]
    fn capacity_is_exact() {
        let p = compose(
            "\n\n---\n\n",
            &[],
            [text(&STABLE, "abc"), text(&VOLATILE, "de")],
        );
        let s = p.into_string();
        assert_eq!(s.capacity(), s.len());
    }

    #[test]
    fn explain_lists_every_layer() {
        let p = compose(
            "|",
            &[],
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
            "#  layer  tier      bytes  ~tokens  status                 source             provenance\n\
             1  base   stable        3        1  included               inline (manifest)\n\
             2  now    volatile      0        0  skipped: not supplied  runtime slot\n\
             stable 3 bytes (~1 tokens), volatile 0 bytes (~0 tokens); ~tokens = bytes / 4, approximate\n"
        );
    }
}
