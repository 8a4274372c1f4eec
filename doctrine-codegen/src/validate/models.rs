//! `[models]`: each rule's choice variants, flags and family checked against the
//! manifest, at the key or value that names them.

use toml::Spanned;

use super::formulation::lowercase_key;
use super::hint::hint;
use super::names::Names;
use crate::diag::Sink;
use crate::model::{Content, Formulations, Layer, ModelRule, Models};
use crate::raw::{FamilyMatch, ModelRule as RawRule, ModelsTable, Name};
use doctrine_core::__internals::formulation::family_key;

/// What [`rule`] checks a rule against.
struct Against<'a> {
    names: &'a Names<'a>,
    /// The choice layers, in manifest order.
    choices: Vec<&'a Layer>,
    formulation: &'a Formulations,
    titled: bool,
}

/// The table, resolved; errors for every name it gets wrong.
pub(super) fn models(
    table: &ModelsTable,
    names: &Names<'_>,
    layers: &[(Spanned<()>, Layer)],
    formulation: &Formulations,
    sink: &mut Sink<'_>,
) -> Models {
    let against = Against {
        names,
        choices: layers
            .iter()
            .map(|(_, l)| l)
            .filter(|l| matches!(l.content, Content::Choice { .. }))
            .collect(),
        formulation,
        titled: layers.iter().any(|(_, l)| l.title.is_some()),
    };
    let rules = table.rules.iter().map(|(key, raw)| {
        lowercase_key(key, ["model", "model names"], "a model, e.g. `big-2`", sink);
        rule(key.get_ref(), raw.get_ref(), &against, sink)
    });
    Models {
        rules: rules.collect(),
        default: table.default.as_ref().map_or_else(
            || ModelRule {
                key: "default".into(),
                ..ModelRule::default()
            },
            |raw| rule("default", raw.get_ref(), &against, sink),
        ),
        exact: table
            .match_
            .as_ref()
            .is_some_and(|m| *m.get_ref() == FamilyMatch::Exact),
    }
}

fn rule(key: &str, raw: &RawRule, a: &Against<'_>, sink: &mut Sink<'_>) -> ModelRule {
    let mut choices: Vec<(usize, usize)> = raw
        .choices
        .iter()
        .filter_map(|(layer, variant)| choice(layer, variant, a, sink))
        .collect();
    choices.sort_unstable();
    ModelRule {
        key: key.to_string(),
        choices,
        flags: raw.flags.iter().filter_map(|f| flag(f, a, sink)).collect(),
        family: raw.family.as_ref().and_then(|f| family(f, a, sink)),
    }
}

/// A choice layer's name and one of its variants (a file stem of its `dir`).
fn choice(
    layer: &Name,
    variant: &Name,
    a: &Against<'_>,
    sink: &mut Sink<'_>,
) -> Option<(usize, usize)> {
    let names = || a.choices.iter().map(|l| l.name.as_str());
    let Some(c) = a.choices.iter().position(|l| l.name == *layer.get_ref()) else {
        sink.error(
            Some(layer.span()),
            format!("`{}` is not a choice layer (a model rule sets choice layers, `flags` and `family`)", layer.get_ref()),
            Some(hint(layer.get_ref(), names(), "choice layers")),
        );
        return None;
    };
    let Content::Choice { variants, .. } = &a.choices[c].content else {
        return None;
    };
    let stems = || variants.iter().map(|v| v.stem.as_str());
    match stems().position(|s| s == variant.get_ref()) {
        Some(v) => Some((c, v)),
        None => {
            sink.error(
                Some(variant.span()),
                format!(
                    "choice layer `{}` has no variant `{}`",
                    layer.get_ref(),
                    variant.get_ref()
                ),
                Some(hint(
                    variant.get_ref(),
                    stems(),
                    "its variants (file stems)",
                )),
            );
            None
        }
    }
}

fn flag(name: &Name, a: &Against<'_>, sink: &mut Sink<'_>) -> Option<usize> {
    let flags = || a.names.flags.iter().map(|f| f.name.as_str());
    let found = flags().position(|f| f == name.get_ref());
    if found.is_none() {
        sink.error(
            Some(name.span()),
            format!("unknown flag `{}` in a model rule", name.get_ref()),
            Some(hint(name.get_ref(), flags(), "declared flags")),
        );
    }
    found
}

/// The family's formulation, looked up in `[formulation] families` as `.family()` would:
/// a family the table does not name, or one with no titled layer to delimit, does nothing,
/// so it is refused.
fn family(
    name: &Name,
    a: &Against<'_>,
    sink: &mut Sink<'_>,
) -> Option<(String, doctrine_core::input::Formulation)> {
    let f = a.formulation;
    let table: Vec<(&str, _)> = f.families.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    if !a.titled {
        sink.error(
            Some(name.span()),
            format!(
                "family `{}` changes nothing: no layer has a `title` to delimit",
                name.get_ref()
            ),
            Some("remove `family`, or give a layer a `title`".into()),
        );
        return None;
    }
    match family_key(name.get_ref(), &table, f.exact) {
        Some((_, formulation)) => Some((name.get_ref().clone(), formulation)),
        None => {
            sink.error(
                Some(name.span()),
                format!(
                    "family `{}` matches no key of `[formulation] families`",
                    name.get_ref()
                ),
                Some(hint(
                    name.get_ref(),
                    table.iter().map(|(k, _)| *k),
                    "families",
                )),
            );
            None
        }
    }
}
