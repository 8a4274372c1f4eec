//! A layer's conditions as the runtime tests them: each condition by index into the
//! composition's inputs, with the reason the layer is left out when it fails.

use super::indices::Indices;
use super::leak::{slice, text};
use crate::model::{self, Content, Doctrine, Layer};
use doctrine_core::__internals::plan::{Cond, Gate, Test};
use doctrine_core::introspect::Skip;

/// Layer `l`'s gate: its `when` conditions, its alternatives, its `unless` groups.
pub(super) fn gate(d: &Doctrine, ix: &Indices, l: &Layer) -> Gate {
    let mut gate = Gate::NONE;
    if !l.is_gated() {
        return gate;
    }
    if !l.when.is_empty() {
        let when = l.when.iter().map(|c| (cond(d, ix, c), when_fails(d, c)));
        gate = gate.when(slice(when.collect()));
    }
    if !l.when_any.is_empty() {
        let reason = Skip::When(text(&alternatives(&l.when_any)));
        let groups = l.when_any.iter().map(|g| conds(d, ix, g));
        gate = gate.when_any(slice(groups.collect()), reason);
    }
    let unless: Vec<(&'static [Cond], Skip)> = (!l.unless.is_empty())
        .then_some(&l.unless)
        .into_iter()
        .chain(&l.unless_any)
        .map(|group| {
            let written: Vec<String> = group.iter().map(|c| format!("`{}`", c.written)).collect();
            (conds(d, ix, group), Skip::Unless(text(&written.join(", "))))
        })
        .collect();
    if !unless.is_empty() {
        gate = gate.unless(slice(unless));
    }
    gate
}

/// Alternatives as written, for a skip reason and the layer table: `[a, b] or [c]`.
pub(crate) fn alternatives(groups: &[Vec<model::Cond>]) -> String {
    let groups: Vec<String> = groups
        .iter()
        .map(|g| {
            let written: Vec<&str> = g.iter().map(|c| c.written.as_str()).collect();
            format!("[{}]", written.join(", "))
        })
        .collect();
    groups.join(" or ")
}

fn conds(d: &Doctrine, ix: &Indices, group: &[model::Cond]) -> &'static [Cond] {
    slice(group.iter().map(|c| cond(d, ix, c)).collect())
}

/// Why the layer is left out when `when` condition `c` fails.
fn when_fails(d: &Doctrine, c: &model::Cond) -> Skip {
    match (&c.test, c.negated) {
        (model::Test::Flag(f), false) => Skip::FlagOff(text(&d.flags[*f].name)),
        (model::Test::Flag(f), true) => Skip::FlagOn(text(&d.flags[*f].name)),
        (model::Test::Fact(f), false) => Skip::FactAbsent(text(&d.facts[*f].name)),
        (model::Test::FactIs(f, _), false) => Skip::FactValue(text(&d.facts[*f].name)),
        _ => Skip::When(text(&c.written)),
    }
}

fn cond(d: &Doctrine, ix: &Indices, c: &model::Cond) -> Cond {
    let test = test(d, ix, &c.test);
    match c.negated {
        true => Cond::not(test),
        false => Cond::is(test),
    }
}

fn test(d: &Doctrine, ix: &Indices, t: &model::Test) -> Test {
    let n = |i: usize| i as u32;
    match t {
        model::Test::Flag(f) => Test::Flag(n(f.0)),
        // An empty list is absent: a list fact is tested on what it prints.
        model::Test::Fact(f) if d.facts[*f].list.is_some() => Test::Value(n(f.0)),
        model::Test::Fact(f) => Test::Fact(n(f.0)),
        model::Test::FactIs(f, v) => {
            let absent = Skip::FactAbsent(text(&d.facts[*f].name));
            Test::FactIs(n(f.0), text(v), absent)
        }
        model::Test::Filled(name) => filled(d, ix, name),
        model::Test::Overlay(field) => {
            let i = d.layers.iter().enumerate().find_map(|(i, l)| {
                l.overlay.as_ref().filter(|o| &o.field == field)?;
                ix.overlay[i]
            });
            Test::Overlay(n(i.unwrap_or_default()))
        }
    }
}

/// `layer:name`: a slot, choice, instructions or selector layer is in.
fn filled(d: &Doctrine, ix: &Indices, name: &str) -> Test {
    // Validation admits only names of such layers.
    let Some(i) = Indices::layer(d, name) else {
        return Test::Always;
    };
    let l = &d.layers[i];
    let n = |k: Option<usize>| k.unwrap_or_default() as u32;
    if let Some(s) = ix.selector[i] {
        let sel = l.selector.as_ref().map_or("", |x| x.name.as_str());
        return Test::Selector(s as u32, text(sel));
    }
    match &l.content {
        Content::Choice { optional: true, .. } => Test::Choice(n(ix.choice[i])),
        Content::Choice { .. } => Test::Always,
        Content::Instructions => Test::Instructions(n(ix.instructions[i])),
        _ => Test::Slot(n(ix.slot[i])),
    }
}
