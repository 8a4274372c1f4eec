//! A combination's readable name, for tools that list prompts: as generated
//! `Combination`s name themselves (the runtime's `combination_name`: the role, the flags
//! on, every knob as `name=value`), then, when choices are combined too, each choice
//! layer given as `layer=variant` (the variant's file stem).

use std::fmt;

use super::inputs::Combination;
use super::model::{Content, Doctrine};
use doctrine_core::__internals::combination::combination_name;

/// The name of `c`, a combination of `d`; `choices`: whether choices were combined.
pub fn name(d: &Doctrine, c: &Combination, choices: bool) -> String {
    Name(d, c, choices).to_string()
}

struct Name<'a>(&'a Doctrine, &'a Combination, bool);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Name(d, c, choices) = *self;
        let role = d.roles.get(c.role).map(String::as_str);
        let flags: Vec<&str> = d.flags.iter().map(|f| f.name.as_str()).collect();
        let mut pairs: Vec<(&str, &str)> = d
            .knobs
            .iter()
            .zip(&c.knobs)
            .map(|(k, &v)| (k.name.as_str(), k.values[v].as_str()))
            .collect();
        if choices {
            pairs.extend(choice_pairs(d, c));
        }
        combination_name(f, role, (&flags, &|i| c.flags[i]), &pairs)
    }
}

/// Each choice layer given in `c`, as `(layer, variant's file stem)`.
fn choice_pairs<'a>(d: &'a Doctrine, c: &Combination) -> Vec<(&'a str, &'a str)> {
    let layers = d.layers.iter().filter_map(|l| match &l.content {
        Content::Choice { variants, .. } => Some((l.name.as_str(), variants)),
        _ => None,
    });
    layers
        .zip(&c.choices)
        .filter_map(|((layer, variants), &v)| Some((layer, variants[v?].stem.as_str())))
        .collect()
}
