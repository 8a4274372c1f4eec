//! Facts given by name and string, checked as generated `Facts::from_pairs` and
//! `Facts::builder` check them, and list facts given item by item.

use super::error::{find, InputError};
use crate::model::{Doctrine, Fact, FieldKind, ListSpec, Need};
use crate::plan::{list_style, static_text};
use doctrine_core::__internals::list::{ListStyle, Row};
use doctrine_core::__private::{CleanedFrom, Removed};
use doctrine_load::__internals::clean::{sanitize, sanitize_given};

/// The facts of one composition, as its `Inputs` reads them.
#[derive(Clone, Debug, Default)]
pub(super) struct GivenFacts {
    /// Per fact: its value as generated `__values` gives it (a list's is `None`).
    pub(super) values: Vec<Option<String>>,
    /// The list facts given at least one item.
    pub(super) lists: Vec<GivenList>,
    /// The facts `sanitize` changed, as compiled code records them.
    pub(super) cleaned: Vec<(CleanedFrom, Removed)>,
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

impl Rows {
    /// Every field of every item cleaned as fact `f` says; what went.
    fn clean(&mut self, f: &Fact) -> Removed {
        let mut went = Removed::default();
        let mut one = |s: &mut String| {
            let (out, removed) = sanitize(s, f.sanitize);
            went = went.and(removed);
            *s = out.into_owned();
        };
        match self {
            Rows::Plain(items) => items.iter_mut().for_each(&mut one),
            Rows::Fields(items) => items.iter_mut().flat_map(|i| &mut i.0).for_each(&mut one),
        }
        went
    }
}

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
                 `Skills`; it lists the shipped skills, and the user's from each skill \
                 directory given (`--skills DIR`)"
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
    // Cleaned as compiled code cleans them: nothing left is not given.
    let mut cleaned = Vec::new();
    let kept: Vec<Option<std::borrow::Cow<'_, str>>> = d
        .facts
        .iter()
        .zip(&given)
        .map(|(f, &value)| {
            let (out, went) = sanitize_given(value, f.sanitize);
            if f.list.is_none() && !f.sanitize.is_none() {
                cleaned.push((CleanedFrom::Fact(static_text(&f.name)), went));
            }
            out
        })
        .collect();
    let raw = given;
    let given: Vec<Option<&str>> = kept.iter().map(Option::as_deref).collect();
    for l in &mut lists {
        let f = &d.facts[l.fact];
        if !f.sanitize.is_none() {
            let went = l.rows.clean(f);
            cleaned.push((CleanedFrom::Fact(static_text(&f.name)), went));
        }
    }
    let values = d
        .facts
        .iter()
        .zip(given.iter().zip(&raw))
        .map(|(f, (&value, raw))| {
            let value = match need(f) {
                Need::Absent => return Ok(None),
                _ if f.list.is_some() => return Ok(None),
                // Given, it may have been cleaned to nothing: then it is not given, as
                // compiled code reads it.
                Need::Required => match raw {
                    None => Err(InputError::MissingFact {
                        role: who.to_string(),
                        fact: f.name.clone(),
                    })?,
                    Some(_) => return Ok(value.map(str::to_string)),
                },
                // An optional free-text fact given empty is absent; absent, its default.
                Need::Optional => match value.filter(|v| f.values.is_some() || !v.is_empty()) {
                    Some(v) => v,
                    None => return Ok(f.default.clone()),
                },
            };
            Ok(Some(value.to_string()))
        });
    let values = values.collect::<Result<_, _>>()?;
    Ok(GivenFacts {
        values,
        lists,
        cleaned,
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
/// A bool field is `true` or `false`, as the runtime reads it (`"true"` or empty). A
/// nested struct's fields are `outer.field=value`; the struct is `Some` (read as `"true"`)
/// when one of them is given, else `None`.
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
            Some(FieldKind::Struct) => {
                let first = spec.nested(k).next().map_or("", |i| fields[i].as_str());
                return Err(InputError::Unsupported(format!(
                    "field `{}` of list fact `{}` is a nested struct: give its fields (`{first}=…`); it is there when one of them is",
                    fields[k], f.name
                )));
            }
            _ => value,
        };
        if let Some((outer, _)) = fields[k].split_once('.') {
            if let Some(o) = fields.iter().position(|x| x == outer) {
                row[o] = Some("true".into());
            }
        }
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

/// Each fact's byte budget lowered by name (`(fact, bytes)`), as the builder's
/// `.max_bytes_<fact>(n)` lowers it: only a list fact with `max_bytes` that a role takes
/// has one (the builder's method exists for no other); given twice, the lower stands.
pub(super) fn budgets(
    d: &Doctrine,
    given: &[(String, usize)],
) -> Result<Vec<Option<usize>>, InputError> {
    let budgeted: Vec<(usize, &str)> = d
        .facts
        .iter()
        .enumerate()
        .filter(|(_, f)| f.need.iter().any(|n| *n != Need::Absent))
        .filter(|(_, f)| f.list.as_ref().is_some_and(|l| l.max_bytes.is_some()))
        .map(|(i, f)| (i, f.name.as_str()))
        .collect();
    let mut budgets = vec![None; d.facts.len()];
    for (name, bytes) in given {
        let kind = "list fact with a byte budget (`max_bytes`)";
        let k = find(kind, name, budgeted.iter().map(|(_, n)| *n))?;
        let budget: &mut Option<usize> = &mut budgets[budgeted[k].0];
        *budget = Some(budget.map_or(*bytes, |b| b.min(*bytes)));
    }
    Ok(budgets)
}
