//! `diff`'s report, from the comparison's data: text changes once each, a line per changed
//! prompt, and the cache impact per stable prefix.

use std::fmt::Write as _;

use doctrine_codegen::named::Named;

use crate::compare::{self, Pair, PrefixChange, TextChange};
use crate::prompts::Prompts;
use crate::simulate;
use crate::simulate::cache::{Config, Prices, Provider, Usage};
use crate::table::{self, number, text};
use crate::textdiff::{unified, Paint};
use crate::tokens::Counter;

/// The whole report.
/// `labels` name the two sides in its first line.
/// `fixed`: the flags, knobs and choices of the simulated line's workload.
pub(crate) fn diff(
    (old, new): (&Prompts, &Prompts),
    labels: [&str; 2],
    (counter, fixed): (Counter, &Named),
    paint: Paint,
) -> String {
    let pairs = compare::pairs(old, new);
    let mut out = summary(labels, (old, new), &pairs, counter);
    let changes = compare::text_changes(&pairs);
    if !changes.is_empty() {
        out.push_str("\nText changes, each once, with the prompts it reaches:\n");
        for change in &changes {
            out.push('\n');
            out.push_str(&text_change(change, new.all.len(), paint));
        }
    }
    if pairs.iter().any(|p| !p.unchanged()) {
        out.push_str("\nPrompts:\n\n");
        out.push_str(&prompt_lines(&pairs, counter));
    }
    let prefixes = compare::prefix_changes(&pairs);
    if !prefixes.is_empty() {
        out.push_str("\nCache: each stable prefix the old prompts had:\n\n");
        out.push_str(&cache_lines(&prefixes, counter));
    }
    out.push('\n');
    out.push_str(&simulated(old, new, counter, fixed));
    out
}

/// The simulator's default run on each side: the fraction served from the cache and the
/// cost against no caching, before and after.
pub(crate) fn simulated(old: &Prompts, new: &Prompts, counter: Counter, fixed: &Named) -> String {
    let (sessions, turns) = simulate::DEFAULT_RUN;
    let run = |p: &Prompts| simulate::default_run(&p.doctrine, fixed, counter);
    let figures = match (run(old), run(new)) {
        (Ok(o), Ok(n)) => {
            let served = |u: &Usage| format!("{:.1}%", u.served() * 100.0);
            let cost = |u: &Usage| format!("{:.3}", u.cost_ratio(Prices::ANTHROPIC));
            let cached = |u: &Usage| u.read + u.write > 0;
            let none = if cached(&o) || cached(&n) {
                String::new()
            } else {
                let min = Config::of(Provider::Anthropic).min_tokens;
                format!(" (no prefix reaches the {min}-token minimum on either side)")
            };
            format!(
                "served {} → {}, cost {} → {}{none}",
                served(&o),
                served(&n),
                cost(&o),
                cost(&n)
            )
        }
        (Err(e), _) => format!("not run on the old manifest: {e}"),
        (_, Err(e)) => format!("not run on the new manifest: {e}"),
    };
    let settings = settings(fixed);
    format!(
        "simulated ({sessions} sessions × {turns} turns, default workload{settings}): {figures}\n"
    )
}

/// `, with fable, intensity=ultra` for the settings given, or nothing.
fn settings(fixed: &Named) -> String {
    let flags = fixed
        .flags
        .iter()
        .filter(|(_, on)| *on)
        .map(|(f, _)| f.clone());
    let pairs = fixed
        .knobs
        .iter()
        .chain(&fixed.choices)
        .map(|(k, v)| format!("{k}={v}"));
    let all: Vec<String> = flags.chain(pairs).collect();
    match all.is_empty() {
        true => String::new(),
        false => format!(", with {}", all.join(", ")),
    }
}

/// The opening line: how many prompts changed, were added, removed, or stayed.
fn summary(
    [before, after]: [&str; 2],
    (old, new): (&Prompts, &Prompts),
    pairs: &[Pair<'_>],
    counter: Counter,
) -> String {
    let count = |f: fn(&Pair<'_>) -> bool| pairs.iter().filter(|p| f(p)).count();
    let same = count(|p| p.unchanged());
    let added = count(|p| p.old.is_none());
    let removed = count(|p| p.new.is_none());
    format!(
        "{before} → {after}: {} prompts before, {} after: {} changed, {same} unchanged, \
         {added} added, {removed} removed; {}\n",
        old.all.len(),
        new.all.len(),
        pairs.len() - same - added - removed,
        counter.describe()
    )
}

/// One text change: what it is, where it reaches, and its line diff.
fn text_change(change: &TextChange<'_>, prompts: usize, paint: Paint) -> String {
    let what = match (change.old, change.new) {
        (None, _) => "added",
        (_, None) => "removed",
        _ => "changed",
    };
    let reach = match change.prompts.len() {
        n if n == prompts => format!("every prompt ({n})"),
        1 => "1 prompt".to_string(),
        n => format!("{n} prompts"),
    };
    let layer = match change.layer {
        compare::JOINS => compare::JOINS.to_string(),
        layer => format!("layer `{layer}`"),
    };
    let mut out = format!(
        "{}\n",
        paint.paint("1", &format!("{layer} {what}, in {reach}:"))
    );
    if change.prompts.len() < prompts {
        for names in change.prompts.chunks(6) {
            let _ = writeln!(out, "  {}", names.join(", "));
        }
    }
    if !change.endings.is_empty() {
        let _ = writeln!(
            out,
            "  (the text before its last paragraph, which differs by prompt and is unchanged: \
             {})",
            endings(&change.endings).join("; ")
        );
    }
    out.push_str(&unified(
        change.old.unwrap_or(""),
        change.new.unwrap_or(""),
        paint,
    ));
    out
}

/// What tells each ending's prompts from the others': the parts of their names
/// (`intensity=lite`) they all have and not every ending's prompts have; else their count.
fn endings(endings: &[Vec<&str>]) -> Vec<String> {
    let common = |names: &[&str]| -> Vec<String> {
        let mut parts: Vec<&str> = names.first().map_or(Vec::new(), |n| n.split('+').collect());
        parts.retain(|p| names.iter().all(|n| n.split('+').any(|q| q == *p)));
        parts.into_iter().map(str::to_string).collect()
    };
    let each: Vec<Vec<String>> = endings.iter().map(|e| common(e)).collect();
    let everywhere: Vec<&String> = each.first().map_or(Vec::new(), |first| {
        first
            .iter()
            .filter(|p| each.iter().all(|e| e.contains(p)))
            .collect()
    });
    each.iter()
        .zip(endings)
        .map(|(parts, names)| {
            let own: Vec<&str> = parts
                .iter()
                .filter(|p| !everywhere.contains(p))
                .map(String::as_str)
                .collect();
            match own.is_empty() {
                true => format!("{} prompts", names.len()),
                false => own.join("+"),
            }
        })
        .collect()
}

/// A line per prompt that is not unchanged.
fn prompt_lines(pairs: &[Pair<'_>], counter: Counter) -> String {
    let size = |p: Option<&crate::prompts::Composed>, f: &dyn Fn(&str) -> usize| {
        p.map(|c| f(c.prompt.as_str()))
    };
    let bytes = |s: &str| s.len();
    let tokens = |s: &str| counter.count(s);
    let rows: Vec<Vec<String>> = pairs
        .iter()
        .filter(|p| !p.unchanged())
        .map(|p| {
            let stable = match (p.old, p.new) {
                (Some(o), Some(n)) if o.prompt.stable() == n.prompt.stable() => "kept".into(),
                (Some(_), Some(_)) => "changed".into(),
                (None, _) => "added".into(),
                (_, None) => "removed".into(),
            };
            let mut row = vec![p.name.to_string()];
            row.extend(delta(size(p.old, &bytes), size(p.new, &bytes)));
            row.extend(delta(size(p.old, &tokens), size(p.new, &tokens)));
            row.push(stable);
            row
        })
        .collect();
    let t = counter.heading();
    let columns = [
        text("prompt"),
        number("bytes"),
        number("after"),
        number("Δ"),
        number(t),
        number("after"),
        number("Δ"),
        text("stable prefix"),
    ];
    table::render(&columns, &rows)
}

/// Before, after and the signed difference; `-` for a side that has no such prompt.
fn delta(old: Option<usize>, new: Option<usize>) -> [String; 3] {
    let shown = |n: Option<usize>| n.map_or("-".to_string(), |n| n.to_string());
    let d = match (old, new) {
        (Some(o), Some(n)) if n >= o => format!("+{}", n - o),
        (Some(o), Some(n)) => format!("-{}", o - n),
        _ => String::new(),
    };
    [shown(old), shown(new), d]
}

/// A line per (old stable prefix, what it became): kept, gone, or the byte and token at
/// which it first differs; then the totals.
fn cache_lines(prefixes: &[PrefixChange<'_>], counter: Counter) -> String {
    let (mut invalidated, mut rewritten) = (0, 0);
    let rows: Vec<Vec<String>> = prefixes
        .iter()
        .map(|p| {
            let total = counter.count(p.old);
            let mut row = vec![
                format!(
                    "{:016x}",
                    doctrine_core::cache::fingerprint(p.old.as_bytes())
                ),
                p.old.len().to_string(),
                total.to_string(),
            ];
            match (p.new, p.first_change()) {
                (None, _) => row.push("gone".into()),
                (Some(_), None) => row.push("kept".into()),
                (Some(_), Some(at)) => {
                    let before = counter.count(&p.old[..at]).min(total);
                    (invalidated, rewritten) = (invalidated + 1, rewritten + total - before);
                    row.extend(["invalidated".into(), at.to_string(), before.to_string()]);
                }
            }
            row.resize(6, String::new());
            row.push(p.prompts.join(", "));
            row
        })
        .collect();
    let t = counter.heading();
    let columns = [
        text("fingerprint"),
        number("bytes"),
        number(t),
        text("cache"),
        number("from byte"),
        number(t),
        text("prompts"),
    ];
    let mut out = table::render(&columns, &rows);
    let _ = writeln!(
        out,
        "\n{invalidated} of {} stable prefixes invalidated; from their first changed byte on, \
         {rewritten} {t} are written to the cache again (a provider that caches the longest \
         matching prefix still serves what comes before it).",
        prefixes.len()
    );
    out
}
