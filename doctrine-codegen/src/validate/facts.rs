//! Facts: their declarations (`[facts.NAME]`), each role's need, closed sets, value texts
//! and defaults. Their uses in layers are checked in `uses`, lists in `list`.

use super::hint::hint;
use super::idents::{check_ident, check_variant};
use super::list::{list_spec, required_list};
use crate::diag::Sink;
use crate::load::Loader;
use crate::model::{Fact, Need, Tiers};
use crate::names::{camel, is_variant_name};
use crate::raw::{self, Manifest, Name};

/// The declared facts, with each role's need. Misnamed facts are kept (and reported) so
/// that their uses are not reported as unknown too.
pub(super) fn facts(
    raw: &Manifest,
    roles: &[String],
    tiers: &Tiers,
    word: &str,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Vec<Fact> {
    let mut out = Vec::new();
    for (name, fact) in &raw.facts {
        check_ident(
            sink,
            name.span(),
            "fact",
            name.get_ref(),
            "a field of each facts struct",
        );
        if raw.knobs.iter().any(|(k, _)| k.get_ref() == name.get_ref()) {
            sink.error(
                Some(name.span()),
                format!("fact `{}` has the name of a knob", name.get_ref()),
                Some("placeholders name facts and knobs alike: rename one".into()),
            );
        }
        let need = need(name, fact, roles, word, sink);
        let values = values(name, fact, sink);
        let texts = texts(fact);
        if let (Some(o), None) = (&fact.other, &texts) {
            sink.error(
                Some(o.span()),
                format!("fact `{}` has `other` without value texts", name.get_ref()),
                Some("`other = \"verbatim\"` goes with `values = { key = \"text\", ... }`: remove it, or give the values texts".into()),
            );
        }
        // With `other = "verbatim"` the fact is free text, so it has no enum.
        let values = values.filter(|_| fact.other.is_none());
        let default = default(name, fact, &need, values.as_ref(), word, sink);
        let list = fact
            .list
            .as_ref()
            .and_then(|l| list_spec(name.get_ref(), fact, l, loader, sink))
            .map(|mut l| {
                let budget = fact.max_bytes.as_ref().map(|m| m.get_ref());
                l.max_bytes = budget.map(raw::ByteBudget::bytes);
                l.budget_items = matches!(budget, Some(raw::ByteBudget::Items(_)));
                l
            });
        if let (Some(m), None) = (&fact.max_bytes, &fact.list) {
            sink.error(
                Some(m.span()),
                format!(
                    "`max_bytes` is a list's byte budget, and fact `{}` is no list",
                    name.get_ref()
                ),
                Some("remove `max_bytes`, or make the fact a list (`list = {}`)".into()),
            );
        }
        if let (Some(_), Some(first)) = (&fact.list, fact.required.first()) {
            // Its need stays as written, so its uses are not reported too.
            required_list(name.get_ref(), first, word, sink);
        }
        let closed = values.is_some() && fact.list.is_none();
        let escape = super::escape::escapes(name.get_ref(), fact, list.as_ref(), closed, sink);
        let manifest = super::sanitize::manifest(raw);
        let sanitize = super::sanitize::fact(name.get_ref(), fact, closed, manifest, sink);
        let tier = super::tiers::resolve(tiers, &fact.tier, sink).unwrap_or(0);
        out.push(Fact {
            name: name.get_ref().clone(),
            // A tier that does not resolve is reported; the fact is kept (in the first
            // tier, which refuses nothing) so its uses stay quiet.
            tier: tiers.split(tier),
            tier_index: tier,
            values,
            need,
            default,
            texts,
            list,
            skill_index: false,
            escape,
            sanitize,
        });
        if let Some(made) = out.last() {
            // An `item_file`'s pieces keep no offsets: its key in the manifest says where.
            let item = fact.list.as_ref().and_then(|l| {
                let l = l.get_ref();
                l.item.as_ref().or(l.item_file.as_ref())
            });
            super::escape::placed_in_items(made, item.map(|i| i.span()), sink);
        }
    }
    out.extend(super::skill_index::fact(raw, roles.len().max(1), sink));
    out
}

/// Each role's need of the fact, from `required` and `optional` (`"*"`: every role).
fn need(
    name: &Name,
    fact: &raw::Fact,
    roles: &[String],
    word: &str,
    sink: &mut Sink<'_>,
) -> Vec<Need> {
    let count = roles.len().max(1);
    let mut need = vec![Need::Absent; count];
    for (list, kind) in [
        (&fact.required, Need::Required),
        (&fact.optional, Need::Optional),
    ] {
        for role in list {
            let Some(targets) = targets(name, role, roles, word, sink) else {
                continue;
            };
            let mut reported = false;
            for i in targets {
                if need[i] != Need::Absent && need[i] != kind && !reported {
                    reported = true;
                    let who = roles.get(i).map_or("the prompt", String::as_str);
                    sink.error(
                        Some(role.span()),
                        format!(
                            "fact `{}` is both required and optional for `{who}`",
                            name.get_ref()
                        ),
                        Some(format!("list `{who}` in one of `required` and `optional`")),
                    );
                }
                need[i] = kind;
            }
        }
    }
    if need.iter().all(|n| *n == Need::Absent) && !sink.reported().roles {
        sink.error(
            Some(name.span()),
            format!("fact `{}` is taken by no {word}", name.get_ref()),
            Some(format!(
                "list the {word}s that take it in `required` or `optional` (`\"*\"` for all)"
            )),
        );
    }
    need
}

/// The roles (by index) an entry of `required` or `optional` names; `None` when it names
/// none (reported, unless the role list itself failed).
fn targets(
    name: &Name,
    role: &Name,
    roles: &[String],
    word: &str,
    sink: &mut Sink<'_>,
) -> Option<Vec<usize>> {
    if role.get_ref() == "*" {
        return Some((0..roles.len().max(1)).collect());
    }
    if let Some(i) = roles.iter().position(|r| r == role.get_ref()) {
        return Some(vec![i]);
    }
    if sink.reported().roles {
        return None;
    }
    sink.error(
        Some(role.span()),
        format!(
            "fact `{}` names unknown {word} `{}`",
            name.get_ref(),
            role.get_ref()
        ),
        Some(if roles.is_empty() {
            "with no roles declared, write `\"*\"`".to_string()
        } else {
            hint(
                role.get_ref(),
                roles.iter().map(String::as_str),
                &format!("declared {word}s (or `\"*\"` for all)"),
            )
        }),
    );
    None
}

/// `values`: the closed set, and its enum's name. Each value must name a variant, once.
fn values(name: &Name, fact: &raw::Fact, sink: &mut Sink<'_>) -> Option<(String, Vec<String>)> {
    let v = fact.values.as_ref()?;
    let mut names: Vec<String> = Vec::new();
    for value in &v.get_ref().names {
        let repeated = names.iter().any(|n| camel(n) == camel(value.get_ref()));
        let what = format!("value `{}` of fact `{}`", value.get_ref(), name.get_ref());
        if is_variant_name(value.get_ref())
            && !check_variant(sink, value.span(), &what, &camel(value.get_ref()))
        {
            // Reported.
        } else if !is_variant_name(value.get_ref()) || repeated {
            sink.error(
                Some(value.span()),
                format!(
                    "value `{}` of fact `{}` is repeated or cannot name an enum variant",
                    value.get_ref(),
                    name.get_ref()
                ),
                Some(
                    "values start with a letter and hold letters, digits, `-` and `_`, once each"
                        .into(),
                ),
            );
        }
        names.push(value.get_ref().clone());
    }
    if names.is_empty() {
        sink.error(
            Some(v.span()),
            format!("fact `{}` has an empty `values` list", name.get_ref()),
            Some("list its closed set, or remove `values` for free text".into()),
        );
    }
    Some((camel(name.get_ref()), names))
}

/// `values` as a table: each key and the text it prints, normalised.
fn texts(fact: &raw::Fact) -> Option<Vec<(String, String)>> {
    let v = fact.values.as_ref()?.get_ref();
    let texts = v.texts.as_ref()?;
    let pairs = v
        .names
        .iter()
        .zip(texts)
        .map(|(n, t)| (n.get_ref().clone(), crate::text::normalise(t.get_ref())));
    Some(pairs.collect())
}

/// `default`: for a fact some role may omit, non-empty, and one of its values if it has a
/// closed set.
fn default(
    name: &Name,
    fact: &raw::Fact,
    need: &[Need],
    values: Option<&(String, Vec<String>)>,
    word: &str,
    sink: &mut Sink<'_>,
) -> Option<String> {
    let d = fact.default.as_ref()?;
    let value = d.get_ref();
    if !need.contains(&Need::Optional) {
        sink.error(
            Some(d.span()),
            format!("fact `{}` has a `default`, but no {word} may omit it", name.get_ref()),
            Some(format!("a default stands in for an optional fact: list {word}s in `optional`, or remove `default`")),
        );
    } else if value.is_empty() {
        sink.error(
            Some(d.span()),
            format!("fact `{}` has an empty `default`", name.get_ref()),
            Some("an empty value is an absent fact: remove `default`, or give it text".into()),
        );
    } else if let Some((_, vals)) = values.filter(|(_, v)| !v.contains(value)) {
        sink.error(
            Some(d.span()),
            format!(
                "default `{value}` is not a value of fact `{}`",
                name.get_ref()
            ),
            Some(hint(value, vals.iter().map(String::as_str), "values")),
        );
    } else {
        return Some(value.clone());
    }
    None
}
