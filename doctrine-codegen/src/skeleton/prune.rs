//! A failing manifest's TOML tree, repaired where its errors point: the deepest entry that
//! holds an error's position is removed (an element of `roles`, a `when` condition, a
//! knob's `default`), so what the error spoiled goes and the rest stays. An error in a
//! layer's text (a missing file, a placeholder naming nothing) empties that text instead,
//! which keeps the layer; a layer whose name or kind is wrong goes whole. An error located
//! in another file empties every layer's text. What a removal breaks in turn (a required
//! key gone) is reported at the enclosing entry next round, and removed then.

use std::borrow::Cow;
use std::collections::BTreeSet;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::shape::reshapes;
use super::tree::{deepest, layers_mut, remove, Step};
use crate::expand::Part;

/// A layer's text, and the keys that say how to read it: an error in one empties the text.
const TEXT: &[&str] = &[
    "file",
    "files",
    "text",
    "texts",
    "missing",
    "frontmatter",
    "interpolate",
];

/// The content keys that give a layer a place in the builder (a choice, a slot,
/// instructions), which an empty text cannot stand for.
const KINDS: &[&str] = &["dir", "slot", "instructions"];

/// What to do at a path: remove what is there, or (a layer's) empty its text.
type Action = (Vec<Step>, bool);

#[derive(Default)]
pub(super) struct Pruner {
    /// Every layer's text was emptied, for an error located outside the manifest.
    blanked: bool,
    /// The parts of the generated module whose shape a removal changed.
    pub(super) reshaped: Vec<Part>,
}

impl Pruner {
    /// Repairs `doc` for errors at `at` (byte offsets; `None`: not in the manifest).
    /// False when nothing changed, or an error outside the manifest stays after every
    /// text was emptied: the manifest cannot be repaired.
    pub(super) fn repair(&mut self, doc: &mut DeTable<'_>, at: &[Option<usize>]) -> bool {
        let offsets: BTreeSet<usize> = at.iter().flatten().copied().collect();
        let found = deepest(doc, &offsets);
        let elsewhere = at.iter().any(Option::is_none) || found.len() < offsets.len();
        if elsewhere && self.blanked {
            return false;
        }
        let mut actions: Vec<Action> = found.into_values().map(action).collect();
        actions.sort();
        actions.dedup();
        let mut changed = false;
        // Last first: a removal shifts only the entries after it, done already.
        for action in actions.iter().rev() {
            if let Some(parts) = apply(doc, action) {
                self.reshaped.extend(parts);
                changed = true;
            }
        }
        if elsewhere {
            self.blanked = true;
            changed |= layers_mut(doc, None).fold(false, |changed, l| blank(l) | changed);
            // A list's item file is another file too: without it the list is printed by
            // loops only (declared fields) or is a plain list, whose item struct may change.
            if item_files(doc) {
                self.reshaped.push(Part::Facts);
                changed = true;
            }
        }
        changed
    }
}

/// Removes every list fact's `item_file`; true when there was one.
fn item_files(doc: &mut DeTable<'_>) -> bool {
    let Some(DeValue::Table(facts)) = doc.get_mut("facts").map(Spanned::get_mut) else {
        return false;
    };
    let mut removed = false;
    for (_, fact) in facts.iter_mut() {
        if let DeValue::Table(fact) = fact.get_mut() {
            if let Some(DeValue::Table(list)) = fact.get_mut("list").map(Spanned::get_mut) {
                removed |= list.remove("item_file").is_some();
            }
        }
    }
    removed
}

/// What an error at `path` repairs: in a layer, its text emptied, or by its name or kind
/// the layer removed; elsewhere, the entry removed, or the array element it is in (an
/// `[[order]]` or `[[reminders.kind]]` table needs every key it has).
fn action(path: Vec<Step>) -> Action {
    let mut inside = 0;
    if let [Step::Key(l), Step::Index(_), rest @ ..] = path.as_slice() {
        let key = match rest.first() {
            Some(Step::Key(k)) => k.as_str(),
            _ => "name",
        };
        let text = TEXT.contains(&key);
        if l == "layer" && (text || key == "name" || KINDS.contains(&key)) {
            return (path[..2].to_vec(), text);
        }
        inside = if l == "layer" { 2 } else { 0 };
    }
    let element = path[inside..]
        .iter()
        .position(|s| matches!(s, Step::Index(_)))
        .map_or(path.len(), |i| inside + i + 1);
    (path[..element].to_vec(), false)
}

/// Applies `action` to `doc`: what it reshaped, or `None` when nothing changed. A layer
/// whose text is empty already is removed; one with no content gets an empty text (its
/// error is what it lacks, not what it has).
fn apply(doc: &mut DeTable<'_>, (path, blanking): &Action) -> Option<Vec<Part>> {
    if let [Step::Key(l), Step::Index(i)] = path.as_slice() {
        let layer = layers_mut(doc, Some(*i)).next().filter(|_| l == "layer");
        if let Some(layer) = layer {
            let content = TEXT[..4]
                .iter()
                .chain(KINDS)
                .any(|k| layer.contains_key(*k));
            if (*blanking || !content) && blank(layer) {
                return Some(Vec::new());
            }
        }
    }
    let parts = reshapes(doc, path);
    remove(doc, path).then_some(parts)
}

/// Empties a layer's text: its text keys go, and a layer of no other kind gets
/// `text = ""`. False when nothing changed.
fn blank(layer: &mut DeTable<'_>) -> bool {
    let empty = layer
        .get("text")
        .is_some_and(|t| t.get_ref().as_str() == Some(""));
    let others = TEXT.iter().filter(|k| layer.contains_key(**k)).count();
    if empty && others == 1 {
        return false;
    }
    // The empty text stands where the content was: an error about it points there.
    let span = TEXT
        .iter()
        .chain(&["name"])
        .find_map(|k| layer.get(*k).map(Spanned::span))
        .unwrap_or(0..0);
    let removed = TEXT.iter().filter(|k| layer.remove(**k).is_some()).count();
    let kind = KINDS.iter().any(|k| layer.contains_key(*k));
    if !kind {
        let key = Spanned::new(span.clone(), Cow::Borrowed("text"));
        layer.insert(key, Spanned::new(span, DeValue::String(Cow::Borrowed(""))));
    }
    removed > 0 || !kind
}
