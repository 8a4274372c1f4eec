//! Facts: their declarations, the placeholders that interpolate them into layer text,
//! and the gates that include a layer only when a fact is present (or has a value).
//!
//! What is checked here is what a runtime composer finds out one turn too late: a
//! placeholder naming nothing, a mode that was never given the fact, an optional fact
//! used without a gate, and a per-turn fact reaching the cached prefix.

use std::ops::Range;

use crate::Tier;

use super::placeholder::{item_placeholders, placeholders, Piece};
use super::{check_ident, check_variant, hint, Names};
use crate::codegen::diag::Sink;
use crate::codegen::lines::Lines;
use crate::codegen::load::Loader;
use crate::codegen::model::{
    Content, Fact, FactId, FlagId, ItemPiece, KnobId, Layer, ListSpec, Need, RoleGroup, RoleId,
    SectionOn, Segment, Test,
};
use crate::codegen::names::{camel, is_variant_name, shown};
use crate::codegen::raw::{self, Manifest};

/// The declared facts, with each role's need. Misnamed facts are kept (and reported) so
/// that their uses are not reported as unknown too.
pub(super) fn facts(
    raw: &Manifest,
    roles: &[String],
    word: &str,
    sink: &mut Sink<'_>,
) -> Vec<Fact> {
    let count = roles.len().max(1);
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
        let mut need = vec![Need::Absent; count];
        for (list, kind) in [
            (&fact.required, Need::Required),
            (&fact.optional, Need::Optional),
        ] {
            for role in list {
                let targets: Vec<usize> = if role.get_ref() == "*" {
                    (0..count).collect()
                } else if let Some(i) = roles.iter().position(|r| r == role.get_ref()) {
                    vec![i]
                } else if sink.reported().roles {
                    continue;
                } else {
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
        let verbatim = fact.other.is_some();
        let values = fact.values.as_ref().map(|v| {
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
                        format!("value `{}` of fact `{}` is repeated or cannot name an enum variant", value.get_ref(), name.get_ref()),
                        Some("values start with a letter and hold letters, digits, `-` and `_`, once each".into()),
                    );
                }
                names.push(value.get_ref().clone());
            }
            if names.is_empty() {
                sink.error(Some(v.span()), format!("fact `{}` has an empty `values` list", name.get_ref()), Some("list its closed set, or remove `values` for free text".into()));
            }
            (camel(name.get_ref()), names)
        });
        let texts = fact.values.as_ref().and_then(|v| {
            let v = v.get_ref();
            let texts = v.texts.as_ref()?;
            Some(
                v.names
                    .iter()
                    .zip(texts)
                    .map(|(n, t)| {
                        (
                            n.get_ref().clone(),
                            crate::codegen::text::normalise(t.get_ref()),
                        )
                    })
                    .collect::<Vec<_>>(),
            )
        });
        if let Some(o) = &fact.other {
            if texts.is_none() {
                sink.error(
                    Some(o.span()),
                    format!("fact `{}` has `other` without value texts", name.get_ref()),
                    Some("`other = \"verbatim\"` goes with `values = { key = \"text\", ... }`: remove it, or give the values texts".into()),
                );
            }
        }
        // With `other = "verbatim"` the fact is free text, so it has no enum.
        let values = if verbatim { None } else { values };
        let default = fact.default.as_ref().and_then(|d| {
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
            } else if let Some((_, vals)) = values.as_ref().filter(|(_, v)| !v.contains(value)) {
                sink.error(
                    Some(d.span()),
                    format!("default `{value}` is not a value of fact `{}`", name.get_ref()),
                    Some(hint(value, vals.iter().map(String::as_str), "values")),
                );
            } else {
                return Some(value.clone());
            }
            None
        });
        let list = fact
            .list
            .as_ref()
            .and_then(|l| list_spec(name.get_ref(), fact, l, sink));
        if let (Some(_), Some(first)) = (&fact.list, fact.required.first()) {
            // Its need stays as written, so its uses are not reported too.
            required_list(name.get_ref(), first, word, sink);
        }
        out.push(Fact {
            name: name.get_ref().clone(),
            tier: (*fact.tier.get_ref()).into(),
            values,
            need,
            default,
            texts,
            list,
            skill_index: false,
        });
    }
    out.extend(super::skill_index::fact(raw, count, sink));
    out
}

/// A list cannot be required: it is a slice on the facts struct whatever its need, an
/// empty slice is absent, and no type of the struct can rule one out (nor can
/// `from_pairs`, which cannot give a list, or `Facts::from(role)`, which gives none). What
/// `required` would add is printing it ungated, which prints "Tools: ." for an empty list.
fn required_list(name: &str, at: &raw::Name, word: &str, sink: &mut Sink<'_>) {
    sink.error(
        Some(at.span()),
        format!("list fact `{name}` cannot be required: an empty list is absent, and nothing can make a caller give a non-empty one"),
        Some(format!("list the {word}s in `optional`, and gate each layer that prints it: `when = \"{name}\"`, or `{{?{name}}}…{{/{name}}}` around it; check that a list is non-empty where it is gathered")),
    );
}

/// A list fact's printing: item template, join, sort, cap. A list has no closed set,
/// default or value texts.
fn list_spec(
    name: &str,
    fact: &raw::Fact,
    list: &toml::Spanned<raw::List>,
    sink: &mut Sink<'_>,
) -> Option<ListSpec> {
    let others = [
        ("values", fact.values.as_ref().map(|v| v.span())),
        ("default", fact.default.as_ref().map(|v| v.span())),
        ("other", fact.other.as_ref().map(|v| v.span())),
    ];
    let mut ok = true;
    for (key, span) in others {
        if let Some(span) = span {
            sink.error(
                Some(span),
                format!("list fact `{name}` cannot have `{key}`"),
                Some(
                    "a list is given as `&[&str]` and prints item by item: remove one of them"
                        .into(),
                ),
            );
            ok = false;
        }
    }
    let spec = list_body(name, list.get_ref(), sink);
    spec.filter(|_| ok)
}

/// A list's item template, join, sort and cap, checked.
pub(super) fn list_body(name: &str, l: &raw::List, sink: &mut Sink<'_>) -> Option<ListSpec> {
    let mut ok = true;
    let item_span = l.item.as_ref().map(|i| i.span());
    let item = l.item.as_ref().map_or("{0}", |i| i.get_ref().as_str());
    let template = item_template(name, item, item_span.clone(), sink);
    ok &= template.is_some();
    if let Some(m) = l.max.as_ref().filter(|m| *m.get_ref() == 0) {
        sink.error(
            Some(m.span()),
            format!("`max = 0` would print no item of list fact `{name}`"),
            Some("give the most items to print, or remove `max`".into()),
        );
        ok = false;
    }
    ok &= l.more.as_ref().is_none_or(|m| more_line(name, m, sink));
    let (item, fields) = template?;
    let sort = match l.sort.as_ref() {
        None => None,
        Some(s) => match (s.get_ref(), fields.is_empty()) {
            (raw::ListSort::On(false), _) => None,
            (raw::ListSort::On(true), true) => Some(0),
            (raw::ListSort::On(true), false) => {
                sink.error(
                    Some(s.span()),
                    format!("list fact `{name}` has fields: `sort = true` does not say which one to sort by"),
                    Some(format!("name a field of the item template, e.g. `sort = \"{}\"`", fields[0])),
                );
                return None;
            }
            (raw::ListSort::By(by), true) => {
                sink.error(
                    Some(s.span()),
                    format!("list fact `{name}` is a plain list (`{{0}}`): it has no field `{}` to sort by", shown(by)),
                    Some("a plain list sorts by its items: write `sort = true`".into()),
                );
                return None;
            }
            (raw::ListSort::By(by), false) => match fields.iter().position(|f| f == by) {
                Some(i) => Some(i),
                None => {
                    sink.error(
                        Some(s.span()),
                        format!("list fact `{name}` has no field `{}` to sort by", shown(by)),
                        Some(hint(
                            by,
                            fields.iter().map(String::as_str),
                            "the item template's fields",
                        )),
                    );
                    return None;
                }
            },
        },
    };
    let text = |s: Option<&toml::Spanned<String>>, default: &str| {
        s.map_or(default.to_string(), |s| {
            crate::codegen::text::normalise(s.get_ref())
        })
    };
    ok.then(|| ListSpec {
        item,
        fields,
        join: text(l.join.as_ref(), "\n"),
        sort,
        max: l.max.as_ref().map(|m| *m.get_ref()),
        more: text(l.more.as_ref(), "(and {n} more)"),
    })
}

/// A list's `more` line holds `{n}` (the number of items left out) and no other
/// placeholder; `{{` and `}}` print braces, as in a layer. True when it does.
fn more_line(name: &str, more: &toml::Spanned<String>, sink: &mut Sink<'_>) -> bool {
    let problem = match placeholders(&crate::codegen::text::normalise(more.get_ref())) {
        Err((_, message)) => Some(message),
        Ok(pieces) => pieces.iter().find_map(|p| match p {
            Piece::Lit(_) => None,
            Piece::Name(n, _) if n == "n" => None,
            Piece::Name(n, _) => Some(format!("`{{{}}}` is not `{{n}}`", shown(n))),
            Piece::Open(n, ..) | Piece::Close(n, _) => Some(format!(
                "a section on `{}`, which a `more` line cannot have",
                shown(n)
            )),
        }),
    };
    let Some(problem) = problem else {
        return true;
    };
    sink.error(
        Some(more.span()),
        format!("the `more` line of list fact `{name}`: {problem}"),
        Some("`{n}` is the number of items left out; write `{{` and `}}` for braces".into()),
    );
    false
}

/// A list's item template as pieces, and its named fields (none for a plain list, whose
/// item is `{0}`). Errors are reported at the template.
pub(super) fn item_template(
    name: &str,
    item: &str,
    span: Option<Range<usize>>,
    sink: &mut Sink<'_>,
) -> Option<(Vec<ItemPiece>, Vec<String>)> {
    let mut error = |message: String, help: &str| {
        sink.error(span.clone(), message, Some(help.into()));
    };
    let pieces = match item_placeholders(&crate::codegen::text::normalise(item)) {
        Ok(p) => p,
        Err((_, message)) => {
            error(
                format!("the item template of list fact `{name}`: {message}"),
                "write `{0}` for a plain list's item, or `{field}` for each field of an item; `{{` and `}}` print braces",
            );
            return None;
        }
    };
    let names = pieces.iter().filter_map(|p| match p {
        Piece::Name(n, _) | Piece::Open(n, _, _) => Some(n.as_str()),
        _ => None,
    });
    let plain = names.clone().any(|n| n == "0");
    let mut fields: Vec<String> = Vec::new();
    for n in names.clone().filter(|n| *n != "0") {
        if !fields.iter().any(|f| f == n) {
            fields.push(n.to_string());
        }
    }
    if plain && !fields.is_empty() {
        error(
            format!("the item template of list fact `{name}` mixes `{{0}}` with named fields (`{}`)", fields.join("`, `")),
            "a plain list's items are strings (`{0}`); items with fields name each one (`{name}`): use one or the other",
        );
        return None;
    }
    if !pieces.iter().any(|p| matches!(p, Piece::Name(..))) {
        error(
            format!("the item template of list fact `{name}` has no `{{0}}` and no field"),
            "write where each item goes, e.g. `item = \"- {0}\"`, or its fields, e.g. `item = \"- {name}: {when}\"`",
        );
        return None;
    }
    let index = |n: &str| fields.iter().position(|f| f == n).unwrap_or(0);
    let item = pieces
        .iter()
        .map(|p| match p {
            Piece::Lit(t) => ItemPiece::Text(t.clone()),
            Piece::Name(n, _) => ItemPiece::Field(index(n)),
            Piece::Open(n, negated, _) => ItemPiece::Open(index(n), *negated),
            Piece::Close(..) => ItemPiece::Close,
        })
        .collect();
    Some((item, fields))
}

/// Where a fact use is reported: a file position, or the manifest entry.
pub(super) enum At {
    File(String),
    Manifest(Range<usize>),
}

/// Checks every fact a layer uses, through its gate or its placeholders, and turns the
/// texts of an `interpolate = true` layer into segments.
pub(super) fn check_layer(
    raw: &raw::Layer,
    layer: &Layer,
    names: &Names<'_>,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) {
    let in_scope: Vec<RoleId> = RoleId::all(names.roles.len())
        .filter(|&r| layer.in_scope(r))
        .collect();
    for c in layer.conds() {
        super::locked::gate(layer, c, names, sink);
        if let Test::Fact(f) | Test::FactIs(f, _) = c.test {
            check_use(
                layer,
                f,
                &in_scope,
                &At::Manifest(c.at.clone()),
                true,
                names,
                sink,
            );
        }
    }
    let interpolate = raw.interpolate.as_ref().is_some_and(|i| *i.get_ref());
    // Which roles read each text, so a fact is checked against the roles that see it.
    let uses: Vec<RoleGroup> = match &layer.content {
        Content::PerRole(groups) => groups.clone(),
        Content::Choice { variants, .. } => variants
            .iter()
            .map(|c| RoleGroup {
                roles: in_scope.clone(),
                text: c.text,
            })
            .collect(),
        Content::Slot { .. } | Content::Instructions if !interpolate => return,
        Content::Slot { .. } | Content::Instructions => {
            let span = raw.interpolate.as_ref().map(|i| i.span());
            sink.error(
                span,
                "`interpolate` does not apply to a `slot` or `instructions` layer",
                Some("slot text is used as given; remove `interpolate`".into()),
            );
            return;
        }
    };
    let manifest_at = raw
        .text
        .as_ref()
        .or(raw.file.as_ref())
        .map(|t| t.span())
        .or_else(|| raw.texts.as_ref().map(|t| t.span()))
        .or_else(|| raw.files.as_ref().map(|t| t.span()))
        .or_else(|| raw.dir.as_ref().map(|t| t.span()))
        .unwrap_or(raw.name.span());
    // Names reported as placeholders of a layer that does not interpolate.
    let mut forgotten = Vec::new();
    for RoleGroup { roles, text: id } in uses {
        let text = &loader.texts[id];
        let lines = Lines::new(&text.body);
        let locate = |offset: usize| match &text.file {
            Some(f) => {
                let (line, col) = lines.at_from(text.body_at, offset);
                At::File(format!("{}:{line}:{col}", f.display))
            }
            None => At::Manifest(manifest_at.clone()),
        };
        if !interpolate {
            let (layer, body) = (&layer.name, &text.body);
            super::template::forgotten(layer, body, locate, names, &mut forgotten, sink);
            continue;
        }
        let pieces = match placeholders(&text.body) {
            Ok(p) => p,
            Err((offset, message)) => {
                report(
                    sink,
                    &locate(offset),
                    message,
                    "write `{fact}` or `{knob}`, `{?fact}…{/fact}` for text printed only when the fact is given, and `{{` / `}}` for literal braces",
                );
                continue;
            }
        };
        // A section tag alone on its line takes the line with it.
        let pieces = super::template::standalone(pieces);
        let mut segments = Vec::new();
        // Open sections: where each `If` sits, and the fact it checks is given.
        let mut open: Vec<(Option<usize>, Option<FactId>)> = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Lit(s) => segments.push(Segment::Lit(s)),
                Piece::Open(n, negated, offset) => {
                    let on = section_on(&n, layer, &roles, &locate(offset), names, sink);
                    let given = match on {
                        Some(SectionOn::Fact(f)) if !negated => Some(f),
                        _ => None,
                    };
                    // A section that could not be resolved (reported) is left out.
                    let Some(on) = on else {
                        open.push((None, None));
                        continue;
                    };
                    open.push((Some(segments.len()), given));
                    segments.push(Segment::If {
                        on,
                        negated,
                        len: 0,
                    });
                }
                Piece::Close(..) => {
                    // Balanced: the parser refuses anything else.
                    if let Some((Some(at), _)) = open.pop() {
                        let after = segments.len() - at - 1;
                        if let Segment::If { len, .. } = &mut segments[at] {
                            *len = after;
                        }
                    }
                }
                Piece::Name(n, offset) => {
                    if let Some(f) = names.facts.iter().position(|f| f.name == n) {
                        let f = FactId(f);
                        // Inside `{?f}…{/f}` an optional fact is checked already.
                        let checked = open.iter().any(|(_, g)| *g == Some(f));
                        check_use(layer, f, &roles, &locate(offset), checked, names, sink);
                        super::locked::prints(layer, f, &n, &locate(offset), names, sink);
                        segments.push(Segment::Fact(f));
                    } else if let Some(k) = names.knobs.iter().position(|k| k.name == n) {
                        segments.push(Segment::Knob(KnobId(k)));
                    } else if names.broken.contains(&n) {
                        // Its declaration failed, and was reported.
                    } else {
                        let all = names
                            .facts
                            .iter()
                            .map(|f| f.name.as_str())
                            .chain(names.knobs.iter().map(|k| k.name.as_str()));
                        report(
                            sink,
                            &locate(offset),
                            format!(
                                "placeholder `{{{}}}` names no declared fact or knob",
                                shown(&n)
                            ),
                            &hint(&n, all, "declared facts and knobs"),
                        );
                    }
                }
            }
        }
        loader.texts[id].segments = Some(segments);
    }
}

/// What a `{?name}` section reads: a fact (given) or a flag (on). A fact is checked as a
/// gate is: it must reach the roles, and a volatile one stays out of stable layers.
fn section_on(
    name: &str,
    layer: &Layer,
    roles: &[RoleId],
    at: &At,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) -> Option<SectionOn> {
    if let Some(f) = names.facts.iter().position(|f| f.name == name) {
        let f = FactId(f);
        check_use(layer, f, roles, at, true, names, sink);
        super::locked::prints(layer, f, &format!("?{name}"), at, names, sink);
        return Some(SectionOn::Fact(f));
    }
    if let Some(f) = names.flags.iter().position(|f| f.name == name) {
        return Some(SectionOn::Flag(FlagId(f)));
    }
    if names.knobs.iter().any(|k| k.name == name) {
        report(
            sink,
            at,
            format!("section `{{?{name}}}` tests knob `{name}`, which always has a value"),
            "a section tests a fact (given) or a flag (on)",
        );
    } else if !names.broken.iter().any(|b| b == name) {
        let all = names
            .facts
            .iter()
            .map(|f| f.name.as_str())
            .chain(names.flags.iter().map(|f| f.name.as_str()));
        report(
            sink,
            at,
            format!(
                "section `{{?{}}}` names no declared fact or flag",
                shown(name)
            ),
            &hint(name, all, "declared facts and flags"),
        );
    }
    None
}

pub(super) fn report(sink: &mut Sink<'_>, at: &At, message: String, help: &str) {
    match at {
        At::Manifest(span) => sink.error_once(span.clone(), message, Some(help.to_string())),
        At::File(location) => sink.push(crate::codegen::diag::Diagnostic {
            location: location.clone(),
            message,
            help: Some(help.to_string()),
        }),
    }
}

/// One use of fact `f` by `layer`, seen by `roles`: the fact must reach those roles, a
/// per-turn fact must stay out of the cached prefix, and an optional fact must gate the
/// layer that prints it.
fn check_use(
    layer: &Layer,
    f: FactId,
    roles: &[RoleId],
    at: &At,
    is_gate: bool,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) {
    let fact = &names.facts[f];
    let word = names.word;
    if fact.tier == Tier::Volatile && layer.tier == Tier::Stable {
        report(
            sink,
            at,
            format!("volatile fact `{}` would reach stable layer `{}`", fact.name, layer.name),
            &format!(
                "the stable prefix is what the provider caches: a value that changes per turn there makes every turn pay for the whole prompt again. Move this into a `tier = \"volatile\"` layer, or declare `{}` stable if it really is fixed for a session",
                fact.name
            ),
        );
    }
    for &r in roles {
        let who = names.roles.get(r.0).map_or("the prompt", String::as_str);
        match fact.need[r.0] {
            Need::Absent => report(
                sink,
                at,
                format!("{word} `{who}` does not take fact `{}`, which layer `{}` uses", fact.name, layer.name),
                &format!("add `{who}` to the fact's `required` or `optional`, or leave it out of the layer's `{word}s`"),
            ),
            Need::Optional if !is_gate && fact.default.is_none() && !layer.requires_fact(f) => report(
                sink,
                at,
                format!("fact `{}` is optional for {word} `{who}`, but layer `{}` prints it without checking it is there", fact.name, layer.name),
                &match fact.list {
                    // A list cannot be required.
                    Some(_) => format!("gate the layer with `when = \"{}\"`, or print it inside `{{?{0}}}…{{/{0}}}`", fact.name),
                    None => format!("gate the layer with `when = \"{}\"`, print it inside `{{?{0}}}…{{/{0}}}`, or make the fact required for `{who}`", fact.name),
                },
            ),
            _ => {}
        }
    }
}
