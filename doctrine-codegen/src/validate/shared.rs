//! `[cache] shared`: a layer in a shared tier must be the same bytes for every role, proven
//! here from what the manifest says, or refused with the role and the first byte that
//! differs (or the run-time input that cannot be proven). Only then can one cached block
//! serve the whole crew.

use toml::Spanned;

use super::names::Names;
use crate::diag::Sink;
use crate::model::{Content, Layer, RoleId, Segment, Text};

pub(super) fn check(
    layers: &[(Spanned<()>, Layer)],
    names: &Names<'_>,
    texts: &[Text],
    sink: &mut Sink<'_>,
) {
    let tiers = names.tiers;
    for (_, l) in layers.iter().filter(|(_, l)| tiers.shared[l.tier_index]) {
        let Some(problem) = problem(l, names, texts) else {
            continue;
        };
        let tier = &tiers.names[l.tier_index];
        // The first tier that is not shared (the last one, at worst, is not).
        let later = tiers.shared.iter().position(|s| !s).unwrap_or(tiers.last());
        let later = &tiers.names[later];
        sink.error(
            Some(l.at.name.clone()),
            format!("layer `{}` is in the shared tier `{tier}`, but {problem}", l.name),
            Some(format!(
                "a shared tier's bytes must be the same for every {word}, known at compile time, so one cached block serves them all: give the layer one text for every {word} and no run-time input, or move it to a per-{word} tier (`tier = \"{later}\"`, below the shared layers)",
                word = names.word
            )),
        );
    }
}

/// Why layer `l` may differ between roles (or compositions), if it may.
fn problem(l: &Layer, names: &Names<'_>, texts: &[Text]) -> Option<String> {
    let word = names.word;
    let role = |r: RoleId| names.roles.get(r.0).map_or("", String::as_str);
    if let Some(out) = RoleId::all(names.roles.len()).find(|&r| !l.in_scope(r)) {
        return Some(format!(
            "{word} `{}` does not take it (the layer's `{word}s` leave it out)",
            role(out)
        ));
    }
    if let Some(c) = l.conds().next() {
        return Some(format!(
            "it is gated at run time on `{}`, which cannot be proven the same for every {word}",
            c.written
        ));
    }
    if l.overlay.is_some() || l.selector.is_some() {
        return Some("a user's file can replace its text at run time".into());
    }
    let mut header = l.header.iter().flat_map(|h| &h.segments);
    if let Some(why) = header.find_map(|s| runtime(s, names)) {
        return Some(format!(
            "its header {why}, which cannot be proven the same for every {word}"
        ));
    }
    let groups = match &l.content {
        Content::PerRole(groups) => groups,
        Content::Choice { .. } => return Some("its text is chosen at run time (`dir`)".into()),
        Content::Slot { .. } | Content::Instructions => {
            return Some("its text is given at run time".into())
        }
    };
    for g in groups {
        if let Some(why) = texts[g.text.0]
            .segments
            .iter()
            .flatten()
            .find_map(|s| runtime(s, names))
        {
            return Some(format!(
                "its text {why}, which cannot be proven the same for every {word}"
            ));
        }
    }
    // A layer with no text for any role has nothing to differ in.
    let (first, rest) = groups.split_first()?;
    for g in rest {
        let (a, b) = (&texts[first.text.0].body, &texts[g.text.0].body);
        if a != b {
            let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
            return Some(format!(
                "{word}s `{}` and `{}` get different texts (they differ from byte {at} on)",
                first.roles.first().map_or("", |&r| role(r)),
                g.roles.first().map_or("", |&r| role(r))
            ));
        }
    }
    let suffix = l.suffix.as_ref()?;
    if let Some(r) = suffix
        .roles
        .as_ref()
        .and_then(|rs| RoleId::all(names.roles.len()).find(|r| !rs.contains(r)))
    {
        return Some(format!("its suffix leaves {word} `{}` out", role(r)));
    }
    let why = suffix.segments.iter().find_map(|s| runtime(s, names))?;
    Some(format!(
        "its suffix {why}, which cannot be proven the same for every {word}"
    ))
}

/// What a segment reads at run time, if anything.
fn runtime(s: &Segment, names: &Names<'_>) -> Option<String> {
    match s {
        Segment::Lit(_) => None,
        Segment::Knob(k) => Some(format!("prints knob `{}`", names.knobs[*k].name)),
        Segment::Fact(f) | Segment::Html(f) => {
            Some(format!("prints fact `{}`", names.facts[*f].name))
        }
        Segment::If { on, .. } => Some(match on {
            crate::model::SectionOn::Fact(f) => {
                format!("has a section on fact `{}`", names.facts[*f].name)
            }
            crate::model::SectionOn::Flag(f) => {
                format!("has a section on flag `{}`", names.flags[*f].name)
            }
        }),
        Segment::IfCount { fact, .. } => Some(format!(
            "has a section on the count of fact `{}`",
            names.facts[*fact].name
        )),
        Segment::When { .. } => Some("has a section on a condition".into()),
        Segment::Loop { fact, .. } => {
            Some(format!("loops over fact `{}`", names.facts[*fact].name))
        }
    }
}
