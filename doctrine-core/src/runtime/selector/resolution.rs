//! What each selector layer composes from, once the loader (`doctrine-load`) has resolved
//! the caller's selector values: data the builder reads, no file I/O.

use super::doctor::Doctor;
use crate::runtime::layer::{Origin, Skip};

/// What every selector of a manifest resolved to, and the doctor's report of it. Built by
/// the generated `Selectors::resolve`; the builder reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    picked: Vec<Picked>,
    doctor: Doctor,
}

/// One selector's outcome.
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picked {
    /// Off, or degraded: no layer.
    None(Skip),
    Shipped,
    /// A user copy or a file named by path, and where it came from.
    Text(String, Origin),
}

impl Resolution {
    /// Each selector's outcome, in manifest order, and the doctor's report of them (what the
    /// loader's `resolve_selectors` builds).
    #[doc(hidden)]
    pub fn new(picked: Vec<Picked>, doctor: Doctor) -> Self {
        Resolution { picked, doctor }
    }

    /// Each selector's value, resolved source, bypassed legacy copies and refusals.
    pub fn doctor(&self) -> &Doctor {
        &self.doctor
    }
}

/// What a selector layer composes from, for generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selected<'a> {
    /// No layer, for this reason.
    Skip(Skip),
    /// The shipped text.
    Shipped,
    /// This text instead of the shipped one.
    Text(&'a str, Origin),
}

/// Selector `index` (named `name`) of `resolution`: off when nothing was resolved (a
/// composition without `.selection()`), or when the definition being composed opted out.
pub fn selected<'a>(
    resolution: Option<&'a Resolution>,
    index: usize,
    name: &'static str,
    opted_out: bool,
) -> Selected<'a> {
    if opted_out {
        return Selected::Skip(Skip::OptedOut);
    }
    match resolution.and_then(|r| r.picked.get(index)) {
        None => Selected::Skip(Skip::SelectorOff(name)),
        Some(Picked::None(skip)) => Selected::Skip(*skip),
        Some(Picked::Shipped) => Selected::Shipped,
        Some(Picked::Text(text, origin)) => Selected::Text(text, *origin),
    }
}
