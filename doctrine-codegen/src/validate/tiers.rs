//! `tiers = [...]` and `[cache]`: the ordered cache tiers, which of them every role shares,
//! the breakpoint limit, and the tiers of flags and knobs. What layers do with them is
//! checked in `tier_uses` and `shared`.

use toml::Spanned;

use super::hint::hint;
use super::idents::check_ident;
use crate::de::unknown_word_at;
use crate::diag::Sink;
use crate::model::{Flag, Knob, Tiers, DEFAULT_BREAKPOINTS};
use crate::raw::{Manifest, Name};
use crate::sections::report;

/// The declared tiers (or the default two), with `[cache] shared` and `breakpoints`.
pub(super) fn tiers(raw: &Manifest, sink: &mut Sink<'_>) -> Tiers {
    let mut tiers = Tiers::default();
    if let Some(list) = &raw.tiers {
        if let Some(names) = declared(list, sink) {
            tiers.shared = vec![false; names.len()];
            tiers.names = names;
            tiers.declared = true;
        }
    }
    let cache = raw.cache.as_ref().map(Spanned::get_ref);
    let shared_names = cache.map_or(&[][..], |c| &c.shared[..]);
    for name in shared_names {
        if let Some(i) = resolve(&tiers, name, sink) {
            shared(&mut tiers, i, name, sink);
        }
    }
    for (i, name) in tiers.names.iter().enumerate().skip(1) {
        let before = &tiers.names[i - 1];
        if tiers.shared[i] && !tiers.shared[i - 1] {
            let at = shared_names.iter().find(|n| n.get_ref() == name);
            sink.error(
                at.map(Spanned::span),
                format!("shared tier `{name}` follows tier `{before}`, which is not shared"),
                Some(format!(
                    "a provider caches exact prefixes: the prefix ending with `{name}` holds `{before}`'s per-role bytes, so no role could reuse another's. List every tier before `{name}` in `shared` too, or make `{name}` the first tier"
                )),
            );
        }
    }
    let breakpoints = cache.and_then(|c| c.breakpoints.as_ref());
    tiers.breakpoints = breakpoints.map_or(DEFAULT_BREAKPOINTS, |b| *b.get_ref());
    let cached = tiers.last();
    if cached > tiers.breakpoints {
        let at = breakpoints.map(Spanned::span);
        let at = at.or_else(|| raw.tiers.as_ref().map(Spanned::span));
        let limit = tiers.breakpoints;
        sink.error(
            at,
            format!(
                "{cached} cacheable tiers, each ending with a cache breakpoint, but a request may mark at most {limit} (`[cache] breakpoints`)"
            ),
            Some(format!(
                "merge tiers until at most {limit} come before the last (per-turn) one, or raise `breakpoints` if every provider you send to allows more (Anthropic allows 4 per request)"
            )),
        );
    }
    tiers
}

/// `tiers = [...]`: at least two plain identifiers, none twice (a repeat is reported and
/// left out); `None` (reported) for fewer than two, so the default tiers keep the rest of
/// the checks going.
fn declared(list: &Spanned<Vec<Name>>, sink: &mut Sink<'_>) -> Option<Vec<String>> {
    let names = list.get_ref();
    if names.len() < 2 {
        sink.error(
            Some(list.span()),
            match names.len() {
                0 => "`tiers` declares no tier, and a prompt needs at least two".to_string(),
                _ => "`tiers` declares one tier, and a prompt needs at least two".to_string(),
            },
            Some("list the cached tiers in order, then the per-turn one last: `tiers = [\"shared\", \"role\", \"turn\"]`".into()),
        );
    }
    let mut seen: Vec<String> = Vec::new();
    for name in names {
        let n = name.get_ref();
        let what = "a module of `prefix`";
        check_ident(sink, name.span(), "tier", n, what);
        if seen.contains(n) {
            sink.error(
                Some(name.span()),
                format!("tier `{n}` is listed twice"),
                Some("each tier is one block of the prompt: remove the repeat".into()),
            );
        } else {
            seen.push(n.clone());
        }
    }
    (seen.len() >= 2).then_some(seen)
}

/// Marks tier `i` shared; the last tier cannot be.
fn shared(tiers: &mut Tiers, i: usize, name: &Name, sink: &mut Sink<'_>) {
    if i == tiers.last() {
        sink.error(
            Some(name.span()),
            format!(
                "the last tier `{}` is the per-turn one, never cached: it cannot be shared",
                name.get_ref()
            ),
            Some("list only cached tiers in `[cache] shared` (every tier but the last)".into()),
        );
        return;
    }
    tiers.shared[i] = true;
}

/// The tier `name` names, or `None` (reported). Without declared tiers the message is the
/// one the two words `stable` and `volatile` always had.
pub(super) fn resolve(tiers: &Tiers, name: &Name, sink: &mut Sink<'_>) -> Option<usize> {
    let n = name.get_ref();
    if let Some(i) = tiers.names.iter().position(|t| t == n) {
        return Some(i);
    }
    if !tiers.declared {
        report(
            vec![unknown_word_at(name.span(), n, &["stable", "volatile"])],
            sink,
        );
        return None;
    }
    sink.error(
        Some(name.span()),
        format!("unknown tier `{n}`"),
        Some(hint(
            n,
            tiers.names.iter().map(String::as_str),
            "the manifest's `tiers`",
        )),
    );
    None
}

/// `[cache] settings = { flag = "tier", knob = "tier" }`: each names a declared flag or knob.
pub(super) fn settings(
    raw: &Manifest,
    tiers: &Tiers,
    flags: &mut [Flag],
    knobs: &mut [Knob],
    sink: &mut Sink<'_>,
) {
    let settings = raw.cache.iter().flat_map(|c| &c.get_ref().settings);
    for (name, tier) in settings {
        let n = name.get_ref();
        let Some(t) = resolve(tiers, tier, sink) else {
            continue;
        };
        if let Some(f) = flags.iter_mut().find(|f| &f.name == n) {
            f.tier = t;
        } else if let Some(k) = knobs.iter_mut().find(|k| &k.name == n) {
            k.tier = t;
        } else {
            let all = flags
                .iter()
                .map(|f| f.name.as_str())
                .chain(knobs.iter().map(|k| k.name.as_str()));
            sink.error(
                Some(name.span()),
                format!("`[cache] settings` names `{n}`, which is no declared flag or knob"),
                Some(hint(n, all, "declared flags and knobs")),
            );
        }
    }
}
