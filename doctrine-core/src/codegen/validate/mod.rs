//! [`super::raw::Manifest`] → [`super::model::Doctrine`]: resolves every name, loads every file and
//! collects every error rather than stopping at the first.

use std::path::PathBuf;

use super::diag::Sink;
use super::load::Loader;
use super::model::Doctrine;
use super::raw::Manifest;
use names::Names;
use types::TypeNames;

mod at;
mod budget;
mod claims;
mod content;
mod declare;
mod facts;
mod formulation;
mod gate;
mod hint;
mod idents;
mod kind;
mod layer;
mod list;
mod literal;
mod locked;
mod names;
mod order;
mod overlay;
mod placeholder;
mod provenance;
mod reminders;
mod selector;
mod shared;
mod skill_index;
mod skills;
mod stages;
mod suffix;
mod template;
mod tier_uses;
mod tiers;
mod types;
mod uses;

pub use placeholder::{placeholders, Piece, TemplateError};

pub(super) struct Context {
    pub manifest: PathBuf,
    pub manifest_display: String,
    pub crate_dir: PathBuf,
    pub base_dir: PathBuf,
    pub krate: proc_macro2::TokenStream,
}

/// Every check, in the order its diagnostics are reported: the declarations, each layer,
/// then what spans layers.
pub(super) fn validate(raw: Manifest, cx: Context, sink: &mut Sink<'_>) -> Option<Doctrine> {
    let mut loader = Loader::new(cx.crate_dir.clone(), cx.base_dir.clone());
    // A copy, so checks can read it while reporting into the sink.
    let reported = sink.reported().clone();
    let roles = declare::roles(&raw, sink);
    let tiers = tiers::tiers(&raw, sink);
    let mut flags = declare::flags(&raw, sink);
    let mut knobs = declare::knobs(&raw, sink);
    tiers::settings(&raw, &tiers, &mut flags, &mut knobs, sink);
    let word = if raw.roles.modes { "mode" } else { "role" };
    let facts = facts::facts(&raw, &roles, &tiers, word, sink);
    let declared = (&roles[..], &flags[..], &knobs[..], &facts[..]);
    let names = Names::new(&raw, declared, &tiers, word, &reported);
    if let Some(separator) = &raw.separator {
        let printed = literal::Printed {
            key: "separator",
            layer: None,
        };
        literal::check(printed, separator, &names, sink);
    }
    layer::no_layers(&raw, &reported, sink);
    let trim = raw.trim.unwrap_or(false);
    let mut types = TypeNames::declared(&raw, &names, sink);
    let mut layers = layer::layers(&raw, &names, trim, &mut types, &mut loader, sink);
    layers.extend(layer::extra(&raw, trim, &tiers, sink));
    overlay::check_files(&layers, sink);
    selector::check_selectors(&mut layers, sink);
    stages::check(&layers, sink);
    order::check_tiers(&layers, &tiers, sink);
    gate::check_tiers(&layers, &tiers, sink);
    tier_uses::check(&layers, &names, &loader.texts, sink);
    shared::check(&layers, &names, &loader.texts, sink);
    order::check_orders(&raw, &layers, sink);
    budget::check(&raw, &names, &layers, &loader, sink);
    let budget = budget::ceilings(&raw, &names);
    let overlay_cap_max = overlay::cap_max(&raw, &layers, sink);
    let claims = claims::claims(&raw, sink);
    let formulation = formulation::formulation(&raw, sink);
    let reminders = raw.reminders.as_ref().and_then(|r| {
        let reminders = reminders::reminders(r, sink)?;
        reminders::check_not_in_prefix(r, &reminders, &layers, &loader.texts, sink);
        Some(reminders)
    });
    let skills = raw
        .skills
        .as_ref()
        .and_then(|t| skills::skills(t, &mut loader, sink));
    if sink.has_errors() {
        return None;
    }
    Some(Doctrine {
        krate: cx.krate,
        manifest: cx.manifest,
        manifest_display: cx.manifest_display,
        // Normalised like file text, so a CRLF checkout gives the same bytes.
        separator: raw.separator.as_ref().map_or_else(
            || literal::DEFAULT_SEPARATOR.to_string(),
            |s| super::text::normalise(s.get_ref()),
        ),
        budget,
        overlay_cap_max,
        overlay_cap_max_declared: raw.overlay_cap_max.is_some(),
        roles,
        role_word: word,
        tiers: tiers.clone(),
        facts,
        flags,
        knobs,
        layers: layers.into_iter().map(|(_, l)| l).collect(),
        texts: loader.texts,
        tracked: loader.tracked,
        formulation,
        claims,
        reminders,
        skills,
    })
}
