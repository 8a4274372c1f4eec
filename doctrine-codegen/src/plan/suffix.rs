//! A knob suffix as the runtime joins it: a text for every combination of the values of
//! the knobs it names, so nothing is formatted at run time.

use super::leak::{slice, text};
use crate::model::{Doctrine, KnobId, Segment, Suffix};
use doctrine_core::__internals::plan::SuffixPlan;

pub(super) fn suffix(d: &Doctrine, s: &Suffix) -> SuffixPlan {
    let mut used: Vec<KnobId> = Vec::new();
    for seg in &s.segments {
        if let Segment::Knob(k) = seg {
            if !used.contains(k) {
                used.push(*k);
            }
        }
    }
    // Every combination of the used knobs' values, the first knob most significant.
    let mut combos: Vec<Vec<usize>> = vec![Vec::new()];
    for &k in &used {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                (0..d.knobs[k].values.len()).map(move |v| {
                    let mut c = c.clone();
                    c.push(v);
                    c
                })
            })
            .collect();
    }
    let texts = combos.iter().map(|combo| {
        let mut out = String::new();
        for seg in &s.segments {
            match seg {
                Segment::Lit(t) => out.push_str(t),
                Segment::Knob(k) => {
                    let pos = used.iter().position(|u| u == k).unwrap_or_default();
                    out.push_str(d.knobs[*k].printed(combo[pos]));
                }
                // Suffixes are resolved against knobs only.
                Segment::Fact(_)
                | Segment::Html(_)
                | Segment::If { .. }
                | Segment::IfCount { .. }
                | Segment::When { .. }
                | Segment::Loop { .. } => {}
            }
        }
        text(&out)
    });
    let knobs = used
        .iter()
        .map(|&k| (k.0 as u32, d.knobs[k].values.len() as u32));
    let roles = s.roles.as_ref().filter(|_| !d.roles.is_empty());
    SuffixPlan {
        roles: roles.map(|r| slice(r.iter().map(|x| x.0 as u32).collect())),
        separator: text(&s.separator),
        knobs: slice(knobs.collect()),
        texts: slice(texts.collect()),
    }
}
