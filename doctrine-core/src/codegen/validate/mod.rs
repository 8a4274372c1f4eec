//! [`super::raw::Manifest`] → [`super::model::Doctrine`]: resolves every name, loads every file and
//! collects every error rather than stopping at the first.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use toml::Spanned;

use super::diag::Sink;
use super::load::Loader;
use super::model::{Content, Doctrine, Fact, Flag, Formulations, Knob, Layer, RoleId};
use super::names::{closest, snake_ident_problem};
use super::raw::{Manifest, Name};
use super::reserved;
use declare::{flags, knobs, roles};
use layer::validate_layer;
use order::{check_orders, check_tiers};

mod budget;
mod claims;
mod content;
mod declare;
mod facts;
mod gate;
mod kind;
mod layer;
mod locked;
mod order;
mod overlay;
mod placeholder;
mod provenance;
mod reminders;
mod selector;
mod skill_index;
mod skills;
mod suffix;
mod template;

pub use placeholder::{placeholders, Piece};

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

pub(super) fn validate(raw: Manifest, cx: Context, sink: &mut Sink<'_>) -> Option<Doctrine> {
    let mut loader = Loader::new(cx.crate_dir.clone(), cx.base_dir.clone());
    // A copy, so checks can read it while reporting into the sink.
    let reported = sink.reported().clone();
    let roles = roles(&raw, sink);
    let flags = flags(&raw, sink);
    let knobs = knobs(&raw, sink);
    let word = if raw.roles.modes { "mode" } else { "role" };
    let facts = facts::facts(&raw, &roles, word, sink);
    let names = Names {
        roles: &roles,
        flags: &flags,
        knobs: &knobs,
        facts: &facts,
        word,
        broken: &reported.names,
        roles_broken: reported.roles,
        fillable: gate::fillable(&raw),
        selector_layers: raw
            .layers
            .iter()
            .filter(|l| l.get_ref().selector.is_some())
            .map(|l| l.get_ref().name.get_ref().clone())
            .collect(),
        overlay_fields: gate::overlay_fields(&raw),
    };

    // Only when nothing else is wrong: a misspelt `[[layers]]` is reported as unknown.
    if raw.layers.is_empty() && reported.layers.is_empty() && !sink.has_errors() {
        sink.error(
            Some(0..0),
            "the manifest declares no layers",
            Some("add at least one `[[layer]]` table with a `name` and its content (`file`, `files`, `text`, `texts`, `dir` or `slot`)".into()),
        );
    }
    let trim_default = raw.trim.unwrap_or(false);
    let mut layers: Vec<(Spanned<()>, Layer)> = Vec::new();
    let mut seen: HashMap<String, ()> = HashMap::new();
    let mut overlay_fields: HashSet<String> = HashSet::new();
    // Every type the generator defines itself, and its builder's generic parameter.
    let mut type_names: HashMap<String, String> = reserved::RESERVED
        .iter()
        .filter(|(space, name)| {
            matches!(space, reserved::Space::Type | reserved::Space::Generic) && !name.contains(':')
        })
        .map(|(_, t)| (t.to_string(), "generated code".to_string()))
        .collect();
    for knob in &knobs {
        let span = raw
            .knobs
            .iter()
            .find(|(n, _)| n.get_ref() == &knob.name)
            .map(|(n, _)| n.span());
        claim_type(
            &mut type_names,
            &knob.enum_name,
            &format!("knob `{}`", knob.name),
            span,
            sink,
        );
    }
    for fact in &facts {
        if let Some((enum_name, _)) = &fact.values {
            let owner = format!("fact `{}`", fact.name);
            let span = raw
                .facts
                .iter()
                .find(|(n, _)| n.get_ref() == &fact.name)
                .map(|(n, _)| n.span());
            claim_type(&mut type_names, enum_name, &owner, span, sink);
        }
        if let Some(item) = fact.item_type() {
            let owner = format!("the items of list fact `{}`", fact.name);
            let span = raw
                .facts
                .iter()
                .find(|(n, _)| n.get_ref() == &fact.name)
                .map(|(n, _)| n.span());
            claim_type(&mut type_names, &item, &owner, span, sink);
        }
    }
    if !facts.is_empty() {
        for role in &roles {
            let owner = format!("the facts of {word} `{role}`");
            let span = raw
                .roles
                .names
                .iter()
                .find(|r| r.get_ref() == role)
                .map(Spanned::span);
            let ty = format!("{}Facts", super::names::camel(role));
            claim_type(&mut type_names, &ty, &owner, span, sink);
        }
    }
    for spanned in &raw.layers {
        let layer = spanned.get_ref();
        let name = layer.name.get_ref();
        check_ident(
            sink,
            layer.name.span(),
            "layer name",
            name,
            "constants and builder methods",
        );
        if seen.insert(name.clone(), ()).is_some() {
            sink.error(
                Some(layer.name.span()),
                format!("duplicate layer `{name}`"),
                Some("each `[[layer]]` needs a distinct `name`; rename or remove this one".into()),
            );
            continue;
        }
        if let Some(l) = validate_layer(layer, &names, trim_default, &mut loader, sink) {
            if let Some(o) = &l.overlay {
                let span = layer
                    .overlay_field
                    .as_ref()
                    .map(Spanned::span)
                    .unwrap_or(layer.name.span());
                // `Overlay` gets a field per overlay field, and `<field>_off` for each
                // `empty = "off"` layer: one namespace.
                let mut names = vec![(o.field.clone(), None)];
                if o.empty_off {
                    names.push((format!("{}_off", o.field), Some(&o.field)));
                }
                for (field, off_of) in names {
                    if overlay_fields.insert(field.clone()) {
                        continue;
                    }
                    let message = match off_of {
                        Some(of) => format!("`empty = \"off\"` on overlay field `{of}` makes a field `{field}`, and another layer's overlay field has that name"),
                        None => format!("overlay field `{field}` is used by two layers (or is another layer's `_off` field)"),
                    };
                    sink.error(
                        Some(span.clone()),
                        message,
                        Some("give this layer a distinct `overlay_field`".into()),
                    );
                }
            }
            if let Content::Choice { enum_name, .. } = &l.content {
                let span = layer
                    .choice
                    .as_ref()
                    .map(Spanned::span)
                    .unwrap_or(layer.name.span());
                claim_type(
                    &mut type_names,
                    enum_name,
                    &format!("layer `{name}`"),
                    Some(span),
                    sink,
                );
            }
            layers.push((Spanned::new(spanned.span(), ()), l));
        }
    }
    if let Some(extra) = raw.extra.as_ref().filter(|e| *e.get_ref()) {
        if seen.contains_key("extra") {
            sink.error(
                Some(extra.span()),
                "`extra = true` adds a layer named `extra`, and the manifest already has one",
                Some("rename that layer, or drop `extra = true` and keep your own".into()),
            );
        }
        // The caller's free-form text: always the very last layer.
        layers.push((
            Spanned::new(extra.span(), ()),
            Layer {
                name: "extra".into(),
                tier: crate::Tier::Volatile,
                when: Vec::new(),
                unless: Vec::new(),
                when_any: Vec::new(),
                unless_any: Vec::new(),
                scope: None,
                content: Content::Slot {
                    required: false,
                    trim: trim_default,
                },
                trim: trim_default,
                locked: false,
                overlay: None,
                suffix: None,
                title: None,
                at: super::model::LayerSpans {
                    name: extra.span(),
                    overlay_file: None,
                },
                provenance: None,
                selector: None,
            },
        ));
    }
    check_overlay_files(&layers, sink);
    selector::check_selectors(&mut layers, sink);
    check_stage_names(&layers, sink);
    check_tiers(&layers, sink);
    gate::check_tiers(&layers, sink);
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

/// The manifest's formulation table. Keys are compared with a trimmed family name,
/// ignoring ASCII case, so a key with capitals or spaces could never match.
fn formulation(raw: &Manifest, sink: &mut Sink<'_>) -> Formulations {
    let Some(table) = &raw.formulation else {
        return Formulations {
            default: crate::Formulation::Markdown,
            families: Vec::new(),
            exact: false,
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
    }
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

/// Overlay file names: one per overridable layer, and none that reads as another layer's.
/// Names are compared as a person or a case-insensitive file system reads them
/// ([`super::names::fold`]): `Safety.md` and `safety\u{200b}.md` read as `safety.md`.
fn check_overlay_files(layers: &[(Spanned<()>, Layer)], sink: &mut Sink<'_>) {
    let mut seen: HashMap<String, &str> = HashMap::new();
    let span_of = |l: &Layer| Some(l.at.overlay_file.clone().unwrap_or(l.at.name.clone()));
    // Layers by folded name, and locked layers by name, looked up once per overlay file
    // (a scan of every layer per file grew with the square of the layers: 17 s at 4,000).
    let mut by_fold: HashMap<String, Vec<&Layer>> = HashMap::new();
    for (_, other) in layers {
        by_fold
            .entry(super::names::fold(&other.name))
            .or_default()
            .push(other);
    }
    let locked: HashMap<&str, &Layer> = layers
        .iter()
        .filter(|(_, l)| l.locked)
        .map(|(_, l)| (l.name.as_str(), l))
        .collect();
    for (_, l) in layers {
        let Some(o) = &l.overlay else { continue };
        let folded = super::names::fold(&o.file);
        if let Some(prev) = seen.insert(folded.clone(), &l.name) {
            sink.error(
                span_of(l),
                format!(
                    "layers `{prev}` and `{}` both read overlay file `{}` (names are compared ignoring case and invisible characters)",
                    l.name, o.file
                ),
                Some("give each overridable layer its own `overlay_file`".into()),
            );
        }
        // A file or field that reads as another layer's would be taken to override it.
        let stem = folded.strip_suffix(".md").unwrap_or(&folded);
        let mut named_after = by_fold.get(stem).into_iter().flatten();
        if let Some(other) = named_after.find(|other| other.name != l.name) {
            let what = if other.locked {
                "locked layer"
            } else {
                "layer"
            };
            sink.error(
                span_of(l),
                format!("overlay file `{}` of layer `{}` is named after {what} `{}`", o.file.escape_debug(), l.name, other.name),
                Some(format!("a user would take that file to override `{}`; name it after the layer it overrides", other.name)),
            );
        }
        if let Some(locked) = locked.get(o.field.as_str()) {
            sink.error(
                span_of(l),
                format!("overlay field `{}` of layer `{}` has the name of locked layer `{}`", o.field, l.name, locked.name),
                Some("`Overlay` must have no field that reads as a locked layer; set another `overlay_field`".into()),
            );
        }
    }
}

struct Names<'a> {
    roles: &'a [String],
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

impl Names<'_> {
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
        let found = self
            .roles
            .iter()
            .position(|r| r == name.get_ref())
            .map(RoleId);
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
const HINT_LIST_MAX: usize = 20;

fn hint<'a>(name: &str, candidates: impl Iterator<Item = &'a str> + Clone, what: &str) -> String {
    let all: Vec<&str> = candidates.clone().collect();
    if all.is_empty() {
        // "declared facts: " with nothing after it reads as a bug.
        return format!("{what}: none");
    }
    let mut list = all
        .iter()
        .take(HINT_LIST_MAX)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if all.len() > HINT_LIST_MAX {
        list.push_str(&format!(" and {} more", all.len() - HINT_LIST_MAX));
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

fn claim_type(
    taken: &mut HashMap<String, String>,
    name: &str,
    owner: &str,
    span: Option<std::ops::Range<usize>>,
    sink: &mut Sink<'_>,
) {
    if let Some(prev) = taken.get(name) {
        sink.error(
            span,
            format!("{owner} would generate a type `{name}`, which {prev} already defines"),
            Some("rename it, or for a `dir` layer set `choice = \"OtherName\"`".into()),
        );
    } else {
        taken.insert(name.to_string(), owner.to_string());
    }
}
