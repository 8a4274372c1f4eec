//! `&'static` data for a plan built at run time. The runtime's plan types borrow for
//! `'static` because compiled code holds its plan in a `static`, and the parts, sections
//! and origins a composition returns borrow from it for `'static` too: a lifetime on the
//! plan types would run through `Part`, `Section`, `LayerInfo`, `Origin` and `Skip`, all
//! public, so a plan built at run time is leaked instead. A tool loads a manifest once or
//! a few times; the code generator builds one plan per expansion, in a long-lived process
//! too (an editor's macro server), so strings, the bulk of a plan, are interned: building
//! the same manifest again leaks only the few small slices that hold them.

use std::collections::BTreeSet;
use std::sync::{Mutex, PoisonError};

static STRINGS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// `s` for `'static`, one allocation per distinct text in the process.
pub(super) fn text(s: &str) -> &'static str {
    let mut strings = STRINGS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&kept) = strings.get(s) {
        return kept;
    }
    let kept: &'static str = Box::leak(Box::from(s));
    strings.insert(kept);
    kept
}

/// The items for `'static` (no allocation when there are none).
pub(super) fn slice<T>(items: Vec<T>) -> &'static [T] {
    items.leak()
}

/// One value for `'static`.
pub(super) fn one<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}
