//! `override`, `overlay_field`, `overlay_file`: what a user's overlay directory may change.

use std::collections::{HashMap, HashSet};

use toml::Spanned;

use super::idents::check_ident;
use super::literal::DEFAULT_JOIN;
use crate::diag::Sink;
use crate::load::Loader;
use crate::model::{Layer, Overlay, OverlayTemplate, Override};
use crate::raw;
use doctrine_load::__private::Dialect;

/// The layer's overlay: `override` and the keys that go with it, or (a selector layer)
/// the user copy its selector reads. `None` without one, or when it is refused (reported).
pub(super) fn overlay(
    raw: &raw::Layer,
    locked: bool,
    is_slot: bool,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Overlay> {
    let name = raw.name.get_ref();
    if let (true, Some(f)) = (locked, &raw.overlay_file) {
        sink.error(
            Some(f.span()),
            format!("layer `{name}` is locked, so no overlay file may map to it"),
            Some(
                "remove `overlay_file`: a locked layer is never read from the user's directory"
                    .into(),
            ),
        );
    }
    // A selector layer is overridable by its selector: `override = "replace"` is implied
    // (and anything else is the selector check's to report).
    let implied = match (&raw.override_, &raw.selector) {
        (None, Some(_)) if locked || is_slot => return None,
        (None, Some(s)) => Some(Spanned::new(s.span(), raw::Override::Replace)),
        _ => None,
    };
    let Some(o) = raw.override_.as_ref().or(implied.as_ref()) else {
        without_override(raw, locked, sink);
        return None;
    };
    let template = template(raw, o, sink);
    if refused(raw, o, locked, is_slot, sink) {
        return None;
    }
    let field = raw
        .overlay_field
        .as_ref()
        .map_or_else(|| name.clone(), |f| f.get_ref().clone());
    let span = raw
        .overlay_field
        .as_ref()
        .map_or(raw.name.span(), Spanned::span);
    check_ident(sink, span, "overlay field", &field, "a field of `Overlay`");
    let file = file(raw, &field, sink);
    let cap = cap(raw, sink)?;
    let ignore = raw
        .overlay_ignore
        .iter()
        .flatten()
        .filter_map(|path| loader.digest(path, sink))
        .collect();
    Some(Overlay {
        cap,
        refuse_oversize: raw
            .oversize
            .as_ref()
            .is_some_and(|o| *o.get_ref() == raw::Oversize::Refuse),
        ignore,
        empty_off: raw
            .empty
            .as_ref()
            .is_some_and(|e| *e.get_ref() == raw::EmptyOverlay::Off),
        field,
        file,
        mode: match o.get_ref() {
            raw::Override::Replace => Override::Replace,
            raw::Override::Append => Override::Append,
        },
        separator: raw.overlay_separator.as_ref().map_or_else(
            || DEFAULT_JOIN.to_string(),
            |s| crate::text::normalise(s.get_ref()),
        ),
        template,
    })
}

/// `overlay_interpolate = true`: the user's file read as a template, in the layer's
/// syntax. A replacing overlay only: an appended one would print the layer's own text
/// around the user's values, which the user's file cannot see.
fn template(
    raw: &raw::Layer,
    o: &Spanned<raw::Override>,
    sink: &mut Sink<'_>,
) -> Option<OverlayTemplate> {
    let on = raw.overlay_interpolate.as_ref().filter(|i| *i.get_ref())?;
    let name = raw.name.get_ref();
    if raw.selector.is_some() {
        sink.error(
            Some(on.span()),
            format!("layer `{name}` has a selector, whose files are read as they are"),
            Some("remove `overlay_interpolate`: a selector's copy and the files it names are whole texts".into()),
        );
        return None;
    }
    if *o.get_ref() == raw::Override::Append {
        sink.error(
            Some(on.span()),
            format!("layer `{name}` appends its overlay, and `overlay_interpolate` reads a replacing one"),
            Some("use `override = \"replace\"` (the user's template then holds the whole text, the shipped one its default), or remove `overlay_interpolate`".into()),
        );
        return None;
    }
    Some(OverlayTemplate {
        dialect: match raw.placeholders.as_ref().map(|p| *p.get_ref()) {
            None | Some(raw::Placeholders::Braces) => Dialect::Braces,
            Some(raw::Placeholders::Mustache) => Dialect::Mustache,
            Some(raw::Placeholders::Handlebars) => Dialect::Handlebars,
        },
        jinja: raw
            .whitespace
            .as_ref()
            .is_some_and(|w| *w.get_ref() == raw::Whitespace::Jinja),
    })
}

/// The overlay keys of a layer without `override`, each an error (`overlay_file` on a
/// locked layer is reported as such already).
fn without_override(raw: &raw::Layer, locked: bool, sink: &mut Sink<'_>) {
    let ignore = raw.overlay_ignore.as_ref().and_then(|i| i.first());
    for (key, span) in [
        (
            "overlay_field",
            raw.overlay_field.as_ref().map(Spanned::span),
        ),
        ("overlay_file", raw.overlay_file.as_ref().map(Spanned::span)),
        (
            "overlay_separator",
            raw.overlay_separator.as_ref().map(Spanned::span),
        ),
        ("overlay_cap", raw.overlay_cap.as_ref().map(Spanned::span)),
        ("empty", raw.empty.as_ref().map(Spanned::span)),
        ("oversize", raw.oversize.as_ref().map(Spanned::span)),
        ("overlay_ignore", ignore.map(Spanned::span)),
        (
            "overlay_interpolate",
            raw.overlay_interpolate.as_ref().map(Spanned::span),
        ),
    ] {
        if let (Some(at), true, "overlay_interpolate") = (&span, locked, key) {
            sink.error(
                Some(at.clone()),
                format!("layer `{}` is locked: no user file reaches it, so none can be a template", raw.name.get_ref()),
                Some("remove `overlay_interpolate`; a layer users may change needs `override = \"replace\"` and no `locked`".into()),
            );
            continue;
        }
        if let (Some(span), false) = (span, locked && key == "overlay_file") {
            sink.error(
                Some(span),
                format!("`{key}` without `override`"),
                Some(match key {
                    "overlay_interpolate" => "add `override = \"replace\"` (a user's template replaces the shipped text), or remove `overlay_interpolate`".to_string(),
                    _ => format!("add `override = \"replace\"` or `\"append\"`, or remove `{key}`"),
                }),
            );
        }
    }
}

/// Whether `override` is refused: on a locked layer or a slot. Also reports an
/// `overlay_separator` a `replace` overlay does not use.
fn refused(
    raw: &raw::Layer,
    o: &Spanned<raw::Override>,
    locked: bool,
    is_slot: bool,
    sink: &mut Sink<'_>,
) -> bool {
    let name = raw.name.get_ref();
    if locked {
        sink.error(
            Some(o.span()),
            format!("layer `{name}` is locked, so it cannot have an `override`"),
            Some("a locked layer has no overlay field by design: remove `override`, or remove `locked = true` if users may really change it".into()),
        );
        return true;
    }
    if is_slot {
        sink.error(
            Some(o.span()),
            format!("slot layer `{name}` cannot have an `override`"),
            Some("the caller already supplies a slot's text; remove `override`".into()),
        );
        return true;
    }
    if let (Some(sep), raw::Override::Replace) = (&raw.overlay_separator, o.get_ref()) {
        sink.error(
            Some(sep.span()),
            format!("layer `{name}` sets `overlay_separator`, but a `replace` overlay has nothing to separate"),
            Some("remove `overlay_separator`, or use `override = \"append\"`".into()),
        );
    }
    false
}

/// `overlay_file` (default `<field>.md`): a plain file name without control characters.
fn file(raw: &raw::Layer, field: &str, sink: &mut Sink<'_>) -> String {
    let Some(f) = &raw.overlay_file else {
        return format!("{field}.md");
    };
    let file = f.get_ref().clone();
    let plain = !file.is_empty() && !file.starts_with('.') && !file.contains(['/', '\\']);
    if file.chars().any(char::is_control) {
        sink.error(
            Some(f.span()),
            format!(
                "overlay file `{}` holds a control character",
                file.escape_debug()
            ),
            Some("name the file with printable characters only, e.g. `identity.md`".into()),
        );
    } else if !plain {
        sink.error(
            Some(f.span()),
            format!("overlay file `{file}` is not a plain file name"),
            Some("name one file directly in the overlay directory, e.g. `identity.md`".into()),
        );
    }
    file
}

/// `overlay_cap`, or the default cap (a selector's is larger); `None` for a cap of 0.
fn cap(raw: &raw::Layer, sink: &mut Sink<'_>) -> Option<usize> {
    match &raw.overlay_cap {
        Some(c) if *c.get_ref() == 0 => {
            sink.error(
                Some(c.span()),
                "`overlay_cap = 0` would ignore every overlay file",
                Some(
                    "give a cap in bytes, e.g. `overlay_cap = 65536`, or remove `override`".into(),
                ),
            );
            None
        }
        Some(c) => Some(*c.get_ref()),
        None if raw.selector.is_some() => Some(doctrine_load::limits::MAX_SELECTOR_BYTES),
        None => Some(doctrine_load::limits::MAX_OVERLAY_BYTES),
    }
}

/// `Overlay` gets a field per overlay field, and `<field>_off` for each `empty = "off"`
/// layer: one namespace, each name taken once (in `taken`), reported at `span`.
pub(super) fn claim_fields(
    o: &Overlay,
    span: std::ops::Range<usize>,
    taken: &mut HashSet<String>,
    sink: &mut Sink<'_>,
) {
    let mut names = vec![(o.field.clone(), None)];
    if o.empty_off {
        names.push((format!("{}_off", o.field), Some(&o.field)));
    }
    for (field, off_of) in names {
        if taken.insert(field.clone()) {
            continue;
        }
        let message = match off_of {
            Some(of) => format!("`empty = \"off\"` on overlay field `{of}` makes a field `{field}`, and another layer's overlay field has that name"),
            None => format!("overlay field `{field}` is used by two layers (or is another layer's `_off` field)"),
        };
        sink.error(
            Some(span.clone()),
            message,
            Some("give this layer a distinct `overlay_field`".into()),
        );
    }
}

/// The ceiling of `Overlay::load_with_cap`: `overlay_cap_max`, which must leave every
/// overridable layer its own `overlay_cap`; without it, the smallest `overlay_cap`, so a
/// caller's cap can lower every file's and raise none. `None` without an `Overlay` field.
pub(super) fn cap_max(
    raw: &raw::Manifest,
    layers: &[(Spanned<()>, Layer)],
    sink: &mut Sink<'_>,
) -> Option<usize> {
    // Selector layers have a user copy, not an `Overlay` field.
    let caps = layers
        .iter()
        .filter(|(_, l)| l.selector.is_none())
        .filter_map(|(_, l)| l.overlay.as_ref().map(|o| (l.name.as_str(), o.cap)));
    match &raw.overlay_cap_max {
        None => caps.map(|(_, cap)| cap).min(),
        Some(max) => declared_cap_max(max, caps.max_by_key(|(_, cap)| *cap), sink),
    }
}

/// `overlay_cap_max`, unless no layer has an overlay file to cap or `largest` (a layer's
/// name and its `overlay_cap`) is over it.
fn declared_cap_max(
    max: &Spanned<usize>,
    largest: Option<(&str, usize)>,
    sink: &mut Sink<'_>,
) -> Option<usize> {
    let (ceiling, at) = (*max.get_ref(), Some(max.span()));
    match largest {
        None => {
            let help =
                "give a layer `override = \"replace\"` or `\"append\"`, or remove `overlay_cap_max`";
            sink.error(
                at,
                "`overlay_cap_max` caps overlay files, and no layer has one",
                Some(help.into()),
            );
            None
        }
        Some((layer, cap)) if ceiling < cap => {
            sink.error(
                at,
                format!("`overlay_cap_max = {ceiling}` is below layer `{layer}`'s own `overlay_cap` of {cap} bytes"),
                Some(format!("raise it to at least {cap}, or lower that layer's `overlay_cap`: a caller's cap may be any size up to the ceiling")),
            );
            None
        }
        Some(_) => Some(ceiling),
    }
}

/// Overlay file names: one per overridable layer, and none that reads as another layer's.
/// Names are compared as a person or a case-insensitive file system reads them
/// ([`crate::names::fold`]): `Safety.md` and `safety\u{200b}.md` read as `safety.md`.
pub(super) fn check_files(layers: &[(Spanned<()>, Layer)], sink: &mut Sink<'_>) {
    let mut seen: HashMap<String, &str> = HashMap::new();
    let span_of = |l: &Layer| Some(l.at.overlay_file.clone().unwrap_or(l.at.name.clone()));
    // Layers by folded name, and locked layers by name, looked up once per overlay file
    // (a scan of every layer per file grew with the square of the layers: 17 s at 4,000).
    let mut by_fold: HashMap<String, Vec<&Layer>> = HashMap::new();
    for (_, other) in layers {
        by_fold
            .entry(crate::names::fold(&other.name))
            .or_default()
            .push(other);
    }
    let locked: HashMap<&str, &Layer> = layers
        .iter()
        .filter(|(_, l)| l.locked)
        .map(|(_, l)| (l.name.as_str(), l))
        .collect();
    for (_, l) in layers {
        let Some(o) = &l.overlay else { continue };
        let folded = crate::names::fold(&o.file);
        if let Some(prev) = seen.insert(folded.clone(), &l.name) {
            sink.error(
                span_of(l),
                format!(
                    "layers `{prev}` and `{}` both read overlay file `{}` (names are compared ignoring case and invisible characters)",
                    l.name, o.file
                ),
                Some("give each overridable layer its own `overlay_file`".into()),
            );
        }
        // A file or field that reads as another layer's would be taken to override it.
        let stem = folded.strip_suffix(".md").unwrap_or(&folded);
        let mut named_after = by_fold.get(stem).into_iter().flatten();
        if let Some(other) = named_after.find(|other| other.name != l.name) {
            let what = if other.locked {
                "locked layer"
            } else {
                "layer"
            };
            sink.error(
                span_of(l),
                format!("overlay file `{}` of layer `{}` is named after {what} `{}`", o.file.escape_debug(), l.name, other.name),
                Some(format!("a user would take that file to override `{}`; name it after the layer it overrides", other.name)),
            );
        }
        if let Some(locked) = locked.get(o.field.as_str()) {
            sink.error(
                span_of(l),
                format!("overlay field `{}` of layer `{}` has the name of locked layer `{}`", o.field, l.name, locked.name),
                Some("`Overlay` must have no field that reads as a locked layer; set another `overlay_field`".into()),
            );
        }
    }
}
