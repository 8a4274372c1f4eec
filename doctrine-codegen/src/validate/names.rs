//! The names a manifest declares, looked up by the checks: roles (by name, once), tiers,
//! flags, knobs and facts, the layers a condition can test, and what failed to parse.

use std::collections::HashMap;

use super::hint::hint;
use super::kind::Kind;
use crate::diag::{Reported, Sink};
use crate::model::{Fact, Flag, Knob, RoleId, Tiers};
use crate::raw::{Manifest, Name};
use toml::Spanned;

/// What the checks look names up in.
pub(super) struct Names<'a> {
    pub(super) roles: &'a [String],
    /// Each role's place in `roles`: a lookup per named role, not a scan of them all, which
    /// grew with the square of the roles where every role names itself.
    role_ids: HashMap<&'a str, RoleId>,
    pub(super) tiers: &'a Tiers,
    pub(super) flags: &'a [Flag],
    pub(super) knobs: &'a [Knob],
    pub(super) facts: &'a [Fact],
    /// `role` or `mode`, for messages.
    pub(super) word: &'static str,
    /// Knobs and facts whose declaration failed (already reported): uses stay quiet.
    pub(super) broken: &'a [String],
    /// The role list failed to parse (already reported): role lookups stay quiet.
    roles_broken: bool,
    /// Slot, choice, instructions and selector layers, which a condition can test
    /// (`layer:name`).
    pub(super) fillable: Vec<String>,
    /// Selector layers (also in `fillable`).
    pub(super) selector_layers: Vec<String>,
    /// Overlay fields, which a condition can test (`overlay:name`).
    pub(super) overlay_fields: Vec<String>,
    /// The manifest's `sanitize`, which shipped text is checked against.
    pub(super) sanitize: doctrine_core::__private::Clean,
}

impl<'a> Names<'a> {
    /// `declared`: the roles, flags, knobs and facts.
    #[allow(clippy::type_complexity)]
    pub(super) fn new(
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
            fillable: fillable(raw),
            selector_layers: raw
                .layers
                .iter()
                .filter(|l| l.get_ref().selector.is_some())
                .map(|l| l.get_ref().name.get_ref().clone())
                .collect(),
            overlay_fields: overlay_fields(raw),
            sanitize: super::sanitize::manifest(raw),
        }
    }

    /// Whether a `file` path is a pattern: it holds `{role}` (`{mode}` with modes).
    pub(super) fn is_pattern(&self, path: &str) -> bool {
        path.contains(&format!("{{{}}}", self.word))
    }

    pub(super) fn role(&self, name: &Name, sink: &mut Sink<'_>) -> Option<RoleId> {
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

    pub(super) fn roles(&self, names: &[Name], sink: &mut Sink<'_>) -> Option<Vec<RoleId>> {
        let found: Vec<Option<RoleId>> = names.iter().map(|n| self.role(n, sink)).collect();
        found.into_iter().collect()
    }
}

/// The layers a `layer:` condition can test: slots, choices (`dir`), instructions,
/// selector layers, and `extra` when the manifest adds it.
fn fillable(raw: &Manifest) -> Vec<String> {
    let mut out: Vec<String> = raw
        .layers
        .iter()
        .map(Spanned::get_ref)
        .filter(|l| {
            l.selector.is_some()
                || Kind::given(l)
                    .iter()
                    .any(|k| matches!(k, Kind::Slot { .. } | Kind::Instructions | Kind::Dir(_)))
        })
        .map(|l| l.name.get_ref().clone())
        .collect();
    if raw.extra.as_ref().is_some_and(|e| *e.get_ref()) {
        out.push("extra".into());
    }
    out
}

/// The overlay fields an `overlay:` condition can test (the field defaults to the name).
fn overlay_fields(raw: &Manifest) -> Vec<String> {
    raw.layers
        .iter()
        .map(Spanned::get_ref)
        // A selector layer has no `Overlay` field: its source is the selector's.
        .filter(|l| l.override_.is_some() && l.selector.is_none())
        .map(|l| {
            l.overlay_field
                .as_ref()
                .unwrap_or(&l.name)
                .get_ref()
                .clone()
        })
        .collect()
}
