//! [`super::raw::Manifest`] → [`super::model::Doctrine`]: resolves every name, loads every file and
//! collects every error rather than stopping at the first.

use std::collections::HashMap;
use std::path::PathBuf;

use toml::Spanned;

use super::diag::{Reported, Sink};
use super::load::Loader;
use super::model::{Content, Doctrine, Fact, Flag, Formulations, Knob, Layer, RoleId, Tiers};
use super::names::{closest, snake_ident_problem};
use super::raw::{Manifest, Name};
use super::reserved;
use declare::{flags, knobs, roles};
use order::{check_orders, check_tiers};
use types::TypeNames;

mod at;
mod budget;
mod claims;
mod content;
mod declare;
mod facts;
mod gate;
mod kind;
mod layer;
mod list;
mod literal;
mod locked;
mod order;
mod overlay;
mod placeholder;
mod provenance;
mod reminders;
mod selector;
mod shared;
mod skill_index;
mod skills;
mod suffix;
mod template;
mod tier_uses;
mod tiers;
mod types;
mod uses;

pub use placeholder::{placeholders, Piece, TemplateError};

const DEFAULT_SEPARATOR: &str = "\n\n---\n\n";
const DEFAULT_JOIN: &str = "\n\n";
/// Suffix texts are precomputed for every combination of the knobs they name.
const MAX_SUFFIX_COMBINATIONS: usize = 1024;

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
    let roles = roles(&raw, sink);
    let tiers = tiers::tiers(&raw, sink);
    let mut flags = flags(&raw, sink);
    let mut knobs = knobs(&raw, sink);
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
    no_layers(&raw, &reported, sink);
    let trim = raw.trim.unwrap_or(false);
    let mut types = TypeNames::declared(&raw, &names, sink);
    let mut layers = layer::layers(&raw, &names, trim, &mut types, &mut loader, sink);
    layers.extend(layer::extra(&raw, trim, &tiers, sink));
    overlay::check_files(&layers, sink);
    selector::check_selectors(&mut layers, sink);
    check_stage_names(&layers, sink);
    check_tiers(&layers, &tiers, sink);
    gate::check_tiers(&layers, &tiers, sink);
    tier_uses::check(&layers, &names, &loader.texts, sink);
    shared::check(&layers, &names, &loader.texts, sink);
    check_orders(&raw, &layers, sink);
    budget::check(&raw, &names, &layers, &loader, sink);
    let budget = budget::ceilings(&raw, &names);
    let overlay_cap_max = overlay::cap_max(&raw, &layers, sink);
    let claims = claims::claims(&raw, sink);
    let formulation = formulation(&raw, sink);
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
            || DEFAULT_SEPARATOR.to_string(),
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

/// A manifest without layers, when nothing else is wrong: a misspelt `[[layers]]` is
/// reported as an unknown key, and a layer that did not read was reported.
fn no_layers(raw: &Manifest, reported: &Reported, sink: &mut Sink<'_>) {
    if raw.layers.is_empty() && reported.layers.is_empty() && !sink.has_errors() {
        sink.error(
            Some(0..0),
            "the manifest declares no layers",
            Some("add at least one `[[layer]]` table with a `name` and its content (`file`, `files`, `text`, `texts`, `dir` or `slot`)".into()),
        );
    }
}

/// The manifest's formulation table. Keys are compared with a trimmed family name,
/// ignoring ASCII case, so a key with capitals or spaces could never match.
fn formulation(raw: &Manifest, sink: &mut Sink<'_>) -> Formulations {
    let Some(table) = &raw.formulation else {
        return Formulations {
            default: crate::Formulation::Markdown,
            families: Vec::new(),
            exact: false,
            escape: true,
        };
    };
    let table = table.get_ref();
    for key in table.families.keys() {
        let k = key.get_ref();
        let fixed = k.trim().to_ascii_lowercase();
        if *k != fixed || k.is_empty() {
            sink.error(
                Some(key.span()),
                format!(
                    "family `{k}` can never match: families are trimmed and compared in lowercase"
                ),
                Some(match fixed.is_empty() {
                    true => "name a model family, e.g. `claude`".to_string(),
                    false => format!("write `{fixed}`"),
                }),
            );
        }
    }
    Formulations {
        default: table
            .default
            .map_or(crate::Formulation::Markdown, crate::Formulation::from),
        families: table
            .families
            .iter()
            .map(|(k, v)| (k.get_ref().clone(), (*v).into()))
            .collect(),
        exact: table
            .match_
            .as_ref()
            .is_some_and(|m| *m.get_ref() == super::raw::FamilyMatch::Exact),
        escape: escape(raw, table, sink),
    }
}

/// `escape`: on unless `none`, which a manifest with a locked layer may not say (a locked
/// layer's section must not be one that run-time text can write).
fn escape(raw: &Manifest, table: &super::raw::FormulationTable, sink: &mut Sink<'_>) -> bool {
    let Some(none) = table
        .escape
        .as_ref()
        .filter(|e| *e.get_ref() == super::raw::Escape::None)
    else {
        return true;
    };
    let locked = raw.layers.iter().find(|l| {
        let l = l.get_ref();
        l.locked.as_ref().is_some_and(|b| *b.get_ref())
    });
    if let Some(layer) = locked {
        let name = layer.get_ref().name.get_ref();
        sink.error(
            Some(none.span()),
            format!(
                "`escape = \"none\"` would let run-time text write a heading or a tag that reads as locked layer `{name}`'s section"
            ),
            Some("remove `escape` (section boundaries in run-time text are then escaped, with a notice), or unlock every layer".into()),
        );
    }
    false
}

/// Each slot (and instructions layer) names a builder stage `Need<Name>`; two layers may
/// not name the same one (`step_1` and `step1`).
fn check_stage_names(layers: &[(Spanned<()>, Layer)], sink: &mut Sink<'_>) {
    let mut seen: HashMap<String, &str> = HashMap::new();
    for (_, l) in layers {
        if !matches!(l.content, Content::Slot { .. } | Content::Instructions) {
            continue;
        }
        let stage = super::names::camel(&l.name);
        if let Some(prev) = seen.insert(stage.clone(), &l.name) {
            sink.error(
                Some(l.at.name.clone()),
                format!(
                    "slot layers `{prev}` and `{}` name the same builder stage `Need{stage}`",
                    l.name
                ),
                Some("rename one of them".into()),
            );
        }
    }
}

struct Names<'a> {
    roles: &'a [String],
    /// Each role's place in `roles`: a lookup per named role, not a scan of them all, which
    /// grew with the square of the roles where every role names itself.
    role_ids: HashMap<&'a str, RoleId>,
    tiers: &'a Tiers,
    flags: &'a [Flag],
    knobs: &'a [Knob],
    facts: &'a [Fact],
    /// `role` or `mode`, for messages.
    word: &'static str,
    /// Knobs and facts whose declaration failed (already reported): uses stay quiet.
    broken: &'a [String],
    /// The role list failed to parse (already reported): role lookups stay quiet.
    roles_broken: bool,
    /// Slot, choice, instructions and selector layers, which a condition can test
    /// (`layer:name`).
    fillable: Vec<String>,
    /// Selector layers (also in `fillable`).
    selector_layers: Vec<String>,
    /// Overlay fields, which a condition can test (`overlay:name`).
    overlay_fields: Vec<String>,
}

impl<'a> Names<'a> {
    /// `declared`: the roles, flags, knobs and facts.
    #[allow(clippy::type_complexity)]
    fn new(
        raw: &Manifest,
        (roles, flags, knobs, facts): (&'a [String], &'a [Flag], &'a [Knob], &'a [Fact]),
        tiers: &'a Tiers,
        word: &'static str,
        reported: &'a Reported,
    ) -> Self {
        Names {
            roles,
            // Reversed, so that the first of two same names wins, as a search would find it.
            role_ids: roles
                .iter()
                .enumerate()
                .rev()
                .map(|(i, r)| (r.as_str(), RoleId(i)))
                .collect(),
            tiers,
            flags,
            knobs,
            facts,
            word,
            broken: &reported.names,
            roles_broken: reported.roles,
            fillable: gate::fillable(raw),
            selector_layers: raw
                .layers
                .iter()
                .filter(|l| l.get_ref().selector.is_some())
                .map(|l| l.get_ref().name.get_ref().clone())
                .collect(),
            overlay_fields: gate::overlay_fields(raw),
        }
    }

    /// Whether a `file` path is a pattern: it holds `{role}` (`{mode}` with modes).
    fn is_pattern(&self, path: &str) -> bool {
        path.contains(&format!("{{{}}}", self.word))
    }

    fn role(&self, name: &Name, sink: &mut Sink<'_>) -> Option<RoleId> {
        if self.roles_broken {
            return None;
        }
        if self.roles.is_empty() {
            sink.error(
                Some(name.span()),
                format!(
                    "{} `{}` is named but the manifest declares no {}s",
                    self.word,
                    name.get_ref(),
                    self.word
                ),
                Some(format!(
                    "declare them at the top: `{}s = [\"...\", ...]`",
                    self.word
                )),
            );
            return None;
        }
        let found = self.role_ids.get(name.get_ref().as_str()).copied();
        if found.is_none() {
            sink.error(
                Some(name.span()),
                format!("unknown {} `{}`", self.word, name.get_ref()),
                Some(hint(
                    name.get_ref(),
                    self.roles.iter().map(String::as_str),
                    &format!("declared {}s", self.word),
                )),
            );
        }
        found
    }

    fn roles(&self, names: &[Name], sink: &mut Sink<'_>) -> Option<Vec<RoleId>> {
        let found: Vec<Option<RoleId>> = names.iter().map(|n| self.role(n, sink)).collect();
        found.into_iter().collect()
    }
}

/// Candidates listed in a hint; a manifest with thousands of roles gets the first ones and a count.
const MAX_HINTS_LISTED: usize = 20;

fn hint<'a>(name: &str, candidates: impl Iterator<Item = &'a str> + Clone, what: &str) -> String {
    let all: Vec<&str> = candidates.clone().collect();
    if all.is_empty() {
        // "declared facts: " with nothing after it reads as a bug.
        return format!("{what}: none");
    }
    let mut list = all
        .iter()
        .take(MAX_HINTS_LISTED)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if all.len() > MAX_HINTS_LISTED {
        list.push_str(&format!(" and {} more", all.len() - MAX_HINTS_LISTED));
    }
    match closest(name, candidates) {
        Some(c) => format!("did you mean `{c}`? {what}: {list}"),
        None => format!("{what}: {list}"),
    }
}

/// Reports a variant name that clashes with an associated item every generated enum has
/// (`ALL`, `NAMES`); true when it is free. `what` names it in the message, e.g.
/// "role `ALL`".
fn check_variant(
    sink: &mut Sink<'_>,
    span: std::ops::Range<usize>,
    what: &str,
    variant: &str,
) -> bool {
    if !reserved::variant_clash(variant) {
        return true;
    }
    sink.error(
        Some(span),
        format!("{what} would become the enum variant `{variant}`, which clashes with the associated item `{variant}` that every generated enum has"),
        Some(format!("rename it; any other spelling works, e.g. `{}`", variant.to_lowercase())),
    );
    false
}

/// Reports a name that cannot become a Rust field or method; true when it can.
fn check_ident(
    sink: &mut Sink<'_>,
    span: std::ops::Range<usize>,
    what: &str,
    name: &str,
    names: &str,
) -> bool {
    match snake_ident_problem(name) {
        None => true,
        Some(problem) => {
            sink.error(
                Some(span),
                format!("{what} `{name}` {problem}"),
                Some(format!("the name becomes {names} in the generated code")),
            );
            false
        }
    }
}
