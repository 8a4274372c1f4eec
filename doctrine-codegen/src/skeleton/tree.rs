//! The manifest's TOML tree as the repair walks it: paths into it, the entry holding an
//! offset, the table a line is in, and removal.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// One step into a table or an array.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Step {
    Key(String),
    Index(usize),
}

type Value<'i> = Spanned<DeValue<'i>>;

/// The path to the deepest entry (its key or its value) holding each offset in `at`; an
/// offset no entry holds is left out. A table's own span is its header, so every entry
/// is visited, not only those of tables holding the offset.
pub(super) fn deepest(doc: &DeTable<'_>, at: &BTreeSet<usize>) -> BTreeMap<usize, Vec<Step>> {
    let mut found: BTreeMap<usize, Vec<Step>> = BTreeMap::new();
    let mut mark = |path: &[Step], span: Range<usize>| {
        // An empty value (`slot = ` cut short) holds the offset it stands at.
        for &o in at.range(span.start..span.end.max(span.start + 1)) {
            let best = found.entry(o).or_default();
            if path.len() > best.len() {
                *best = path.to_vec();
            }
        }
    };
    visit(doc, &mut Vec::new(), &mut |path, key, value| {
        if let Some(key) = key {
            mark(path, key);
        }
        mark(path, value.span());
    });
    found
}

/// The table a line starting at `offset` of `text` is in: the last table header before
/// it (`[facts.root]`, `[[layer]]`), by its path; empty for the top level.
pub(super) fn section_at(doc: &DeTable<'_>, text: &str, offset: usize) -> Vec<Step> {
    let (mut section, mut last) = (Vec::new(), 0);
    visit(doc, &mut Vec::new(), &mut |path, _, value| {
        let span = value.span();
        let header = text.get(span.clone()).is_some_and(|h| h.starts_with('['));
        let table = matches!(value.get_ref(), DeValue::Table(_));
        if table && header && (last..offset).contains(&span.start) {
            (section, last) = (path.to_vec(), span.start);
        }
    });
    section
}

/// Calls `f` with the path, the key's span (none for an array element) and the value of
/// every entry below `t`.
fn visit(
    t: &DeTable<'_>,
    path: &mut Vec<Step>,
    f: &mut impl FnMut(&[Step], Option<Range<usize>>, &Value<'_>),
) {
    for (key, value) in t {
        path.push(Step::Key(key.get_ref().to_string()));
        f(path, Some(key.span()), value);
        visit_value(value.get_ref(), path, f);
        path.pop();
    }
}

fn visit_value(
    v: &DeValue<'_>,
    path: &mut Vec<Step>,
    f: &mut impl FnMut(&[Step], Option<Range<usize>>, &Value<'_>),
) {
    match v {
        DeValue::Table(t) => visit(t, path, f),
        DeValue::Array(a) => {
            for (i, e) in a.iter().enumerate() {
                path.push(Step::Index(i));
                f(path, None, e);
                visit_value(e.get_ref(), path, f);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Removes the entry at `path`; false when there is none.
pub(super) fn remove(t: &mut DeTable<'_>, path: &[Step]) -> bool {
    match path {
        [Step::Key(k)] => t.remove(k.as_str()).is_some(),
        [Step::Key(k), rest @ ..] => t
            .get_mut(k.as_str())
            .is_some_and(|v| remove_in(v.get_mut(), rest)),
        _ => false,
    }
}

fn remove_in(v: &mut DeValue<'_>, path: &[Step]) -> bool {
    match (v, path) {
        (DeValue::Table(t), _) => remove(t, path),
        (DeValue::Array(a), [Step::Index(i)]) if *i < a.len() => {
            let all = std::mem::replace(a, std::iter::empty().collect());
            let kept = all.into_iter().enumerate().filter(|(j, _)| j != i);
            *a = kept.map(|(_, e)| e).collect();
            true
        }
        (DeValue::Array(a), [Step::Index(i), rest @ ..]) => {
            a.get_mut(*i).is_some_and(|e| remove_in(e.get_mut(), rest))
        }
        _ => false,
    }
}

/// Layer `i`'s table.
pub(super) fn layer<'d, 'i>(doc: &'d DeTable<'i>, i: usize) -> Option<&'d DeTable<'i>> {
    match doc.get("layer")?.get_ref() {
        DeValue::Array(a) => match a.get(i)?.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// Layer `i`'s table, or every layer's (`None`), to change.
pub(super) fn layers_mut<'d, 'i>(
    doc: &'d mut DeTable<'i>,
    i: Option<usize>,
) -> impl Iterator<Item = &'d mut DeTable<'i>> {
    let all = match doc.get_mut("layer").map(Spanned::get_mut) {
        Some(DeValue::Array(a)) => &mut **a,
        _ => &mut [],
    };
    let all = match i {
        Some(i) => all.get_mut(i..=i).unwrap_or_default(),
        None => all,
    };
    all.iter_mut().filter_map(|l| match l.get_mut() {
        DeValue::Table(t) => Some(t),
        _ => None,
    })
}
