//! What changed between two manifests' prompts, as data: each prompt matched by name
//! (changed, unchanged, added, removed); each distinct change of a layer's text once, with
//! the prompts it reaches; and each stable prefix of the old prompts, kept or invalidated,
//! with where its first changed byte falls.

use std::collections::HashMap;

use crate::prompts::{Composed, Prompts};

/// A prompt of either side, matched by name.
pub(crate) struct Pair<'a> {
    pub(crate) name: &'a str,
    pub(crate) old: Option<&'a Composed>,
    pub(crate) new: Option<&'a Composed>,
}

impl Pair<'_> {
    /// Present on both sides with the same text.
    pub(crate) fn unchanged(&self) -> bool {
        matches!((self.old, self.new), (Some(o), Some(n)) if o.prompt.as_str() == n.prompt.as_str())
    }
}

/// The label of a change that is no single layer's: the layers' order, or what stands
/// between them.
pub(crate) const JOINS: &str = "(order of layers, or what stands between them)";

/// One distinct change of one layer's text and the prompts (names) it reaches. `None`:
/// the layer is not in the prompt on that side.
pub(crate) struct TextChange<'a> {
    pub(crate) layer: &'a str,
    pub(crate) old: Option<&'a str>,
    pub(crate) new: Option<&'a str>,
    pub(crate) prompts: Vec<&'a str>,
    /// When the layer ends differently by prompt (a knob's suffix) and the change is in the
    /// text before its last paragraph, the same in each: `old` and `new` are that text, and
    /// here are the prompts of each ending, unchanged, in order. Empty otherwise.
    pub(crate) endings: Vec<Vec<&'a str>>,
}

/// One stable prefix of the old prompts and what became of it in the prompts that had it.
pub(crate) struct PrefixChange<'a> {
    pub(crate) old: &'a str,
    /// Its new text, or `None` for prompts that no longer exist.
    pub(crate) new: Option<&'a str>,
    pub(crate) prompts: Vec<&'a str>,
}

impl PrefixChange<'_> {
    /// The byte at which old and new first differ (on a character boundary of both), or
    /// `None` when the prefix is kept.
    pub(crate) fn first_change(&self) -> Option<usize> {
        let new = self.new?;
        if new == self.old {
            return None;
        }
        let same = self
            .old
            .bytes()
            .zip(new.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let at = (0..=same)
            .rev()
            .find(|&i| self.old.is_char_boundary(i) && new.is_char_boundary(i));
        Some(at.unwrap_or(0))
    }
}

/// Every prompt of `old` and `new`, matched by name: new's order, then those only in old.
pub(crate) fn pairs<'a>(old: &'a Prompts, new: &'a Prompts) -> Vec<Pair<'a>> {
    let olds: HashMap<&str, &Composed> = old.all.iter().map(|c| (c.name.as_str(), c)).collect();
    let news: HashMap<&str, &Composed> = new.all.iter().map(|c| (c.name.as_str(), c)).collect();
    let mut pairs: Vec<Pair<'a>> = new
        .all
        .iter()
        .map(|c| Pair {
            name: &c.name,
            old: olds.get(c.name.as_str()).copied(),
            new: Some(c),
        })
        .collect();
    pairs.extend(
        old.all
            .iter()
            .filter(|c| !news.contains_key(c.name.as_str()))
            .map(|c| Pair {
                name: &c.name,
                old: Some(c),
                new: None,
            }),
    );
    pairs
}

/// Each distinct change of a layer's text, in order of first appearance, over the
/// prompts present on both sides that changed.
pub(crate) fn text_changes<'a>(pairs: &[Pair<'a>]) -> Vec<TextChange<'a>> {
    let mut changes: Vec<TextChange<'a>> = Vec::new();
    let mut index: HashMap<(&str, Option<&str>, Option<&str>), usize> = HashMap::new();
    for pair in pairs {
        let (Some(old), Some(new)) = (pair.old, pair.new) else {
            continue;
        };
        if pair.unchanged() {
            continue;
        }
        let mut found = layer_changes(old, new);
        if found.is_empty() {
            found.push((JOINS, Some(old.prompt.as_str()), Some(new.prompt.as_str())));
        }
        for key in found {
            let at = *index.entry(key).or_insert_with(|| {
                changes.push(TextChange {
                    layer: key.0,
                    old: key.1,
                    new: key.2,
                    prompts: Vec::new(),
                    endings: Vec::new(),
                });
                changes.len() - 1
            });
            changes[at].prompts.push(pair.name);
        }
    }
    merge_endings(changes)
}

/// A text before its last paragraph and that paragraph, when it has both (as the book cuts
/// a layer's variants).
fn cut(text: &str) -> Option<(&str, &str)> {
    text.rsplit_once("\n\n")
        .filter(|(head, tail)| !head.is_empty() && !tail.is_empty())
}

/// A layer, and its text before the last paragraph, old and new.
type Key<'a> = (&'a str, &'a str, &'a str);

/// The change's [`Key`] when it leaves the layer's last paragraph as it was.
fn ending_key<'a>(c: &TextChange<'a>) -> Option<Key<'a>> {
    let ((old_head, old_tail), (new_head, new_tail)) = (cut(c.old?)?, cut(c.new?)?);
    (old_tail == new_tail && old_head != new_head).then_some((c.layer, old_head, new_head))
}

/// Changes of one layer that differ only in a last paragraph each leaves as it was (a
/// knob's suffix: one edit of the file behind it, once per knob value) become one change
/// of the text before it, with the prompts of each ending.
fn merge_endings(changes: Vec<TextChange<'_>>) -> Vec<TextChange<'_>> {
    let mut count: HashMap<Key<'_>, usize> = HashMap::new();
    for k in changes.iter().filter_map(ending_key) {
        *count.entry(k).or_default() += 1;
    }
    let mut merged: Vec<TextChange<'_>> = Vec::new();
    let mut at: HashMap<Key<'_>, usize> = HashMap::new();
    for change in changes {
        let Some(k) = ending_key(&change).filter(|k| count[k] > 1) else {
            merged.push(change);
            continue;
        };
        let i = *at.entry(k).or_insert_with(|| {
            merged.push(TextChange {
                layer: k.0,
                old: Some(k.1),
                new: Some(k.2),
                prompts: Vec::new(),
                endings: Vec::new(),
            });
            merged.len() - 1
        });
        merged[i].prompts.extend(&change.prompts);
        merged[i].endings.push(change.prompts);
    }
    merged
}

type LayerChange<'a> = (&'a str, Option<&'a str>, Option<&'a str>);

/// The layers whose text differs between two prompts: new's layers in order, then those
/// only the old one has.
fn layer_changes<'a>(old: &'a Composed, new: &'a Composed) -> Vec<LayerChange<'a>> {
    let names = |c: &'a Composed| -> Vec<&'a str> {
        c.prompt
            .sections()
            .iter()
            .filter(|s| c.prompt.text_of(s).is_some())
            .map(|s| s.info.name)
            .collect()
    };
    let (old_names, new_names) = (names(old), names(new));
    let only_old = old_names.iter().filter(|n| !new_names.contains(n));
    new_names
        .iter()
        .chain(only_old)
        .filter_map(|&layer| {
            let (before, after) = (old.prompt.layer(layer), new.prompt.layer(layer));
            (before != after).then_some((layer, before, after))
        })
        .collect()
}

/// Each distinct stable prefix of the old prompts, split by what it became: one entry per
/// (old prefix, new prefix) with the prompts that went that way.
pub(crate) fn prefix_changes<'a>(pairs: &[Pair<'a>]) -> Vec<PrefixChange<'a>> {
    let mut changes: Vec<PrefixChange<'a>> = Vec::new();
    let mut index: HashMap<(&str, Option<&str>), usize> = HashMap::new();
    for pair in pairs {
        let Some(old) = pair.old else { continue };
        let key = (old.prompt.stable(), pair.new.map(|n| n.prompt.stable()));
        let at = *index.entry(key).or_insert_with(|| {
            changes.push(PrefixChange {
                old: key.0,
                new: key.1,
                prompts: Vec::new(),
            });
            changes.len() - 1
        });
        changes[at].prompts.push(pair.name);
    }
    changes
}
