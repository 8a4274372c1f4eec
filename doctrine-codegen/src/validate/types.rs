//! The types the generated code defines: one owner each, and none of the generator's own.

use std::collections::HashMap;
use std::ops::Range;

use toml::Spanned;

use super::names::Names;
use crate::diag::Sink;
use crate::model::FieldKind;
use crate::names::camel;
use crate::raw::{Manifest, Name};
use crate::reserved;

/// Each type name taken so far, and what takes it ("knob `tone`").
pub(super) struct TypeNames(HashMap<String, String>);

impl TypeNames {
    /// Every type the generator defines itself, and its builder's generic parameter, then
    /// the declarations' types: knobs' and facts' enums, list items, each role's facts.
    pub(super) fn declared(raw: &Manifest, names: &Names<'_>, sink: &mut Sink<'_>) -> Self {
        let mut types = TypeNames(
            reserved::TYPES
                .split_whitespace()
                .map(|t| (t.to_string(), "generated code".to_string()))
                .collect(),
        );
        for knob in names.knobs {
            let owner = format!("knob `{}`", knob.name);
            types.claim(&knob.enum_name, &owner, at(&raw.knobs, &knob.name), sink);
        }
        for fact in names.facts {
            if let Some((enum_name, _)) = &fact.values {
                let owner = format!("fact `{}`", fact.name);
                types.claim(enum_name, &owner, at(&raw.facts, &fact.name), sink);
            }
            if let Some(item) = fact.item_type() {
                let owner = format!("the items of list fact `{}`", fact.name);
                types.claim(&item, &owner, at(&raw.facts, &fact.name), sink);
                let list = fact.list.iter();
                let nested = list.flat_map(|l| l.fields.iter().zip(&l.kinds));
                for (field, _) in nested.filter(|(_, k)| **k == FieldKind::Struct) {
                    let owner = format!("nested field `{field}` of list fact `{}`", fact.name);
                    let span = field_at(raw, &fact.name, field).or(at(&raw.facts, &fact.name));
                    types.claim(&fact.nested_type(field), &owner, span, sink);
                }
            }
        }
        if !names.facts.is_empty() {
            for role in names.roles {
                let owner = format!("the facts of {} `{role}`", names.word);
                let declared = raw.roles.names.iter().find(|r| r.get_ref() == role);
                let ty = format!("{}Facts", camel(role));
                types.claim(&ty, &owner, declared.map(Spanned::span), sink);
            }
        }
        types
    }

    /// Takes `name` for `owner`, or reports the type's earlier owner.
    pub(super) fn claim(
        &mut self,
        name: &str,
        owner: &str,
        span: Option<Range<usize>>,
        sink: &mut Sink<'_>,
    ) {
        if let Some(prev) = self.0.get(name) {
            sink.error(
                span,
                format!("{owner} would generate a type `{name}`, which {prev} already defines"),
                Some("rename it, or for a `dir` layer set `choice = \"OtherName\"`".into()),
            );
        } else {
            self.0.insert(name.to_string(), owner.to_string());
        }
    }
}

/// Where item field `field` of list fact `fact` is declared.
fn field_at(raw: &Manifest, fact: &str, field: &str) -> Option<Range<usize>> {
    let (_, f) = raw.facts.iter().find(|(n, _)| n.get_ref() == fact)?;
    let fields = f.list.as_ref()?.get_ref().fields.as_ref()?;
    let (name, _) = fields
        .get_ref()
        .0
        .iter()
        .find(|(n, _)| n.get_ref() == field)?;
    Some(name.span())
}

/// Where `name` is declared in `list` (knobs, facts).
fn at<T>(list: &[(Name, T)], name: &str) -> Option<Range<usize>> {
    list.iter()
        .find(|(n, _)| n.get_ref() == name)
        .map(|(n, _)| n.span())
}
