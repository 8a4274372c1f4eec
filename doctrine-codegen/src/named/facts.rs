//! Facts given by name and string, checked as generated `Facts::from_pairs` and
//! `Facts::builder` check them, and list facts given item by item.

use super::error::{find, InputError};
use crate::model::{Doctrine, Fact, FieldKind, ListSpec, Need};
use crate::plan::list_style;
use doctrine_core::__internals::list::{ListStyle, Row};

/// The facts of one composition, as its `Inputs` reads them.
#[derive(Clone, Debug, Default)]
pub(super) struct GivenFacts {
    /// Per fact: its value as generated `__values` gives it (a list's is `None`).
    pub(super) values: Vec<Option<String>>,
    /// The list facts given at least one item.
    pub(super) lists: Vec<GivenList>,
}

/// A list fact's items, with the style it prints in.
#[derive(Clone, Debug)]
pub(super) struct GivenList {
    pub(super) fact: usize,
    pub(super) style: &'static ListStyle,
    pub(super) rows: Rows,
}

/// A plain list's items are strings (`&[&str]`); an item with named fields is a row of
/// them (a generated `…Item` struct).
#[derive(Clone, Debug)]
pub(super) enum Rows {
    Plain(Vec<String>),
    Fields(Vec<Item>),
}

/// One item with named fields, in the order of the list's `fields` ("" when not given).
#[derive(Clone, Debug)]
pub(super) struct Item(Vec<String>);

impl Row for Item {
    fn field(&self, i: usize) -> &str {
        self.0.get(i).map_or("", String::as_str)
    }
}

/// The facts of role `role` (called `who` in messages) from `pairs`: a fact the role does
/// not take, a repeated one, a value outside a fact's closed set or a required fact not
/// given is refused, as compiled code refuses it. A list fact takes one item per pair;
/// an item with named fields is written `field=value;field=value`.
pub(super) fn facts(
    d: &Doctrine,
    role: usize,
    who: &str,
    pairs: &[(String, String)],
) -> Result<GivenFacts, InputError> {
    let need = |f: &Fact| f.need.get(role).copied().unwrap_or(Need::Absent);
    let takes = || d.facts.iter().filter(|f| need(f) != Need::Absent);
    let mut given: Vec<Option<&str>> = vec![None; d.facts.len()];
    let mut lists: Vec<GivenList> = Vec::new();
    for (name, value) in pairs {
        let Some(i) = d
            .facts
            .iter()
            .position(|f| f.name == *name && need(f) != Need::Absent)
        else {
            return Err(InputError::NotTaken {
                role: who.to_string(),
                fact: name.clone(),
                takes: takes().map(|f| f.name.clone()).collect(),
            });
        };
        let f = &d.facts[i];
        if f.skill_index {
            return Err(InputError::Unsupported(format!(
                "fact `{name}` is the skill index, which compiled code is given as loaded \
                 `Skills`; it cannot be given by name"
            )));
        }
        if f.list.is_some() {
            push_item(f, i, value, &mut lists)?;
            continue;
        }
        if let Some((_, values)) = &f.values {
            find(
                format!("value of fact `{name}`"),
                value,
                values.iter().map(String::as_str),
            )?;
        }
        if given[i].replace(value).is_some() {
            return Err(InputError::Repeated {
                kind: "fact",
                name: name.clone(),
            });
        }
    }
    let values = d.facts.iter().zip(&given).map(|(f, &value)| {
        let value = match need(f) {
            Need::Absent => return Ok(None),
            _ if f.list.is_some() => return Ok(None),
            Need::Required => value.ok_or_else(|| InputError::MissingFact {
                role: who.to_string(),
                fact: f.name.clone(),
            })?,
            // An optional free-text fact given empty is absent; absent, its default.
            Need::Optional => match value.filter(|v| f.values.is_some() || !v.is_empty()) {
                Some(v) => v,
                None => return Ok(f.default.clone()),
            },
        };
        Ok(Some(value.to_string()))
    });
    Ok(GivenFacts {
        values: values.collect::<Result<_, _>>()?,
        lists,
    })
}

/// Adds `value` as one item of list fact `f` (fact `i`).
fn push_item(
    f: &Fact,
    i: usize,
    value: &str,
    lists: &mut Vec<GivenList>,
) -> Result<(), InputError> {
    let (Some(spec), Some(style)) = (&f.list, list_style(f)) else {
        return Ok(());
    };
    let at = match lists.iter().position(|l| l.fact == i) {
        Some(at) => at,
        None => {
            let rows = match spec.fields.is_empty() {
                true => Rows::Plain(Vec::new()),
                false => Rows::Fields(Vec::new()),
            };
            lists.push(GivenList {
                fact: i,
                style,
                rows,
            });
            lists.len() - 1
        }
    };
    match &mut lists[at].rows {
        Rows::Plain(items) => items.push(value.to_string()),
        Rows::Fields(items) => items.push(item(f, spec, value)?),
    }
    Ok(())
}

/// An item with named fields from `field=value;field=value`.
/// A bool field is `true` or `false`, as the runtime reads it (`"true"` or empty).
fn item(f: &Fact, spec: &ListSpec, text: &str) -> Result<Item, InputError> {
    let fields = &spec.fields;
    let mut row = vec![None; fields.len()];
    for pair in text.split(';').filter(|p| !p.trim().is_empty()) {
        let (field, value) = pair.split_once('=').unwrap_or((pair, ""));
        let kind = format!("field of list fact `{}`", f.name);
        let k = find(kind, field.trim(), fields.iter().map(String::as_str))?;
        let value = match spec.kinds.get(k) {
            Some(FieldKind::Bool) => match value.trim() {
                "true" => "true",
                "false" => "",
                other => {
                    return Err(InputError::Unsupported(format!(
                    "field `{}` of list fact `{}` is a bool: give `true` or `false`, not `{other}`",
                    fields[k], f.name
                )))
                }
            },
            _ => value,
        };
        if row[k].replace(value.to_string()).is_some() {
            return Err(InputError::Repeated {
                kind: "item field",
                name: fields[k].clone(),
            });
        }
    }
    Ok(Item(
        row.into_iter().map(Option::unwrap_or_default).collect(),
    ))
}
