//! Top-level declarations: `roles`, `[flags]`, `[knobs.*]`.

use std::collections::{HashMap, HashSet};

use super::hint::hint;
use super::idents::{check_ident, check_variant};
use crate::diag::Sink;
use crate::model::{Flag, Knob};
use crate::names::{camel, is_variant_name, screaming};
use crate::raw::Manifest;

pub(super) fn roles(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let declared = &raw.roles;
    if declared.span.is_some() && declared.names.is_empty() && !sink.reported().roles {
        sink.error(
            declared.span.clone(),
            "`roles` is empty",
            Some("list at least one role, or remove the key for a single-agent prompt".into()),
        );
    }
    // The variants and constant stems taken so far: sets, not a scan of the roles per role,
    // which grew with the square of their number (67 s at 10,000).
    let (mut variants, mut stems) = (HashSet::new(), HashSet::new());
    for role in &declared.names {
        let name = role.get_ref();
        // A misnamed role is still kept, so its uses are not reported as unknown too.
        let kept = if !is_variant_name(name) {
            sink.error(
                Some(role.span()),
                format!("role `{name}` must start with a letter and hold only letters, digits, `-` and `_`, and not be a keyword"),
                Some("it becomes a variant of the generated `Role` enum".into()),
            );
            true
        } else if !check_variant(sink, role.span(), &format!("role `{name}`"), &camel(name)) {
            true
        } else if name == "default" {
            sink.error(
                Some(role.span()),
                "`default` cannot be a role: it is the fallback key of per-role maps",
                Some("rename the role".into()),
            );
            false
        } else if variants.contains(&camel(name)) || stems.contains(&screaming(name)) {
            sink.error(
                Some(role.span()),
                format!(
                    "role `{name}` is declared twice (or names the same variant as another role)"
                ),
                Some("remove the duplicate".into()),
            );
            false
        } else {
            true
        };
        if kept {
            variants.insert(camel(name));
            stems.insert(screaming(name));
            out.push(name.clone());
        }
    }
    out
}

pub(super) fn flags(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<Flag> {
    let mut out: Vec<Flag> = Vec::new();
    // Each `Flag` variant and the flag that took it: a map, not a scan of the flags per
    // flag, which grew with the square of their number (18 s at 4,000).
    let mut variants: HashMap<String, usize> = HashMap::new();
    for (name, default) in &raw.flags {
        // Kept even when misnamed, so layers gated on it are not reported as well.
        check_ident(
            sink,
            name.span(),
            "flag",
            name.get_ref(),
            "a field of `Flags`",
        );
        if let Some(other) = variants.get(&camel(name.get_ref())).map(|&i| &out[i]) {
            sink.error(
                Some(name.span()),
                format!(
                    "flags `{}` and `{}` name the same `Flag` variant `{}`",
                    other.name,
                    name.get_ref(),
                    camel(name.get_ref())
                ),
                Some("rename one of them".into()),
            );
        }
        variants.entry(camel(name.get_ref())).or_insert(out.len());
        out.push(Flag {
            name: name.get_ref().clone(),
            default: *default,
            tier: 0,
        });
    }
    out
}

pub(super) fn knobs(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<Knob> {
    let mut out = Vec::new();
    for (name, knob) in &raw.knobs {
        check_ident(
            sink,
            name.span(),
            "knob",
            name.get_ref(),
            "a field of `Knobs`",
        );
        let values = &knob.values.get_ref().names;
        if values.is_empty() {
            sink.error(
                Some(knob.values.span()),
                format!("knob `{}` has no values", name.get_ref()),
                Some("list its closed set: `values = [\"lite\", \"full\"]`".into()),
            );
        }
        let mut names: Vec<String> = Vec::new();
        for v in values {
            if !is_variant_name(v.get_ref()) {
                sink.error(
                    Some(v.span()),
                    format!("knob value `{}` must start with a letter and hold only letters, digits, `-` and `_`", v.get_ref()),
                    Some("it becomes an enum variant".into()),
                );
            } else if !check_variant(
                sink,
                v.span(),
                &format!("knob value `{}`", v.get_ref()),
                &camel(v.get_ref()),
            ) {
            } else if names.iter().any(|n| camel(n) == camel(v.get_ref())) {
                sink.error(
                    Some(v.span()),
                    format!("knob value `{}` is listed twice", v.get_ref()),
                    Some("remove the duplicate".into()),
                );
            } else {
                names.push(v.get_ref().clone());
            }
        }
        let default = names.iter().position(|v| v == knob.default.get_ref());
        if default.is_none() && !names.is_empty() {
            sink.error(
                Some(knob.default.span()),
                format!(
                    "default `{}` of knob `{}` is not among its values",
                    knob.default.get_ref(),
                    name.get_ref()
                ),
                Some(hint(
                    knob.default.get_ref(),
                    names.iter().map(String::as_str),
                    "values",
                )),
            );
        }
        // Kept even with errors (which stop code generation anyway), so placeholders
        // naming it are not reported as well.
        // Each kept value's text, when `values` is a table.
        let texts = knob.values.get_ref().texts.as_ref().map(|texts| {
            names
                .iter()
                .map(|n| {
                    let i = values.iter().position(|v| v.get_ref() == n).unwrap_or(0);
                    crate::text::normalise(texts[i].get_ref())
                })
                .collect()
        });
        out.push(Knob {
            name: name.get_ref().clone(),
            enum_name: camel(name.get_ref()),
            values: names,
            default: default.unwrap_or(0),
            texts,
            tier: 0,
        });
    }
    out
}
