//! One `[[layer]]` table → [`Layer`]: scope, gate, shape, content, overlay, suffix, tier.

use toml::Spanned;

use crate::Tier;

use super::super::diag::Sink;
use super::super::load::{Loader, Shape};
use super::super::model::{Content, Layer, Overlay};
use super::super::raw;
use super::{check_ident, content, facts, hint, suffix, Names, BUILDER_METHODS, DEFAULT_JOIN};

pub(super) fn validate_layer(
    raw: &raw::Layer,
    names: &Names<'_>,
    trim_default: bool,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Layer> {
    let before = sink.found.len();
    let name = raw.name.get_ref().clone();

    let scope = match &raw.roles {
        Some(list) if list.get_ref().is_empty() => {
            sink.error(
                Some(list.span()),
                format!("layer `{name}` is scoped to no roles"),
                Some("list the roles it applies to, or remove `roles` to apply it to all".into()),
            );
            None
        }
        Some(list) => names.roles(list.get_ref(), sink),
        None => None,
    };
    let role_count = names.roles.len().max(1);
    let in_scope: Vec<usize> = (0..role_count)
        .filter(|r| scope.as_ref().is_none_or(|s| s.contains(r)))
        .collect();

    let gate = raw.when.as_ref().and_then(|flag| {
        let found = names.flags.iter().position(|f| &f.name == flag.get_ref());
        if found.is_none() {
            sink.error(
                Some(flag.span()),
                format!(
                    "layer `{name}` is gated on undeclared flag `{}`",
                    flag.get_ref()
                ),
                Some(match names.flags.is_empty() {
                    true => format!("declare it: `[flags]` then `{} = false`", flag.get_ref()),
                    false => hint(
                        flag.get_ref(),
                        names.flags.iter().map(|f| f.name.as_str()),
                        "declared flags",
                    ),
                }),
            );
        }
        found
    });

    let shape = Shape {
        strip_frontmatter: raw
            .frontmatter
            .as_ref()
            .is_some_and(|f| *f.get_ref() == raw::Frontmatter::Strip),
        trim: raw.trim.unwrap_or(trim_default),
        interpolate: raw.interpolate.as_ref().is_some_and(|i| *i.get_ref()),
    };
    let fact_gate = facts::gate(raw, names, sink);

    let given: Vec<&str> = [
        raw.file.as_ref().map(|_| "file"),
        raw.files.as_ref().map(|_| "files"),
        raw.text.as_ref().map(|_| "text"),
        raw.texts.as_ref().map(|_| "texts"),
        raw.dir.as_ref().map(|_| "dir"),
        raw.slot.as_ref().map(|_| "slot"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if given.len() != 1 {
        sink.error(
            Some(raw.name.span()),
            match given.len() {
                0 => format!("layer `{name}` has no content"),
                _ => format!(
                    "layer `{name}` has more than one content key: {}",
                    given.join(", ")
                ),
            },
            Some("give exactly one of `file`, `files`, `text`, `texts`, `dir` or `slot`".into()),
        );
        return None;
    }
    let not_for = |sink: &mut Sink<'_>, key: &str, span: std::ops::Range<usize>| {
        sink.error(
            Some(span),
            format!("`{key}` does not apply to a `{}` layer", given[0]),
            Some(format!("remove `{key}` from layer `{name}`")),
        );
    };
    if given[0] != "dir" {
        if let Some(c) = &raw.choice {
            not_for(sink, "choice", c.span());
        }
        if let Some(o) = &raw.optional {
            not_for(sink, "optional", o.span());
        }
    }
    if matches!(given[0], "text" | "texts" | "slot") {
        if let Some(f) = &raw.frontmatter {
            not_for(sink, "frontmatter", f.span());
        }
    }

    if given[0] == "slot" && BUILDER_METHODS.contains(&name.as_str()) {
        sink.error(
            Some(raw.name.span()),
            format!("slot layer `{name}` would clash with the builder's own `.{name}()` method"),
            Some(format!(
                "rename the layer; these names are taken: {}",
                BUILDER_METHODS.join(", ")
            )),
        );
    }
    if given[0] == "dir" && name == "role" && !names.roles.is_empty() {
        sink.error(
            Some(raw.name.span()),
            "a `dir` layer named `role` would clash with the role parameter of `compose`",
            Some("rename the layer, e.g. `persona`".into()),
        );
    }
    let content = content::resolve(raw, &given, names, &in_scope, shape, loader, sink)?;

    let locked = raw.locked.as_ref().is_some_and(|l| *l.get_ref());
    let overlay = match (&raw.override_, locked) {
        (Some(o), true) => {
            sink.error(
                Some(o.span()),
                format!("layer `{name}` is locked, so it cannot have an `override`"),
                Some("a locked layer has no overlay field by design: remove `override`, or remove `locked = true` if users may really change it".into()),
            );
            None
        }
        (Some(o), false) if matches!(content, Content::Slot { .. }) => {
            sink.error(
                Some(o.span()),
                format!("slot layer `{name}` cannot have an `override`"),
                Some("the caller already supplies a slot's text; remove `override`".into()),
            );
            None
        }
        (Some(o), false) => {
            let field = raw
                .overlay_field
                .as_ref()
                .map(|f| f.get_ref().clone())
                .unwrap_or_else(|| name.clone());
            let span = raw
                .overlay_field
                .as_ref()
                .map(Spanned::span)
                .unwrap_or(raw.name.span());
            check_ident(sink, span, "overlay field", &field, "a field of `Overlay`");
            Some(Overlay {
                field,
                mode: *o.get_ref(),
                separator: raw
                    .overlay_separator
                    .clone()
                    .unwrap_or_else(|| DEFAULT_JOIN.to_string()),
            })
        }
        (None, _) => {
            if let Some(f) = &raw.overlay_field {
                sink.error(
                    Some(f.span()),
                    "`overlay_field` without `override`",
                    Some(
                        "add `override = \"replace\"` or `\"append\"`, or remove `overlay_field`"
                            .into(),
                    ),
                );
            }
            None
        }
    };

    let suffix = raw.suffix.as_ref().and_then(|s| {
        if !matches!(content, Content::PerRole(_)) {
            not_for(sink, "suffix", s.span());
            return None;
        }
        suffix::suffix(s.get_ref(), names, &in_scope, sink)
    });

    let tier = match raw.tier.as_ref().map(Spanned::get_ref) {
        Some(raw::Tier::Volatile) => Tier::Volatile,
        _ => Tier::Stable,
    };
    let layer = Layer {
        name,
        tier,
        gate,
        fact_gate,
        scope,
        content,
        locked,
        overlay,
        suffix,
    };
    facts::check_layer(raw, &layer, names, loader, sink);
    if sink.found.len() > before {
        return None;
    }
    Some(layer)
}
