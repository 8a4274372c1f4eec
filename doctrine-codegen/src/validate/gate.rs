//! `when`, `unless`, `when_fact` and `equals`: the conditions that include a layer.
//!
//! A condition is `name`, `!name` or `name=value` (`!name=value`). A bare name is a flag
//! (on) or a fact (given; with `=value`, given with that value); `flag:` or `fact:` says
//! which when it is both. `layer:name` is a slot, choice or instructions layer (given,
//! non-empty) or a selector layer (its selector chose a source) and `overlay:name` an
//! overlay field (non-empty): always prefixed, since a layer, its overlay field and the flag
//! that gates it often share a name. `when` and `unless` are a list of conditions that must
//! all hold, or a list of alternatives (lists of conditions), one of which must.

use std::ops::Range;

use super::hint::hint;
use super::names::Names;
use crate::diag::Sink;
use crate::model::{Cond, FactId, FlagId, Layer, Test, Tiers};
use crate::raw::{self, Name};
use toml::Spanned;

/// The kinds a condition's name can be: the prefix that picks one, its article and what
/// it is (without the article, so messages can say "names no flag").
const KINDS: [(&str, &str, &str); 4] = [
    ("flag", "a", "flag"),
    ("fact", "a", "fact"),
    ("layer", "a", "slot, choice, instructions or selector layer"),
    ("overlay", "an", "overlay field"),
];

/// What kind `prefix` names, with its article (`a flag`) or without (`flag`).
fn kind_noun(prefix: &str, article: bool) -> String {
    match KINDS.iter().find(|(p, _, _)| *p == prefix) {
        Some((_, a, noun)) if article => format!("{a} {noun}"),
        Some((_, _, noun)) => noun.to_string(),
        None => prefix.to_string(),
    }
}

/// A layer's gates: `when` (with `when_fact` / `equals` folded in) and `unless`, each as
/// conditions that must all hold and as alternatives (one of which must hold entirely).
pub(super) struct Gates {
    pub when: Vec<Cond>,
    pub unless: Vec<Cond>,
    pub when_any: Vec<Vec<Cond>>,
    pub unless_any: Vec<Vec<Cond>>,
}

pub(super) fn gates(raw: &raw::Layer, names: &Names<'_>, sink: &mut Sink<'_>) -> Gates {
    let layer = raw.name.get_ref();
    let list = |conds: &Option<Spanned<raw::Conds>>, key: &str, sink: &mut Sink<'_>| {
        let Some(conds) = conds else {
            return (Vec::new(), Vec::new());
        };
        let empty = |sink: &mut Sink<'_>, at: Range<usize>, what: &str| {
            sink.error(
                Some(at),
                format!("layer `{layer}` has an empty {what}`{key}`"),
                Some(format!("list its conditions, or remove `{key}`")),
            );
        };
        let read = |names_: &[Name], sink: &mut Sink<'_>| -> Vec<Cond> {
            names_
                .iter()
                .filter_map(|c| cond(c, layer, key, names, sink))
                .collect()
        };
        match conds.get_ref() {
            raw::Conds::All(all) => {
                if all.is_empty() {
                    empty(sink, conds.span(), "");
                }
                (read(all, sink), Vec::new())
            }
            raw::Conds::Any(alternatives) | raw::Conds::Mixed(alternatives) => {
                if alternatives.is_empty() {
                    empty(sink, conds.span(), "");
                }
                if matches!(conds.get_ref(), raw::Conds::Mixed(_)) {
                    // Its names are still read below, so each is checked and counts as used.
                    sink.error(
                        Some(conds.span()),
                        format!("layer `{layer}` mixes single names with alternatives in `{key}`"),
                        Some(format!(
                            "write every alternative as an array: `{key} = [[\"a\", \"b\"], [\"c\"]]` \
                             holds when a and b hold, or c does; `{key} = [\"a\", \"b\"]` when both do"
                        )),
                    );
                }
                let any = alternatives.iter().map(|a| {
                    if a.get_ref().is_empty() {
                        empty(sink, a.span(), "alternative in ");
                    }
                    read(a.get_ref(), sink)
                });
                (Vec::new(), any.collect())
            }
        }
    };
    let (mut when, when_any) = list(&raw.when, "when", sink);
    let (unless, unless_any) = list(&raw.unless, "unless", sink);
    if let Some(c) = fact_gate(raw, names, sink) {
        when.push(c);
    }
    Gates {
        when,
        unless,
        when_any,
        unless_any,
    }
}

/// One condition of `key` (`when`, `unless`) of layer `layer`, resolved, or `None`
/// (reported).
fn cond(
    written: &Name,
    layer: &str,
    key: &str,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) -> Option<Cond> {
    let at = written.span();
    let text = written.get_ref().trim();
    let (negated, rest) = match text.strip_prefix('!') {
        Some(rest) => (true, rest.trim()),
        None => (false, text),
    };
    let (name, value) = match rest.split_once('=') {
        Some((n, v)) => (n.trim(), Some(v.trim())),
        None => (rest, None),
    };
    let (kind, name) = match name.split_once(':') {
        Some((k, n)) if KINDS.iter().any(|(p, _, _)| *p == k.trim()) => (Some(k.trim()), n.trim()),
        _ => (None, name),
    };
    if name.is_empty() || value == Some("") {
        sink.error(
            Some(at),
            format!("layer `{layer}` has an incomplete condition `{text}` in `{key}`"),
            Some("write `name`, `!name` or `fact=value`".into()),
        );
        return None;
    }
    let test = match candidates(name, kind, value, names).as_slice() {
        [] if names.broken.iter().any(|b| b == name) => return None,
        [] => {
            let help = unknown_help(name, kind, negated, names);
            sink.error(
                Some(at),
                format!(
                    // As written: `layer:toolz`, not `toolz`.
                    "layer `{layer}` is gated on `{}{name}`, which names no {}",
                    kind.map_or(String::new(), |k| format!("{k}:")),
                    kind.map_or("flag or fact".to_string(), |k| kind_noun(k, false))
                ),
                Some(help),
            );
            return None;
        }
        [(_, test)] => test.clone(),
        several => {
            let spelled: Vec<String> = several
                .iter()
                .map(|(k, _)| format!("`{k}:{name}`"))
                .collect();
            let kinds: Vec<String> = several.iter().map(|(k, _)| kind_noun(k, true)).collect();
            sink.error(
                Some(at),
                format!(
                    "condition `{text}` of layer `{layer}` is ambiguous: `{name}` is {}",
                    kinds.join(" and ")
                ),
                Some(format!("say which: {}", spelled.join(" or "))),
            );
            return None;
        }
    };
    match (value, &test) {
        (Some(v), Test::FactIs(f, _)) => check_value(*f, v, at.clone(), names, sink)?,
        (Some(_), _) => {
            sink.error(
                Some(at),
                format!(
                    "condition `{text}` of layer `{layer}` compares `{name}`, which is not a fact"
                ),
                Some(format!(
                    "only a fact has a value to compare: write `{}{name}`",
                    if negated { "!" } else { "" }
                )),
            );
            return None;
        }
        (None, _) => {}
    }
    Some(Cond {
        test,
        negated,
        written: text.to_string(),
        at,
    })
}

/// What `name` can be tested as, of the kind its prefix says (`kind`; any without one).
/// A layer or an overlay field is always written with its prefix.
fn candidates(
    name: &str,
    kind: Option<&str>,
    value: Option<&str>,
    names: &Names<'_>,
) -> Vec<(&'static str, Test)> {
    let wants = |k: &str| kind.is_none_or(|given| given == k);
    let mut found = Vec::new();
    if let Some(f) = names
        .flags
        .iter()
        .position(|f| f.name == name)
        .filter(|_| wants("flag"))
    {
        found.push(("flag", Test::Flag(FlagId(f))));
    }
    if let Some(f) = names
        .facts
        .iter()
        .position(|f| f.name == name)
        .filter(|_| wants("fact"))
    {
        let test = match value {
            Some(v) => Test::FactIs(FactId(f), v.to_string()),
            None => Test::Fact(FactId(f)),
        };
        found.push(("fact", test));
    }
    if names.fillable.iter().any(|l| l == name) && kind == Some("layer") {
        found.push(("layer", Test::Filled(name.to_string())));
    }
    if names.overlay_fields.iter().any(|o| o == name) && kind == Some("overlay") {
        found.push(("overlay", Test::Overlay(name.to_string())));
    }
    found
}

/// How to fix a condition naming nothing: the prefixed spelling of a layer or overlay
/// field named without its prefix, how to declare it, or the names it could be.
fn unknown_help(name: &str, kind: Option<&str>, negated: bool, names: &Names<'_>) -> String {
    let prefixed = |p: &'static str| move |n: &String| format!("{p}:{n}");
    let all: Vec<String> = names
        .flags
        .iter()
        .map(|f| f.name.clone())
        .chain(names.facts.iter().map(|f| f.name.clone()))
        .chain(names.fillable.iter().map(prefixed("layer")))
        .chain(names.overlay_fields.iter().map(prefixed("overlay")))
        .collect();
    // A layer or overlay field named without its prefix: say the spelling.
    let bare = kind.is_none().then(|| {
        all.iter()
            .find(|a| a.split_once(':').is_some_and(|(_, n)| n == name))
    });
    match bare.flatten() {
        Some(spelled) => format!(
            "a layer or overlay field is named with its prefix: `{}{spelled}`",
            if negated { "!" } else { "" }
        ),
        None if all.is_empty() => match kind {
            Some("fact") => format!("declare it: `[facts.{name}]` with its `tier` and the roles that take it"),
            Some("layer") => "test a layer with `slot`, `dir`, `instructions = true` or a `selector`; this manifest has none".to_string(),
            Some("overlay") => "test a layer's overlay field, which `override` gives it; no layer of this manifest has one".to_string(),
            _ => format!("declare it: `[flags]` then `{name} = false`"),
        },
        // Matched as written, prefix and all (`layer:toolz` near `layer:tools`); a name
        // written without one is matched against the prefixed names' own too.
        None => {
            let written = kind.map_or(name.to_string(), |k| format!("{k}:{name}"));
            let listed = all.iter().map(String::as_str);
            let near_prefixed = kind
                .is_none()
                .then(|| {
                    let bare = all.iter().filter_map(|a| a.split_once(':').map(|(_, n)| n));
                    let near = crate::names::closest(name, bare)?;
                    all.iter().find(|a| a.split_once(':').is_some_and(|(_, n)| n == near))
                })
                .flatten();
            match near_prefixed {
                Some(p) if crate::names::closest(name, listed.clone()).is_none() => format!(
                    "did you mean `{p}`? {}",
                    hint(name, listed, "names a condition can use")
                ),
                _ => hint(&written, listed, "names a condition can use"),
            }
        }
    }
}

/// `when_fact` (with `equals`), the older spelling of `when = "fact"` / `"fact=value"`.
fn fact_gate(raw: &raw::Layer, names: &Names<'_>, sink: &mut Sink<'_>) -> Option<Cond> {
    let Some(name) = &raw.when_fact else {
        if let Some(e) = &raw.equals {
            sink.error(
                Some(e.span()),
                "`equals` without `when_fact`",
                Some("add `when_fact = \"<fact>\"`, or remove `equals`".into()),
            );
        }
        return None;
    };
    let Some(f) = names.facts.iter().position(|f| &f.name == name.get_ref()) else {
        // `when_fact` has no negation; `when` does.
        if let Some(fact) = name.get_ref().strip_prefix('!') {
            sink.error(
                Some(name.span()),
                format!("`when_fact` cannot be negated (`{}`)", name.get_ref()),
                Some(format!("write `when = \"!{fact}\"` instead: the layer is then included only when fact `{fact}` is not given")),
            );
        } else if !names.broken.contains(name.get_ref()) {
            sink.error(
                Some(name.span()),
                format!("`{}` names no declared fact", name.get_ref()),
                Some(hint(
                    name.get_ref(),
                    names.facts.iter().map(|f| f.name.as_str()),
                    "declared facts",
                )),
            );
        }
        return None;
    };
    let f = FactId(f);
    let (test, written) = match &raw.equals {
        Some(e) => {
            check_value(f, e.get_ref(), e.span(), names, sink)?;
            (
                Test::FactIs(f, e.get_ref().clone()),
                format!("{}={}", name.get_ref(), e.get_ref()),
            )
        }
        None => (Test::Fact(f), name.get_ref().clone()),
    };
    Some(Cond {
        test,
        negated: false,
        written,
        at: name.span(),
    })
}

/// A value compared with a closed-set fact must be one of its values.
fn check_value(
    f: FactId,
    value: &str,
    at: Range<usize>,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) -> Option<()> {
    let fact = &names.facts[f];
    if fact.list.is_some() {
        sink.error(
            Some(at),
            format!("list fact `{}` has no single value to compare", fact.name),
            Some(format!(
                "test whether it is given (non-empty): `{}`",
                fact.name
            )),
        );
        return None;
    }
    match &fact.values {
        Some((_, values)) if !values.iter().any(|v| v == value) => {
            sink.error(
                Some(at),
                format!("`{value}` is not a value of fact `{}`", fact.name),
                Some(hint(value, values.iter().map(String::as_str), "values")),
            );
            None
        }
        _ => Some(()),
    }
}

/// A layer may not be gated on whether a layer of a later tier is filled: its cached block
/// would change with that tier's values (without declared tiers: stable on volatile).
pub(super) fn check_tiers(layers: &[(Spanned<()>, Layer)], tiers: &Tiers, sink: &mut Sink<'_>) {
    let layers: Vec<&Layer> = layers.iter().map(|(_, l)| l).collect();
    for l in &layers {
        for c in l.conds() {
            let Test::Filled(other) = &c.test else {
                continue;
            };
            let Some(o) = layers.iter().find(|o| &o.name == other) else {
                continue;
            };
            if o.tier_index <= l.tier_index {
                continue;
            }
            let (message, help) = match tiers.declared {
                false => (
                    format!("stable layer `{}` is gated on volatile layer `{other}`", l.name),
                    format!("whether `{other}` is filled changes per turn, and the stable prefix is what the provider caches: make `{}` volatile too", l.name),
                ),
                true => {
                    let (mine, theirs) = (&tiers.names[l.tier_index], &tiers.names[o.tier_index]);
                    (
                        format!("layer `{}` of tier `{mine}` is gated on layer `{other}` of the later tier `{theirs}`", l.name),
                        format!("whether `{other}` is filled changes with tier `{theirs}`, and tier `{mine}` is cached before it: mark `{}` `tier = \"{theirs}\"` (and move it below `{other}`'s tier), or drop the condition", l.name),
                    )
                }
            };
            sink.error(Some(c.at.clone()), message, Some(help));
        }
    }
}
