//! [`super::raw::Manifest`] → [`super::model::Doctrine`]: resolves every name, loads every
//! file and collects every error rather than stopping at the first. This file is the
//! pipeline: [`validate`] runs its steps in the order their diagnostics are reported, and
//! each step names the checks it runs, which live in the modules below.

use std::path::PathBuf;

use toml::Spanned;

use super::diag::{Reported, Sink};
use super::load::Loader;
use super::model::{
    Claims, Doctrine, Fact, Flag, Formulations, Knob, Layer, Models, Reminders, SkillDef, Tiers,
};
use super::raw::Manifest;
use literal::{Printed, DEFAULT_SEPARATOR};
use names::Names;
use types::TypeNames;

mod at;
mod budget;
pub use budget::without_token_counts;
mod claims;
mod content;
mod declare;
mod escape;
mod facts;
mod formulation;
mod gate;
mod header;
mod hint;
mod idents;
mod item;
mod kind;
mod layer;
mod list;
mod literal;
mod locked;
mod loops;
mod messages;
mod models;
mod names;
mod order;
mod overlay;
mod placeholder;
mod provenance;
mod reminders;
mod sanitize;
mod selector;
mod shared;
mod skill_index;
mod skills;
mod stages;
mod suffix;
mod syntax;
mod template;
mod tier_uses;
mod tiers;
mod types;
mod uses;
mod wrap;

pub use doctrine_load::__internals::template::{jinja, standalone};
pub use placeholder::{
    item_placeholders, mustache, placeholders, Count, Piece, TemplateError, MAX_LOOPS,
    MAX_SECTION_DEPTH,
};

/// Where the manifest is and what it is judged against, and the crate path the model
/// carries through.
pub(super) struct Context {
    pub manifest: PathBuf,
    pub manifest_display: String,
    pub crate_dir: PathBuf,
    pub base_dir: PathBuf,
    pub krate: proc_macro2::TokenStream,
}

/// Every check, in the order its diagnostics are reported: the declarations, each layer,
/// what spans layers, then the tables beside them. A manifest with errors builds no model.
pub(super) fn validate(raw: Manifest, cx: Context, sink: &mut Sink<'_>) -> Option<Doctrine> {
    let mut loader = Loader::new(cx.crate_dir.clone(), cx.base_dir.clone());
    // A copy, so checks can read it while reporting into the sink.
    let reported = sink.reported().clone();
    let declared = declarations(&raw, &mut loader, sink);
    let names = declared.names(&raw, &reported);
    let mut layers = layers(&raw, &names, &reported, &mut loader, sink);
    across_layers(&raw, &names, &mut layers, &loader, sink);
    let tables = tables(&raw, &names, &layers, &mut loader, sink);
    loops::number(&mut loader.texts, sink);
    (!sink.has_errors()).then(|| doctrine(&raw, cx, declared, layers, loader, tables))
}

/// What the manifest declares before its layers.
struct Declared {
    roles: Vec<String>,
    tiers: Tiers,
    flags: Vec<Flag>,
    knobs: Vec<Knob>,
    facts: Vec<Fact>,
    /// `role`, or `mode` for a manifest that says `modes`.
    word: &'static str,
}

impl Declared {
    /// The declarations as the checks look names up.
    fn names<'a>(&'a self, raw: &Manifest, reported: &'a Reported) -> Names<'a> {
        let lists = (
            &self.roles[..],
            &self.flags[..],
            &self.knobs[..],
            &self.facts[..],
        );
        Names::new(raw, lists, &self.tiers, self.word, reported)
    }
}

/// Roles, tiers, flags and knobs (then the tiers `[cache] settings` gives them), facts.
fn declarations(raw: &Manifest, loader: &mut Loader, sink: &mut Sink<'_>) -> Declared {
    let roles = declare::roles(raw, sink);
    let tiers = tiers::tiers(raw, sink);
    let mut flags = declare::flags(raw, sink);
    let mut knobs = declare::knobs(raw, sink);
    tiers::settings(raw, &tiers, &mut flags, &mut knobs, sink);
    let word = if raw.roles.modes { "mode" } else { "role" };
    let facts = facts::facts(raw, &roles, &tiers, word, loader, sink);
    Declared {
        roles,
        tiers,
        flags,
        knobs,
        facts,
        word,
    }
}

/// The separator, then each layer on its own (and `extra`'s), with the types they define.
fn layers(
    raw: &Manifest,
    names: &Names<'_>,
    reported: &Reported,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Vec<(Spanned<()>, Layer)> {
    if let Some(separator) = &raw.separator {
        let printed = Printed {
            key: "separator",
            layer: None,
        };
        literal::check(printed, separator, names, sink);
    }
    layer::no_layers(raw, reported, sink);
    let trim = raw.trim.unwrap_or_default();
    let mut types = TypeNames::declared(raw, names, sink);
    let mut layers = layer::layers(raw, names, trim, &mut types, loader, sink);
    layers.extend(layer::extra(raw, trim, names.tiers, sink));
    layers
}

/// What spans layers: overlay files, selectors, builder stages, tiers, what each tier
/// uses, shared tiers, order constraints and the budget.
fn across_layers(
    raw: &Manifest,
    names: &Names<'_>,
    layers: &mut [(Spanned<()>, Layer)],
    loader: &Loader,
    sink: &mut Sink<'_>,
) {
    overlay::check_files(layers, sink);
    selector::check_selectors(layers, sink);
    stages::check(layers, sink);
    order::check_tiers(layers, names.tiers, sink);
    gate::check_tiers(layers, names.tiers, sink);
    tier_uses::check(layers, names, &loader.texts, sink);
    shared::check(layers, names, &loader.texts, sink);
    order::check_orders(raw, layers, sink);
    messages::assign(raw, names, layers, sink);
    if let Some(table) = &raw.budget {
        budget::check(raw, table.get_ref(), names, layers, loader, sink);
    }
}

/// The tables beside the layers, each validated.
struct Tables {
    budget: Option<Vec<Option<usize>>>,
    overlay_cap_max: Option<usize>,
    claims: Vec<Claims>,
    formulation: Formulations,
    models: Option<Models>,
    reminders: Option<Reminders>,
    skills: Option<Vec<SkillDef>>,
}

/// Budget ceilings, the overlay cap, claims, formulation, models, reminders (none printed in the
/// cached prefix) and shipped skills.
fn tables(
    raw: &Manifest,
    names: &Names<'_>,
    layers: &[(Spanned<()>, Layer)],
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Tables {
    let texts = &loader.texts;
    let budget = raw
        .budget
        .as_ref()
        .map(|table| budget::ceilings(table.get_ref(), names));
    let overlay_cap_max = overlay::cap_max(raw, layers, sink);
    let claims = claims::claims(raw, sink);
    let formulation = raw
        .formulation
        .as_ref()
        .map_or_else(formulation::absent, |table| {
            formulation::formulation(raw, table.get_ref(), sink)
        });
    Tables {
        models: raw
            .models
            .as_ref()
            .map(|t| models::models(t.get_ref(), names, layers, &formulation, sink)),
        budget,
        overlay_cap_max,
        claims,
        formulation,
        reminders: raw.reminders.as_ref().and_then(|r| {
            let checked = reminders::reminders(r, sink);
            checked.inspect(|m| reminders::check_not_in_prefix(r, m, layers, texts, sink))
        }),
        skills: raw
            .skills
            .as_ref()
            .and_then(|table| skills::skills(table, loader, sink)),
    }
}

/// The model, from a manifest without errors.
fn doctrine(
    raw: &Manifest,
    cx: Context,
    declared: Declared,
    layers: Vec<(Spanned<()>, Layer)>,
    loader: Loader,
    tables: Tables,
) -> Doctrine {
    Doctrine {
        krate: cx.krate,
        manifest: cx.manifest,
        manifest_display: cx.manifest_display,
        // Normalised like file text, so a CRLF checkout gives the same bytes.
        separator: raw.separator.as_ref().map_or_else(
            || DEFAULT_SEPARATOR.to_string(),
            |s| super::text::normalise(s.get_ref()),
        ),
        budget: tables.budget,
        sanitize: sanitize::manifest(raw),
        overlay_cap_max: tables.overlay_cap_max,
        overlay_cap_max_declared: raw.overlay_cap_max.is_some(),
        roles: declared.roles,
        role_word: declared.word,
        tiers: declared.tiers,
        facts: declared.facts,
        flags: declared.flags,
        knobs: declared.knobs,
        layers: layers.into_iter().map(|(_, l)| l).collect(),
        texts: loader.texts,
        tracked: loader.tracked,
        formulation: tables.formulation,
        models: tables.models,
        claims: tables.claims,
        reminders: tables.reminders,
        skills: tables.skills,
    }
}
