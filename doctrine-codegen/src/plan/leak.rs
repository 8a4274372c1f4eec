//! `&'static` data for a plan built at run time. The runtime's plan types borrow for
//! `'static` because compiled code holds its plan in a `static`, and the parts, sections
//! and origins a composition returns borrow from it for `'static` too: a lifetime on the
//! plan types would run through `Part`, `Section`, `LayerInfo`, `Origin` and `Skip`, all
//! public, so a plan built at run time is leaked instead.
//!
//! Everything leaked is interned by value, once per process: the code generator builds a
//! plan per expansion, in long-lived processes too (an editor's macro server, a
//! benchmark), and leaking each build anew grew memory without bound and fragmented the
//! heap (measured: generation twice as slow after a few hundred builds). Building a
//! manifest again now leaks nothing; an edited one, only what changed.

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};

/// Per type, the slices kept so far (a `HashSet<&'static [T]>` under `T`'s id).
type Kept = HashMap<TypeId, Box<dyn Any + Send>>;

static KEPT: Mutex<Option<Kept>> = Mutex::new(None);
static STRINGS: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

/// `s` for `'static`: one allocation per distinct text in the process.
pub(super) fn text(s: &str) -> &'static str {
    let mut strings = STRINGS.lock().unwrap_or_else(PoisonError::into_inner);
    let strings = strings.get_or_insert_with(HashSet::new);
    if let Some(&kept) = strings.get(s) {
        return kept;
    }
    let kept: &'static str = Box::leak(Box::from(s));
    strings.insert(kept);
    kept
}

/// The items for `'static`: one allocation per distinct slice in the process, none for
/// no items.
pub(super) fn slice<T: Hash + Eq + Send + Sync + 'static>(items: Vec<T>) -> &'static [T] {
    if items.is_empty() {
        return &[];
    }
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    let set = kept
        .get_or_insert_with(HashMap::new)
        .entry(TypeId::of::<T>())
        .or_insert_with(|| Box::new(HashSet::<&'static [T]>::new()))
        .downcast_mut::<HashSet<&'static [T]>>();
    // Each type's set is made under its own id, so the downcast holds.
    let Some(set) = set else {
        return items.leak();
    };
    if let Some(&kept) = set.get(items.as_slice()) {
        return kept;
    }
    let kept: &'static [T] = items.leak();
    set.insert(kept);
    kept
}

/// One value for `'static`, interned as [`slice`] interns.
pub(super) fn one<T: Hash + Eq + Send + Sync + 'static>(value: T) -> &'static T {
    &slice(vec![value])[0]
}
