//! Notes `check` gives about caching, from every prompt the closed sets make (facts not
//! given, slots empty): a stable prefix too short for a provider to cache, a layer that
//! varies by role placed before layers every role shares (each role's cached prefix then
//! ends early, and the shared text is cached once per role instead of once), and a
//! volatile layer a manifest with messages sends before the conversation's history.

use std::collections::HashMap;

use doctrine_codegen::{Diagnostic, Diagnostics, FileId, Files, Span};
use doctrine_core::introspect::Stability;

use crate::prompts::{self, Composed, Prompts, TierPrefix};
use crate::tokens::Counter;

/// The fewest tokens most current models cache (see the guide page `doctrine/docs/cli.md`, "Cache notes").
pub(crate) const MIN_CACHE_TOKENS: usize = 1024;

/// Every note, in order: short prefixes, then layer order. `source` is the manifest's
/// text, for the position of a layer.
pub(crate) fn notes(p: &Prompts, min: usize, counter: Counter, source: &str) -> Diagnostics {
    let mut files = Files::default();
    let manifest = files.add(p.doctrine.manifest_display.clone(), source);
    let mut list = match p.doctrine.tiers.declared {
        true => short_tiers(p, min, counter, manifest),
        false => short_prefixes(p, min, counter, manifest),
    };
    list.extend(role_before_shared(p, counter, (manifest, source)));
    list.extend(volatile_before_history(p, (manifest, source)));
    list.extend(crate::guard_lint::notes(&p.doctrine, (manifest, source)));
    Diagnostics { files, list }
}

/// A note at each volatile layer a manifest with messages sends before the conversation's
/// history: what changes every turn there makes every turn write the whole history cached
/// after it anew, where after the history it leaves the history cached.
fn volatile_before_history(p: &Prompts, manifest: (FileId, &str)) -> Vec<Diagnostic> {
    let d = &p.doctrine;
    let before = d
        .layers
        .iter()
        .filter(|l| l.tier == Stability::Volatile)
        .filter_map(|l| {
            let m = l.info.message.filter(|m| !m.after_history)?;
            Some((l, m))
        });
    before
        .map(|(l, m)| Diagnostic {
            span: layer_span(p, &l.name, manifest),
            message: format!(
                "volatile layer `{}` is sent in the `{}` message before the conversation's \
                 history: it changes every turn, so every turn writes the whole history \
                 cached after it anew (`cargo doctrine simulate` compares both placements)",
                l.name, m.role
            ),
            help: Some(
                "send it after the history: put it in a `[[message]]` with \
                 `after_history = true`, the turn's own context"
                    .into(),
            ),
        })
        .collect()
}

/// The distinct stable prefixes under `min` tokens: one note naming the prompts when
/// there is one, else one note for all of them (their count and their range of sizes), so
/// a manifest of many roles gets one note, not one per role.
fn short_prefixes(p: &Prompts, min: usize, counter: Counter, manifest: FileId) -> Vec<Diagnostic> {
    let mut order: Vec<&str> = Vec::new();
    let mut members: HashMap<&str, Vec<&str>> = HashMap::new();
    for c in &p.all {
        let stable = c.prompt.stable();
        let names = members.entry(stable).or_insert_with(|| {
            order.push(stable);
            Vec::new()
        });
        names.push(&c.name);
    }
    let tokens = counter.heading().trim_start_matches('~');
    let distinct = order.len();
    let short: Vec<(&str, usize)> = order
        .into_iter()
        .map(|stable| (stable, counter.count(stable)))
        .filter(|&(_, n)| n < min)
        .collect();
    let (lo, hi) = match (
        short.iter().map(|s| s.1).min(),
        short.iter().map(|s| s.1).max(),
    ) {
        (Some(lo), Some(hi)) => (lo, hi),
        _ => return Vec::new(),
    };
    let help_tail = "; for a model whose minimum differs, pass --min-cache-tokens N";
    let (message, help) = match &short[..] {
        [(stable, n)] => (
            format!(
                "the stable prefix of {} is {}{n} {tokens} ({} bytes) without facts or slots, \
                 under the {min} a provider caches at the least: it is not cached, and every \
                 turn pays for it in full",
                members[stable].join(", "),
                approx(counter),
                stable.len()
            ),
            format!(
                "{} more stable {tokens} would make it cacheable{help_tail}",
                min - n
            ),
        ),
        _ => {
            let prompts: usize = short.iter().map(|(s, _)| members[s].len()).sum();
            let which = match short.len() == distinct {
                true => format!("all {distinct} distinct stable prefixes"),
                false => format!("{} of the {distinct} distinct stable prefixes", short.len()),
            };
            (
                format!(
                    "{which} (of {prompts} prompts) are {a}{lo}–{hi} {tokens} without facts or \
                     slots, under the {min} a provider caches at the least: they are not \
                     cached, and every turn pays for them in full",
                    a = approx(counter)
                ),
                format!(
                    "{}–{} more stable {tokens} would make them cacheable (`cargo doctrine \
                     matrix` lists each prompt's stable prefix){help_tail}",
                    min - hi,
                    min - lo
                ),
            )
        }
    };
    vec![Diagnostic {
        span: Span::file(manifest),
        message,
        help: Some(help),
    }]
}

/// For a manifest with tiers: one note per cached tier some of whose prefixes (up to the
/// end of its block, what its breakpoint caches) are under `min` tokens.
fn short_tiers(p: &Prompts, min: usize, counter: Counter, manifest: FileId) -> Vec<Diagnostic> {
    let prefixes = prompts::tier_prefixes(p);
    let tokens = counter.heading().trim_start_matches('~');
    let names = &p.doctrine.tiers.names;
    (0..names.len())
        .filter_map(|tier| {
            let of_tier: Vec<&TierPrefix<'_>> =
                prefixes.iter().filter(|t| t.tier == tier).collect();
            let short: Vec<(usize, &TierPrefix<'_>)> = of_tier
                .iter()
                .map(|t| (counter.count(t.prefix), *t))
                .filter(|&(n, _)| n < min)
                .collect();
            let longest = short.iter().map(|&(n, _)| n).max()?;
            let listed: Vec<String> = short
                .iter()
                .map(|(n, t)| format!("{} ({}{n})", shown(p, &t.names), approx(counter)))
                .collect();
            let how_many = match (short.len(), of_tier.len()) {
                (1, 1) => "the prefix that ends with tier".to_string(),
                (1, all) => format!("1 of the {all} prefixes that end with tier"),
                (n, all) => format!("{n} of the {all} prefixes that end with tier"),
            };
            let verb = if short.len() == 1 { "is" } else { "are" };
            Some(Diagnostic {
                span: Span::file(manifest),
                message: format!(
                    "{how_many} `{}` {verb} under the {min} {tokens} a provider caches at the \
                     least (without facts or slots), so its breakpoint caches nothing there: {}",
                    names[tier],
                    listed.join("; ")
                ),
                help: Some(format!(
                    "{} more {tokens} in the tiers up to `{}` would make the longest of them \
                     cacheable; for a model whose minimum differs, pass --min-cache-tokens N",
                    min - longest,
                    names[tier]
                )),
            })
        })
        .collect()
}

/// The prompts `names`, or "every prompt (N)".
fn shown(p: &Prompts, names: &[&str]) -> String {
    match names.len() {
        n if n == p.all.len() => format!("every prompt ({n})"),
        _ => names.join(", "),
    }
}

fn approx(counter: Counter) -> &'static str {
    if counter.heading().starts_with('~') {
        "~"
    } else {
        ""
    }
}

/// Per stable layer (manifest order), whether it varies by role, and whether it is in some
/// prompt and the same for every role, over the prompts grouped by everything but the role.
fn layer_kinds<'p>(p: &'p Prompts) -> Vec<(&'p str, bool, bool)> {
    let mut groups: HashMap<&str, Vec<&'p Composed>> = HashMap::new();
    for c in &p.all {
        groups.entry(&c.rest).or_default().push(c);
    }
    let stable = p
        .doctrine
        .layers
        .iter()
        .filter(|l| l.tier == Stability::Stable);
    stable
        .map(|l| {
            let name = l.name.as_str();
            let texts = |g: &[&'p Composed]| -> Vec<Option<&'p str>> {
                g.iter()
                    .map(|c| c.prompt.layer(name).filter(|t| !t.is_empty()))
                    .collect()
            };
            let varies = groups
                .values()
                .any(|g| texts(g).windows(2).any(|w| w[0] != w[1]));
            // The same for every role wherever it is in a prompt at all (a flag may gate it).
            let shared = !varies && groups.values().any(|g| texts(g)[0].is_some());
            (name, varies, shared)
        })
        .collect()
}

/// A note at the first stable layer that varies by role when layers every role shares
/// come after it (for a manifest without tiers).
/// `manifest`: its file and its text.
fn role_before_shared(
    p: &Prompts,
    counter: Counter,
    manifest: (FileId, &str),
) -> Option<Diagnostic> {
    // With tiers the manifest places every layer by its tier, and the compiler holds the
    // order: what every role shares goes in a shared tier.
    if p.doctrine.roles.len() < 2 || p.doctrine.tiers.declared {
        return None;
    }
    let kinds = layer_kinds(p);
    let first = kinds.iter().position(|&(_, varies, _)| varies)?;
    let after: Vec<&str> = kinds[first + 1..]
        .iter()
        .filter(|&&(_, _, shared)| shared)
        .map(|&(name, _, _)| name)
        .collect();
    if after.is_empty() {
        return None;
    }
    // The most the shared layers come to in any one prompt.
    let at_stake = p
        .all
        .iter()
        .map(|c| {
            after
                .iter()
                .filter_map(|l| c.prompt.layer(l))
                .collect::<String>()
        })
        .max_by_key(String::len)
        .unwrap_or_default();
    let layer = kinds[first].0;
    let listed: Vec<String> = after.iter().map(|l| format!("`{l}`")).collect();
    Some(Diagnostic {
        span: layer_span(p, layer, manifest),
        message: format!(
            "layer `{layer}` varies by {role} but comes before {}, which every {role} shares: \
             each {role}'s cached prefix parts from the others' at `{layer}`, so these {}{} {} \
             ({} bytes) are cached once per {role} instead of once for all",
            listed.join(", "),
            approx(counter),
            counter.count(&at_stake),
            counter.heading().trim_start_matches('~'),
            at_stake.len(),
            role = p.doctrine.role_word
        ),
        help: Some(format!(
            "if the order is not needed, move `{layer}` after them (a manifest's layer order \
             is its prompt's order)"
        )),
    })
}

/// Where layer `name`'s `name` key is in the manifest, or the manifest as a whole.
fn layer_span(p: &Prompts, name: &str, (manifest, source): (FileId, &str)) -> Span {
    let layer = p.doctrine.layers.iter().find(|l| l.name == name);
    match layer.map(|l| &l.at.name) {
        Some(at) if source.is_char_boundary(at.start) => Span::new(manifest, at.clone()),
        _ => Span::file(manifest),
    }
}
