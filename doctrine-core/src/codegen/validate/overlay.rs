//! `override`, `overlay_field`, `overlay_file`: what a user's overlay directory may change.

use toml::Spanned;

use super::{check_ident, DEFAULT_JOIN};
use crate::codegen::diag::Sink;
use crate::codegen::load::Loader;
use crate::codegen::model::{Overlay, Override};
use crate::codegen::raw;

pub(super) fn overlay(
    raw: &raw::Layer,
    locked: bool,
    is_slot: bool,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Overlay> {
    let name = raw.name.get_ref();
    if locked {
        if let Some(f) = &raw.overlay_file {
            sink.error(
                Some(f.span()),
                format!("layer `{name}` is locked, so no overlay file may map to it"),
                Some(
                    "remove `overlay_file`: a locked layer is never read from the user's directory"
                        .into(),
                ),
            );
        }
    }
    // A selector layer is overridable by its selector: `override = "replace"` is implied
    // (and anything else is the selector check's to report).
    let implied = match (&raw.override_, &raw.selector) {
        (None, Some(_)) if locked || is_slot => return None,
        (None, Some(s)) => Some(Spanned::new(s.span(), raw::Override::Replace)),
        _ => None,
    };
    let Some(o) = raw.override_.as_ref().or(implied.as_ref()) else {
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
            (
                "overlay_ignore",
                raw.overlay_ignore
                    .as_ref()
                    .and_then(|i| i.first())
                    .map(Spanned::span),
            ),
        ] {
            if let (Some(span), false) = (span, locked && key == "overlay_file") {
                sink.error(
                    Some(span),
                    format!("`{key}` without `override`"),
                    Some(format!(
                        "add `override = \"replace\"` or `\"append\"`, or remove `{key}`"
                    )),
                );
            }
        }
        return None;
    };
    if locked {
        sink.error(
            Some(o.span()),
            format!("layer `{name}` is locked, so it cannot have an `override`"),
            Some("a locked layer has no overlay field by design: remove `override`, or remove `locked = true` if users may really change it".into()),
        );
        return None;
    }
    if is_slot {
        sink.error(
            Some(o.span()),
            format!("slot layer `{name}` cannot have an `override`"),
            Some("the caller already supplies a slot's text; remove `override`".into()),
        );
        return None;
    }
    if let (Some(sep), raw::Override::Replace) = (&raw.overlay_separator, o.get_ref()) {
        sink.error(
            Some(sep.span()),
            format!("layer `{name}` sets `overlay_separator`, but a `replace` overlay has nothing to separate"),
            Some("remove `overlay_separator`, or use `override = \"append\"`".into()),
        );
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
    let file = raw
        .overlay_file
        .as_ref()
        .map_or_else(|| format!("{field}.md"), |f| f.get_ref().clone());
    if let Some(f) = &raw.overlay_file {
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
    }
    let cap = match &raw.overlay_cap {
        Some(c) if *c.get_ref() == 0 => {
            sink.error(
                Some(c.span()),
                "`overlay_cap = 0` would ignore every overlay file",
                Some(
                    "give a cap in bytes, e.g. `overlay_cap = 65536`, or remove `override`".into(),
                ),
            );
            return None;
        }
        Some(c) => *c.get_ref(),
        None if raw.selector.is_some() => crate::runtime::selector::SELECTOR_MAX_BYTES,
        None => crate::runtime::overlay::DEFAULT_MAX_BYTES,
    };
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
            |s| crate::codegen::text::normalise(s.get_ref()),
        ),
    })
}

/// The ceiling of `Overlay::load_with_cap`: `overlay_cap_max`, which must leave every
/// overridable layer its own `overlay_cap`; without it, the smallest `overlay_cap`, so a
/// caller's cap can lower every file's and raise none. `None` without an `Overlay` field.
pub(super) fn cap_max(
    raw: &raw::Manifest,
    layers: &[(Spanned<()>, crate::codegen::model::Layer)],
    sink: &mut Sink<'_>,
) -> Option<usize> {
    // Selector layers have a user copy, not an `Overlay` field.
    let caps = layers
        .iter()
        .filter(|(_, l)| l.selector.is_none())
        .filter_map(|(_, l)| Some((l.name.as_str(), l.overlay.as_ref()?.cap)));
    let largest = caps.clone().max_by_key(|(_, cap)| *cap);
    let Some(max) = &raw.overlay_cap_max else {
        return caps.map(|(_, cap)| cap).min();
    };
    let (ceiling, at) = (*max.get_ref(), Some(max.span()));
    let Some((layer, cap)) = largest else {
        let help =
            "give a layer `override = \"replace\"` or `\"append\"`, or remove `overlay_cap_max`";
        sink.error(
            at,
            "`overlay_cap_max` caps overlay files, and no layer has one",
            Some(help.into()),
        );
        return None;
    };
    if ceiling < cap {
        sink.error(
            at,
            format!("`overlay_cap_max = {ceiling}` is below layer `{layer}`'s own `overlay_cap` of {cap} bytes"),
            Some(format!("raise it to at least {cap}, or lower that layer's `overlay_cap`: a caller's cap may be any size up to the ceiling")),
        );
        return None;
    }
    Some(ceiling)
}
