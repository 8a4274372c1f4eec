//! Top-level declarations: `roles`, `[flags]`, `[knobs.*]`.

use super::super::diag::Sink;
use super::super::model::{Flag, Knob};
use super::super::names::{camel, is_snake_ident, is_variant_name};
use super::super::raw::Manifest;
use super::hint;

pub(super) fn roles(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if raw.roles_span.is_some() && raw.roles.is_empty() {
        sink.error(
            raw.roles_span.clone(),
            "`roles` is empty",
            Some("list at least one role, or remove the key for a single-agent prompt".into()),
        );
    }
    for role in &raw.roles {
        let name = role.get_ref();
        if !is_variant_name(name) {
            sink.error(
                Some(role.span()),
                format!("role `{name}` must start with a letter and hold only letters, digits, `-` and `_`"),
                Some("it becomes a variant of the generated `Role` enum".into()),
            );
        } else if name == "default" {
            sink.error(
                Some(role.span()),
                "`default` cannot be a role: it is the fallback key of per-role maps",
                Some("rename the role".into()),
            );
        } else if out.iter().any(|r| camel(r) == camel(name)) {
            sink.error(
                Some(role.span()),
                format!(
                    "role `{name}` is declared twice (or names the same variant as another role)"
                ),
                Some("remove the duplicate".into()),
            );
        } else {
            out.push(name.clone());
        }
    }
    out
}

pub(super) fn flags(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<Flag> {
    let mut out = Vec::new();
    for (name, default) in &raw.flags {
        if !is_snake_ident(name.get_ref()) {
            sink.error(
                Some(name.span()),
                format!(
                    "flag `{}` is not a lowercase Rust identifier",
                    name.get_ref()
                ),
                Some("it becomes a field of the generated `Flags` struct".into()),
            );
            continue;
        }
        out.push(Flag {
            name: name.get_ref().clone(),
            default: *default,
        });
    }
    out
}

pub(super) fn knobs(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<Knob> {
    let mut out = Vec::new();
    for (name, knob) in &raw.knobs {
        let mut ok = true;
        if !is_snake_ident(name.get_ref()) {
            sink.error(
                Some(name.span()),
                format!(
                    "knob `{}` is not a lowercase Rust identifier",
                    name.get_ref()
                ),
                Some("it becomes a field of the generated `Knobs` struct".into()),
            );
            ok = false;
        }
        let values = knob.values.get_ref();
        if values.is_empty() {
            sink.error(
                Some(knob.values.span()),
                format!("knob `{}` has no values", name.get_ref()),
                Some("list its closed set: `values = [\"lite\", \"full\"]`".into()),
            );
            ok = false;
        }
        let mut names: Vec<String> = Vec::new();
        for v in values {
            if !is_variant_name(v.get_ref()) {
                sink.error(
                    Some(v.span()),
                    format!("knob value `{}` must start with a letter and hold only letters, digits, `-` and `_`", v.get_ref()),
                    Some("it becomes an enum variant".into()),
                );
                ok = false;
            } else if names.iter().any(|n| camel(n) == camel(v.get_ref())) {
                sink.error(
                    Some(v.span()),
                    format!("knob value `{}` is listed twice", v.get_ref()),
                    Some("remove the duplicate".into()),
                );
                ok = false;
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
            ok = false;
        }
        if ok {
            out.push(Knob {
                name: name.get_ref().clone(),
                enum_name: camel(name.get_ref()),
                values: names,
                default: default.unwrap_or(0),
            });
        }
    }
    out
}
