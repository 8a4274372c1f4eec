//! Which parts of the generated module a repair reshapes. Code naming an item that is not
//! there gets no error beside the macro's (rustc leaves paths into a module whose macro
//! failed unresolved in silence), but code naming an item whose shape changed does (a
//! method `compose` no longer has, a variant `Role` no longer has): so a part whose shape
//! a removal changed is left out, with every part that names it.

use toml::de::DeTable;

use super::tree::{layer, Step};
use crate::expand::Part;
use crate::raw;

/// What removing the entry at `path` reshapes: what a declaration or a layer's key gave.
/// Removing a gate, a scope, an order, a budget or a text reshapes nothing; removing a
/// key the reader does not know may reshape whatever it was meant to be.
pub(super) fn reshapes(doc: &DeTable<'_>, path: &[Step]) -> Vec<Part> {
    let key = |i: usize| match path.get(i) {
        Some(Step::Key(k)) => k.as_str(),
        _ => "",
    };
    match (key(0), path) {
        ("layer", [_, Step::Index(i)]) => layer(doc, *i).map_or_else(Vec::new, |l| {
            l.iter().flat_map(|(k, _)| layer_key(k.get_ref())).collect()
        }),
        ("layer", _) => layer_key(key(2)),
        ("roles" | "modes", _) => vec![Part::Roles],
        ("flags", _) => vec![Part::Flags],
        ("knobs", _) => vec![Part::Knobs],
        ("facts", _) => vec![Part::Facts],
        ("reminders", _) => vec![Part::Reminders],
        ("skills", _) => vec![Part::Skills],
        ("extra", _) => vec![Part::Builder],
        (k, _) if !raw::Manifest::KEYS.contains(&k) => DECLARATIONS.to_vec(),
        _ => Vec::new(),
    }
}

/// What a misspelt section may have declared.
const DECLARATIONS: &[Part] = &[
    Part::Roles,
    Part::Flags,
    Part::Knobs,
    Part::Facts,
    Part::Reminders,
    Part::Skills,
];

/// What a layer's key gives the generated module's shape.
fn layer_key(key: &str) -> Vec<Part> {
    match key {
        "slot" | "instructions" | "title" => vec![Part::Builder],
        "dir" | "choice" | "rename" | "optional" => vec![Part::Choices],
        "override" | "overlay_field" | "empty" => vec![Part::Overlay],
        "selector" => vec![Part::Selectors],
        // Misspelt, it may have been any of these.
        k if !raw::Layer::KEYS.contains(&k) => {
            vec![Part::Builder, Part::Choices, Part::Overlay, Part::Selectors]
        }
        _ => Vec::new(),
    }
}
