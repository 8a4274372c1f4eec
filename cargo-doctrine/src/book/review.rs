//! The review a book shows in diff mode, from the comparison `cargo doctrine diff` prints
//! (`compare`): each changed layer text once with the prompts it reaches, and per changed
//! or added prompt the bytes that changed (a character diff of the whole prompt) and its
//! cached prefix before → after: kept, or the byte and token of its first change.

use std::ops::Range;
use std::time::Duration;

use doctrine_book::{Change, DiffLine, PageReview, Review};
use doctrine_codegen::named::Named;
use similar::{ChangeTag, TextDiff};

use crate::compare::{self, Pair, PrefixChange};
use crate::prompts::Prompts;
use crate::report;
use crate::tokens::Counter;

/// How long the character diff of one prompt may take before it settles for a coarser
/// one (still exact: every changed byte is marked, some unchanged ones may be too).
const DIFF_TIME: Duration = Duration::from_millis(200);

/// The review of `old` → `new`, the sides named by `labels`.
pub(crate) fn of(old: &Prompts, new: &Prompts, labels: [String; 2], counter: Counter) -> Review {
    let pairs = compare::pairs(old, new);
    let [before, after] = labels;
    let simulated = report::simulated(old, new, counter, &Named::default());
    let mut review = Review {
        old: before,
        new: after,
        summary: vec![simulated.trim_end().to_string()],
        ..Review::default()
    };
    for change in compare::text_changes(&pairs) {
        let lines = lines(change.old.unwrap_or(""), change.new.unwrap_or(""));
        let prompts = change.prompts.iter().map(ToString::to_string).collect();
        review
            .changes
            .push(Change::new(change.layer, lines, prompts));
    }
    for pair in &pairs {
        match (pair.old, pair.new) {
            (Some(_), None) => review.removed.push(pair.name.to_string()),
            _ if pair.unchanged() => {}
            (old, Some(_)) => {
                let page = page(pair, old.is_some(), counter);
                review.pages.insert(pair.name.to_string(), page);
            }
            (None, None) => {}
        }
    }
    review
}

/// A layer text's diff, line by line.
fn lines(old: &str, new: &str) -> Vec<DiffLine> {
    TextDiff::from_lines(old, new)
        .iter_all_changes()
        .map(|c| {
            let line = c
                .value()
                .strip_suffix('\n')
                .unwrap_or(c.value())
                .to_string();
            match c.tag() {
                ChangeTag::Equal => DiffLine::Same(line),
                ChangeTag::Delete => DiffLine::Removed(line),
                ChangeTag::Insert => DiffLine::Added(line),
            }
        })
        .collect()
}

fn page(pair: &Pair<'_>, had: bool, counter: Counter) -> PageReview {
    let new = pair.new.map_or("", |c| c.prompt.as_str());
    let old = pair.old.map_or("", |c| c.prompt.as_str());
    let (inserted, deleted) = changed_bytes(old, new);
    let cache = match (pair.old, pair.new) {
        (Some(o), Some(n)) => cache(o.prompt.stable(), n.prompt.stable(), counter),
        _ => Vec::new(),
    };
    PageReview {
        status: if had { "changed" } else { "added" }.to_string(),
        inserted,
        deleted,
        cache,
    }
}

/// The stretches of `new` not in `old`, and the stretches of `old` not in `new` at the
/// byte of `new` where they stood.
fn changed_bytes(old: &str, new: &str) -> (Vec<Range<usize>>, Vec<(usize, String)>) {
    let diff = TextDiff::configure()
        .timeout(DIFF_TIME)
        .diff_chars(old, new);
    let (mut inserted, mut deleted): (Vec<Range<usize>>, Vec<(usize, String)>) = (vec![], vec![]);
    let mut at = 0;
    for change in diff.iter_all_changes() {
        let value = change.value();
        match change.tag() {
            ChangeTag::Equal => at += value.len(),
            ChangeTag::Insert => {
                match inserted.last_mut() {
                    Some(last) if last.end == at => last.end += value.len(),
                    _ => inserted.push(at..at + value.len()),
                }
                at += value.len();
            }
            ChangeTag::Delete => match deleted.last_mut() {
                Some((last, text)) if *last == at => text.push_str(value),
                _ => deleted.push((at, value.to_string())),
            },
        }
    }
    (inserted, deleted)
}

/// The cached prefix before → after, as `diff`'s cache table words it.
fn cache(old: &str, new: &str, counter: Counter) -> Vec<String> {
    let t = counter.heading();
    let sizes = format!(
        "stable prefix {} bytes, {} {t} → {} bytes, {} {t}",
        old.len(),
        counter.count(old),
        new.len(),
        counter.count(new)
    );
    let prefix = PrefixChange {
        old,
        new: Some(new),
        prompts: Vec::new(),
    };
    let fate = match prefix.first_change() {
        None => "kept: its cache stays valid".to_string(),
        Some(at) => format!(
            "invalidated from byte {at} (token {}): a provider caching the longest matching \
             prefix still serves what comes before",
            counter.count(&old[..at])
        ),
    };
    vec![sizes, fate]
}
