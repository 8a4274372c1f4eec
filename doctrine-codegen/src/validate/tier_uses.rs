//! Flags and knobs a layer uses, against their tiers (`[cache] settings`): a layer may not
//! read a setting of a later tier, or its cached block would change with it. Facts are
//! checked where they are used (`uses`), slots and choices as gates (`gate`).

use toml::Spanned;

use super::names::Names;
use crate::diag::Sink;
use crate::model::{Layer, SectionOn, Segment, Step, Test, Text};

/// A flag or knob one layer reads, where (a condition's span, else the layer's name).
struct Use<'a> {
    what: &'static str,
    name: &'a str,
    tier: usize,
    at: std::ops::Range<usize>,
    how: &'static str,
}

pub(super) fn check(
    layers: &[(Spanned<()>, Layer)],
    names: &Names<'_>,
    texts: &[Text],
    sink: &mut Sink<'_>,
) {
    let tiers = names.tiers;
    for (_, l) in layers {
        for u in uses(l, names, texts) {
            if u.tier <= l.tier_index {
                continue;
            }
            let (mine, theirs) = (&tiers.names[l.tier_index], &tiers.names[u.tier]);
            sink.error(
                Some(u.at),
                format!(
                    "layer `{}` of tier `{mine}` {} {} `{}` of the later tier `{theirs}`",
                    l.name, u.how, u.what, u.name
                ),
                Some(format!(
                    "tier `{mine}` is cached before tier `{theirs}`: a setting that changes with `{theirs}` there changes the cached block. Mark the layer `tier = \"{theirs}\"` (below every layer of earlier tiers), or give `{}` tier `{mine}` in `[cache] settings`",
                    u.name
                )),
            );
        }
    }
}

/// Every flag and knob layer `l` reads: its conditions, its texts' sections and
/// placeholders, its suffix, its header.
fn uses<'a>(l: &'a Layer, names: &'a Names<'_>, texts: &'a [Text]) -> Vec<Use<'a>> {
    let mut out = Vec::new();
    for c in l.conds() {
        if let Test::Flag(f) = c.test {
            let flag = &names.flags[f];
            out.push(Use {
                what: "flag",
                name: &flag.name,
                tier: flag.tier,
                at: c.at.clone(),
                how: "is gated on",
            });
        }
    }
    // Each with where a use in it is reported: the layer's name, the header's string.
    let segments = l
        .content
        .text_ids()
        .into_iter()
        .filter_map(|id| texts[id.0].segments.as_deref())
        .chain(l.suffix.as_ref().map(|s| s.segments.as_slice()))
        .map(|s| (s, &l.at.name))
        .chain(l.header.as_ref().map(|h| (h.segments.as_slice(), &h.at)));
    for (s, at) in segments.flat_map(|(s, at)| s.iter().map(move |s| (s, at))) {
        if let Segment::When { steps, .. } = s {
            for step in steps {
                if let Step::Given(SectionOn::Flag(f)) = step {
                    let flag = &names.flags[*f];
                    out.push(Use {
                        what: "flag",
                        name: &flag.name,
                        tier: flag.tier,
                        at: at.clone(),
                        how: "has a section on",
                    });
                }
            }
            continue;
        }
        let (what, how, name, tier) = match s {
            Segment::Knob(k) => {
                let knob = &names.knobs[*k];
                ("knob", "prints", knob.name.as_str(), knob.tier)
            }
            Segment::If {
                on: SectionOn::Flag(f),
                ..
            } => {
                let flag = &names.flags[*f];
                ("flag", "has a section on", flag.name.as_str(), flag.tier)
            }
            _ => continue,
        };
        let at = at.clone();
        out.push(Use {
            what,
            name,
            tier,
            at,
            how,
        });
    }
    out
}
