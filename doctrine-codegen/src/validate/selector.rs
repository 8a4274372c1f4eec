//! `selector`: a layer whose source a string chosen at run time picks (off, on, a path).
//! Checked per layer (what it may sit on) and across layers (names, `follows`, cycles).

use std::collections::HashMap;

use toml::Spanned;

use super::idents::check_ident;
use super::kind::Kind;
use crate::diag::Sink;
use crate::model::{Layer, Selector};
use crate::raw;

/// The layer's selector, if it has one and may.
pub(super) fn selector(
    raw: &raw::Layer,
    kind: Kind<'_>,
    locked: bool,
    sink: &mut Sink<'_>,
) -> Option<Selector> {
    let s = raw.selector.as_ref()?;
    let layer = raw.name.get_ref();
    let decl = s.get_ref();
    let name = decl.name.get_ref();
    let mut ok = check_ident(
        sink,
        decl.name.span(),
        "selector name",
        name,
        "a field of `Selectors`",
    );
    let mut refuse = |span: std::ops::Range<usize>, message: String, help: &str| {
        sink.error(Some(span), message, Some(help.to_string()));
        ok = false;
    };
    if locked {
        refuse(
            s.span(),
            format!("layer `{layer}` is locked, so no selector may choose its source"),
            "remove `selector`: a locked layer is always the shipped text; or remove `locked = true`",
        );
    }
    if !kind.is_text() {
        refuse(
            s.span(),
            format!(
                "selector `{name}` is on a `{}` layer, which has no shipped text",
                kind.key()
            ),
            "a selector picks between the shipped text, the user's copy and a file: give the \
             layer a `file`, `files`, `text` or `texts`",
        );
    }
    if let Some(o) = raw
        .override_
        .as_ref()
        .filter(|o| *o.get_ref() == raw::Override::Append)
    {
        refuse(
            o.span(),
            format!("selector layer `{layer}` cannot have `override = \"append\"`"),
            "the source a selector picks replaces the shipped text: remove `override` (it is \
             `replace` already)",
        );
    }
    if let Some(f) = &raw.overlay_field {
        refuse(
            f.span(),
            format!("selector layer `{layer}` has no `Overlay` field to name"),
            "remove `overlay_field`; name the user's copy with `overlay_file`",
        );
    }
    if let Some(f) = &decl.follows {
        if f.get_ref() == name {
            refuse(
                f.span(),
                format!("selector `{name}` follows itself"),
                "remove `follows`, or name the selector whose value it takes when unset",
            );
        }
    }
    ok.then(|| Selector {
        name: name.clone(),
        follows: None,
        at: decl.name.span(),
        follows_name: decl
            .follows
            .as_ref()
            .map(|f| (f.get_ref().clone(), f.span())),
    })
}

/// Across layers: one layer per selector name, `follows` naming a declared selector, and
/// no cycle of `follows`. Sets each selector's `follows` index.
pub(super) fn check_selectors(layers: &mut [(Spanned<()>, Layer)], sink: &mut Sink<'_>) {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut declared_by: HashMap<&str, &str> = HashMap::new();
    let mut broken = false;
    for (_, l) in layers.iter() {
        let Some(s) = &l.selector else { continue };
        if let Some(prev) = declared_by.get(s.name.as_str()) {
            sink.error(
                Some(s.at.clone()),
                format!(
                    "selector `{}` is declared by layers `{prev}` and `{}`",
                    s.name, l.name
                ),
                Some("a selector picks one layer's source: give this one its own name, and `follows` to take the other's value when unset".into()),
            );
            broken = true;
            continue;
        }
        declared_by.insert(&s.name, &l.name);
        let n = index.len();
        index.insert(s.name.clone(), n);
    }
    // Each name once, in manifest order (a duplicate was reported above).
    let mut names: Vec<&str> = Vec::new();
    for (_, s) in selectors(layers) {
        if !names.contains(&s.name.as_str()) {
            names.push(s.name.as_str());
        }
    }
    let mut follows: Vec<Option<usize>> = Vec::new();
    for (_, s) in selectors(layers) {
        let target = s.follows_name.as_ref().and_then(|(f, span)| {
            let found = index.get(f).copied();
            if found.is_none() {
                sink.error(
                    Some(span.clone()),
                    format!(
                        "selector `{}` follows `{f}`, which no layer declares",
                        s.name
                    ),
                    Some(format!("declared selectors: {}", names.join(", "))),
                );
                broken = true;
            }
            found
        });
        follows.push(target);
    }
    if broken {
        return;
    }
    // Cycles: walking `follows` from any selector must end within as many steps as there
    // are selectors. Reported once, at the first selector of each cycle.
    let mut reported = vec![false; follows.len()];
    for start in 0..follows.len() {
        let mut path = vec![start];
        let mut at = start;
        while let Some(next) = follows[at] {
            if let Some(pos) = path.iter().position(|&p| p == next) {
                let cycle = &path[pos..];
                if !cycle.iter().any(|&c| reported[c]) && next == start {
                    let shown: Vec<&str> = cycle
                        .iter()
                        .chain(std::iter::once(&next))
                        .map(|&c| names[c])
                        .collect();
                    let span = selectors(layers)
                        .nth(start)
                        .and_then(|(_, s)| s.follows_name.as_ref().map(|(_, sp)| sp.clone()));
                    sink.error(
                        span,
                        format!("selectors follow each other in a cycle: {}", shown.join(" -> ")),
                        Some("remove `follows` from one of them: some selector must go by its own value".into()),
                    );
                    for &c in cycle {
                        reported[c] = true;
                    }
                }
                break;
            }
            path.push(next);
            at = next;
        }
    }
    let mut i = 0;
    for (_, l) in layers.iter_mut() {
        if let Some(s) = &mut l.selector {
            s.follows = follows[i];
            i += 1;
        }
    }
}

/// The layers with a selector, in manifest order: selector `i` is the `i`-th of these.
fn selectors(layers: &[(Spanned<()>, Layer)]) -> impl Iterator<Item = (&Layer, &Selector)> {
    layers
        .iter()
        .filter_map(|(_, l)| l.selector.as_ref().map(|s| (l, s)))
}
