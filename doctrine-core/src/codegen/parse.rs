//! TOML → [`raw::Manifest`], reporting every syntax error, every unknown key and the
//! first type error of each section, all with spans.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::de::FromToml;
use super::diag::Sink;
use super::names::closest;
use super::raw::{self, Manifest};
use crate::frontmatter::toml_depth::{too_deep, MAX_DEPTH};

pub(super) fn parse(source: &str, sink: &mut Sink<'_>) -> Option<Manifest> {
    // Before the tree is built: deep enough nesting overflows the stack (see `toml_depth`).
    if let Some(span) = too_deep(source) {
        sink.error(
            Some(span),
            format!("the manifest nests deeper than {MAX_DEPTH} levels (arrays, inline tables, dotted key parts)"),
            Some("no manifest key takes values nested more than a few levels: remove the nesting".into()),
        );
        return None;
    }
    let (doc, errors) = DeTable::parse_recoverable(source);
    // Only the earliest syntax error: the parser recovers, but what it reports after the
    // first is mostly the same mistake seen again further on.
    if let Some(e) = errors
        .iter()
        .min_by_key(|e| e.span().map_or(0, |s| s.start))
    {
        sink.error(
            e.span(),
            format!("TOML syntax error: {}", e.message().trim_end()),
            Some("fix the TOML syntax at this position".into()),
        );
        return None;
    }
    let mut manifest = Manifest::default();
    let doc = doc.into_inner();
    check_keys(&doc, raw::TOP_KEYS, "the manifest's top level", sink);
    for (key, value) in &doc {
        match key.get_ref().as_ref() {
            "separator" => manifest.separator = de(value, sink),
            "trim" => manifest.trim = de(value, sink),
            "roles" | "modes" => {
                if manifest.roles_span.is_some() {
                    sink.error(
                        Some(key.span()),
                        "the manifest declares both `roles` and `modes`",
                        Some("they are two spellings of one list: keep one".into()),
                    );
                }
                manifest.modes = key.get_ref().as_ref() == "modes";
                manifest.roles_span = Some(value.span());
                match de(value, sink) {
                    Some(roles) => manifest.roles = roles,
                    None => sink.reported_mut().roles = true,
                }
            }
            "facts" => {
                // Keys inside each fact's `list` table are checked here, as the layer's
                // `suffix` keys are.
                for (name, v) in value.get_ref().as_table().into_iter().flatten() {
                    let list = v.get_ref().as_table().and_then(|t| t.get("list"));
                    if let Some(t) = list.and_then(|l| l.get_ref().as_table()) {
                        let what = format!("the list of fact `{}`", name.get_ref());
                        check_keys(t, raw::LIST_KEYS, &what, sink);
                    }
                }
                let (facts, broken) = named_tables(value, "facts", raw::FACT_KEYS, "fact", sink);
                manifest.facts = facts;
                sink.reported_mut().names.extend(broken);
            }
            "extra" => manifest.extra = de(value, sink),
            "overlay_cap_max" => manifest.overlay_cap_max = de(value, sink),
            "formulation" => {
                manifest.formulation =
                    checked(value, raw::FORMULATION_KEYS, "`[formulation]`", sink);
            }
            "budget" => manifest.budget = checked(value, raw::BUDGET_KEYS, "`[budget]`", sink),
            "reminders" => {
                let kinds = value.get_ref().as_table().and_then(|t| t.get("kind"));
                for k in kinds
                    .and_then(|k| k.get_ref().as_array())
                    .into_iter()
                    .flatten()
                {
                    if let Some(t) = k.get_ref().as_table() {
                        check_keys(t, raw::REMINDER_KIND_KEYS, "a reminder kind", sink);
                    }
                }
                manifest.reminders = checked(value, raw::REMINDERS_KEYS, "`[reminders]`", sink);
            }
            "skills" => {
                let index = value.get_ref().as_table().and_then(|t| t.get("index"));
                if let Some(t) = index.and_then(|i| i.get_ref().as_table()) {
                    check_keys(t, raw::SKILL_INDEX_KEYS, "the skill index", sink);
                }
                manifest.skills = checked(value, raw::SKILLS_KEYS, "`[skills]`", sink);
            }
            "flags" => {
                for (name, v) in table(value, "flags", sink) {
                    // Kept (as `false`) when its value is bad, so its uses are not reported too.
                    let default = de::<bool>(v, sink).unwrap_or(false);
                    manifest.flags.push((name, default));
                }
            }
            "knobs" => {
                let (knobs, broken) = named_tables(value, "knobs", raw::KNOB_KEYS, "knob", sink);
                manifest.knobs = knobs;
                sink.reported_mut().names.extend(broken);
            }
            "layer" => {
                for v in array(value, "layer", sink) {
                    if let Some(t) = v.get_ref().as_table() {
                        let what = match t.get("name").and_then(|n| n.get_ref().as_str()) {
                            Some(name) => format!("layer `{name}`"),
                            None => "a layer".to_string(),
                        };
                        check_keys(t, raw::LAYER_KEYS, &what, sink);
                        // `[[layer.texts]]` entries; `texts` as one table maps roles, whose
                        // names are checked as roles.
                        let entries = t.get("texts").and_then(|e| e.get_ref().as_array());
                        for e in entries.into_iter().flatten() {
                            if let Some(e) = e.get_ref().as_table() {
                                let of = format!("a `[[layer.texts]]` entry of {what}");
                                check_keys(e, raw::TEXTS_ENTRY_KEYS, &of, sink);
                            }
                        }
                        if let Some(s) = t.get("suffix").and_then(|s| s.get_ref().as_table()) {
                            check_keys(s, raw::SUFFIX_KEYS, &format!("the suffix of {what}"), sink);
                        }
                        if let Some(c) = t.get("claims").and_then(|c| c.get_ref().as_table()) {
                            check_keys(c, raw::CLAIMS_KEYS, &format!("the claims of {what}"), sink);
                        }
                        if let Some(c) = t.get("selector").and_then(|c| c.get_ref().as_table()) {
                            check_keys(
                                c,
                                raw::SELECTOR_KEYS,
                                &format!("the selector of {what}"),
                                sink,
                            );
                        }
                    }
                    match de::<raw::Layer>(v, sink) {
                        Some(layer) => manifest.layers.push(Spanned::new(v.span(), layer)),
                        None => {
                            let name = v.get_ref().as_table().and_then(|t| t.get("name"));
                            let name = name.and_then(|n| n.get_ref().as_str()).unwrap_or("");
                            sink.reported_mut().layers.push(name.to_string());
                        }
                    }
                }
            }
            "order" => {
                for v in array(value, "order", sink) {
                    if let Some(t) = v.get_ref().as_table() {
                        check_keys(t, raw::ORDER_KEYS, "an order constraint", sink);
                    }
                    if let Some(order) = de::<raw::Order>(v, sink) {
                        manifest.orders.push(Spanned::new(v.span(), order));
                    }
                }
            }
            _ => {} // reported by check_keys
        }
    }
    Some(manifest)
}

/// Checks a table's keys, then reads it.
fn checked<T: FromToml>(
    value: &Spanned<DeValue<'_>>,
    keys: &[&str],
    what: &str,
    sink: &mut Sink<'_>,
) -> Option<T> {
    if let Some(t) = value.get_ref().as_table() {
        check_keys(t, keys, what, sink);
    }
    de(value, sink)
}

/// `[key.NAME]` tables (knobs, facts): the ones that parse, and the names of those that do
/// not (reported here, so their uses stay quiet).
fn named_tables<T: FromToml>(
    value: &Spanned<DeValue<'_>>,
    key: &str,
    keys: &[&str],
    what: &str,
    sink: &mut Sink<'_>,
) -> (Vec<(raw::Name, T)>, Vec<String>) {
    let (mut good, mut broken) = (Vec::new(), Vec::new());
    for (name, v) in table(value, key, sink) {
        match checked::<T>(v, keys, &format!("{what} `{}`", name.get_ref()), sink) {
            Some(t) => good.push((name, t)),
            None => broken.push(name.into_inner()),
        }
    }
    (good, broken)
}

/// Reads one value; a failure is reported and yields `None`.
fn de<T: FromToml>(value: &Spanned<DeValue<'_>>, sink: &mut Sink<'_>) -> Option<T> {
    match T::from_toml(value) {
        Ok(v) => Some(v),
        Err(e) => {
            sink.error(
                Some(e.span),
                e.message,
                Some(e.help.unwrap_or_else(|| {
                    "check this value's type and spelling against the manifest reference in the README".into()
                })),
            );
            None
        }
    }
}

fn table<'a, 'i>(
    value: &'a Spanned<DeValue<'i>>,
    key: &str,
    sink: &mut Sink<'_>,
) -> Vec<(raw::Name, &'a Spanned<DeValue<'i>>)> {
    match value.get_ref().as_table() {
        Some(t) => t
            .iter()
            .map(|(k, v)| (Spanned::new(k.span(), k.get_ref().to_string()), v))
            .collect(),
        None => {
            sink.error(
                Some(value.span()),
                format!(
                    "`{key}` must be a table, found {}",
                    value.get_ref().type_str()
                ),
                Some(format!(
                    "write it as `[{key}]` followed by `name = ...` lines"
                )),
            );
            Vec::new()
        }
    }
}

fn array<'a, 'i>(
    value: &'a Spanned<DeValue<'i>>,
    key: &str,
    sink: &mut Sink<'_>,
) -> Vec<&'a Spanned<DeValue<'i>>> {
    match value.get_ref().as_array() {
        Some(a) => a.iter().collect(),
        None => {
            sink.error(
                Some(value.span()),
                format!(
                    "`{key}` must be an array of tables, found {}",
                    value.get_ref().type_str()
                ),
                Some(format!("write each entry as a `[[{key}]]` table")),
            );
            Vec::new()
        }
    }
}

fn check_keys(table: &DeTable<'_>, allowed: &[&str], what: &str, sink: &mut Sink<'_>) {
    for key in table.keys() {
        let name: &str = key.get_ref();
        if !allowed.contains(&name) {
            let help = match closest(name, allowed.iter().copied()) {
                Some(c) => format!("did you mean `{c}`? known keys: {}", allowed.join(", ")),
                None => format!("known keys: {}", allowed.join(", ")),
            };
            sink.error(
                Some(key.span()),
                format!("unknown key `{name}` in {what}"),
                Some(help),
            );
        }
    }
}
