//! `[budget]`: a ceiling on the compiled bytes of each role's (mode's) stable prefix.
//!
//! What is counted is what the compiler knows: the largest text each stable layer can
//! resolve to for the role (over choices, per-role files and knob suffixes), placeholders
//! counted as empty, plus the separators between them. Runtime slot and fact values are
//! not counted; the ceiling bounds the doctrine a team ships, which is the part that
//! grows unnoticed.

use toml::Spanned;

use crate::introspect::Tier;

use super::Names;
use crate::codegen::diag::Sink;
use crate::codegen::load::Loader;
use crate::codegen::model::{Content, Layer, RoleId, Segment, TextId};
use crate::codegen::raw::Manifest;

pub(super) fn check(
    raw: &Manifest,
    names: &Names<'_>,
    layers: &[(Spanned<()>, Layer)],
    loader: &Loader,
    sink: &mut Sink<'_>,
) {
    let Some(budget) = &raw.budget else { return };
    let budget = budget.get_ref();
    for role in budget.per_role.keys() {
        if !names.roles.contains(role.get_ref()) {
            names.role(role, sink);
        }
    }
    for r in RoleId::all(names.roles.len()) {
        let who = names.roles.get(r.0).cloned();
        let Some(ceiling) = ceiling(budget, names, r) else {
            continue;
        };
        let mut sizes: Vec<(&str, usize)> = layers
            .iter()
            .map(|(_, l)| l)
            .filter(|l| l.tier == Tier::Stable && l.in_scope(r))
            .map(|l| (l.name.as_str(), max_bytes(l, r, loader, names)))
            .filter(|(_, n)| *n > 0)
            .collect();
        let separators =
            raw.separator.as_ref().map_or(7, |s| s.get_ref().len()) * sizes.len().saturating_sub(1);
        let total: usize = sizes.iter().map(|(_, n)| n).sum::<usize>() + separators;
        if total > *ceiling.get_ref() {
            sizes.sort_by_key(|s| std::cmp::Reverse(s.1));
            let largest: Vec<String> = sizes
                .iter()
                .take(3)
                .map(|(n, b)| format!("`{n}` {b} bytes"))
                .collect();
            let whose = match &who {
                Some(w) => format!("{} `{w}`", names.word),
                None => "the prompt".to_string(),
            };
            sink.error(
                Some(ceiling.span()),
                format!(
                    "the stable prefix of {whose} is {total} bytes (~{} tokens) of compiled text, over its budget of {} bytes",
                    crate::introspect::approx_tokens(total),
                    ceiling.get_ref()
                ),
                Some(format!(
                    "largest layers: {}; trim them, scope some to fewer {}s, or raise the budget",
                    largest.join(", "),
                    names.word
                )),
            );
        }
    }
}

/// The most bytes segments can take: knobs at their longest value, facts empty.
fn segments_max(segments: &[Segment], names: &Names<'_>) -> usize {
    segments
        .iter()
        .map(|s| match s {
            Segment::Lit(t) => t.len(),
            Segment::Knob(k) => {
                let knob = &names.knobs[*k];
                (0..knob.values.len())
                    .map(|i| knob.printed(i).len())
                    .max()
                    .unwrap_or(0)
            }
            // Every section counted as printed: the ceiling is on the largest text.
            Segment::Fact(_) | Segment::If { .. } => 0,
        })
        .sum()
}

/// The most bytes layer `l` can contribute for role `r` with every runtime value empty.
fn max_bytes(l: &Layer, r: RoleId, loader: &Loader, names: &Names<'_>) -> usize {
    let text_bytes = |id: TextId| {
        let t = &loader.texts[id];
        t.segments
            .as_ref()
            .map_or(t.body.len(), |segs| segments_max(segs, names))
    };
    let base = match &l.content {
        Content::PerRole(groups) => groups
            .iter()
            .find(|g| g.roles.contains(&r) || names.roles.is_empty())
            .map_or(0, |g| text_bytes(g.text)),
        Content::Choice { variants, .. } => variants
            .iter()
            .map(|c| text_bytes(c.text))
            .max()
            .unwrap_or(0),
        Content::Slot { .. } | Content::Instructions => 0,
    };
    let suffix = l
        .suffix
        .as_ref()
        .filter(|s| s.roles.as_ref().is_none_or(|rs| rs.contains(&r)))
        .map_or(0, |s| s.separator.len() + segments_max(&s.segments, names));
    // The widest delimiters any formulation puts around a titled layer.
    let title = l.title.as_ref().map_or(0, |t| {
        let (heading, open, close) = crate::codegen::names::title_delimiters(t);
        heading.len().max(open.len() + close.len())
    });
    if base + suffix == 0 {
        0
    } else {
        base + suffix + title
    }
}

/// Role `r`'s ceiling: its `per_role` entry, else `stable_bytes`.
fn ceiling<'b>(
    budget: &'b crate::codegen::raw::Budget,
    names: &Names<'_>,
    r: RoleId,
) -> Option<&'b Spanned<usize>> {
    let who = names.roles.get(r.0);
    who.and_then(|w| budget.per_role.iter().find(|(k, _)| k.get_ref() == w))
        .map(|(_, v)| v)
        .or(budget.stable_bytes.as_ref())
}

/// Every role's ceiling, for the generated code; `None` without a `[budget]` table.
pub(super) fn ceilings(raw: &Manifest, names: &Names<'_>) -> Option<Vec<Option<usize>>> {
    let budget = raw.budget.as_ref()?.get_ref();
    Some(
        RoleId::all(names.roles.len())
            .map(|r| ceiling(budget, names, r).map(|c| *c.get_ref()))
            .collect(),
    )
}
