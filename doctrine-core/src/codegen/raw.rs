//! The manifest as written: serde shapes with spans, before any validation.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

pub(super) type Name = Spanned<String>;

/// Top-level keys, each deserialised on its own so one bad section does not hide
/// errors in the others.
pub(super) const TOP_KEYS: &[&str] = &[
    "separator",
    "trim",
    "roles",
    "modes",
    "flags",
    "knobs",
    "facts",
    "extra",
    "budget",
    "formulation",
    "layer",
    "order",
];
pub(super) const FORMULATION_KEYS: &[&str] = &["default", "families"];
pub(super) const FACT_KEYS: &[&str] = &["tier", "values", "required", "optional"];
pub(super) const BUDGET_KEYS: &[&str] = &["stable_bytes", "per_role"];
pub(super) const KNOB_KEYS: &[&str] = &["values", "default"];
pub(super) const LAYER_KEYS: &[&str] = &[
    "name",
    "file",
    "files",
    "text",
    "texts",
    "dir",
    "slot",
    "instructions",
    "choice",
    "optional",
    "roles",
    "modes",
    "when",
    "when_fact",
    "equals",
    "interpolate",
    "tier",
    "frontmatter",
    "trim",
    "locked",
    "override",
    "overlay_field",
    "overlay_file",
    "overlay_separator",
    "title",
    "suffix",
    "claims",
];
pub(super) const SUFFIX_KEYS: &[&str] = &["text", "roles", "separator"];
pub(super) const CLAIMS_KEYS: &[&str] = &["verbs", "objects", "actions", "phrases"];
pub(super) const ORDER_KEYS: &[&str] = &["first", "then"];

#[derive(Debug, Default)]
pub(super) struct Manifest {
    pub separator: Option<Spanned<String>>,
    pub trim: Option<bool>,
    pub roles: Vec<Name>,
    pub flags: Vec<(Name, bool)>,
    pub knobs: Vec<(Name, Knob)>,
    pub layers: Vec<Spanned<Layer>>,
    pub orders: Vec<Spanned<Order>>,
    /// `true` when the manifest said `modes` rather than `roles`: the generated type is
    /// then `Mode` and messages say "mode".
    pub modes: bool,
    pub facts: Vec<(Name, Fact)>,
    pub extra: Option<Spanned<bool>>,
    pub budget: Option<Spanned<Budget>>,
    pub formulation: Option<Spanned<FormulationTable>>,
    /// Span of the whole `roles` value, for errors about the list as a whole.
    pub roles_span: Option<std::ops::Range<usize>>,
}

#[derive(Debug, Deserialize)]
pub(super) struct Fact {
    pub tier: Spanned<Tier>,
    pub values: Option<Spanned<Vec<Name>>>,
    /// Roles (modes) that must be given this fact; `"*"` means every one.
    #[serde(default)]
    pub required: Vec<Name>,
    /// Roles (modes) that may be given this fact; `"*"` means every one.
    #[serde(default)]
    pub optional: Vec<Name>,
}

#[derive(Debug, Deserialize)]
pub(super) struct Budget {
    pub stable_bytes: Option<Spanned<usize>>,
    #[serde(default)]
    pub per_role: BTreeMap<Name, Spanned<usize>>,
}

/// Section delimiters per model family: the longest matching name prefix wins.
#[derive(Debug, Deserialize)]
pub(super) struct FormulationTable {
    pub default: Option<Formulation>,
    #[serde(default)]
    pub families: BTreeMap<Name, Formulation>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(super) enum Formulation {
    Markdown,
    Tagged,
    Bare,
}

#[derive(Debug, Deserialize)]
pub(super) struct Knob {
    pub values: Spanned<Vec<Name>>,
    pub default: Name,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(super) enum Tier {
    Stable,
    Volatile,
}

impl From<Tier> for crate::Tier {
    fn from(t: Tier) -> Self {
        match t {
            Tier::Stable => crate::Tier::Stable,
            Tier::Volatile => crate::Tier::Volatile,
        }
    }
}

impl From<Formulation> for crate::Formulation {
    fn from(f: Formulation) -> Self {
        match f {
            Formulation::Markdown => crate::Formulation::Markdown,
            Formulation::Tagged => crate::Formulation::Tagged,
            Formulation::Bare => crate::Formulation::Bare,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(super) enum Frontmatter {
    Keep,
    Strip,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Override {
    Replace,
    Append,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(super) enum Slot {
    Required,
    Optional,
}

#[derive(Debug, Deserialize)]
pub(super) struct Suffix {
    pub text: Spanned<String>,
    pub roles: Option<Vec<Name>>,
    pub separator: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct Layer {
    pub name: Name,
    pub file: Option<Spanned<String>>,
    pub files: Option<Spanned<BTreeMap<Name, Spanned<String>>>>,
    pub text: Option<Spanned<String>>,
    pub texts: Option<Spanned<BTreeMap<Name, Spanned<String>>>>,
    pub dir: Option<Spanned<String>>,
    pub slot: Option<Spanned<Slot>>,
    pub instructions: Option<Spanned<bool>>,
    pub choice: Option<Name>,
    pub optional: Option<Spanned<bool>>,
    #[serde(alias = "modes")]
    pub roles: Option<Spanned<Vec<Name>>>,
    pub when: Option<Name>,
    pub when_fact: Option<Name>,
    pub equals: Option<Spanned<String>>,
    pub interpolate: Option<Spanned<bool>>,
    pub tier: Option<Spanned<Tier>>,
    pub frontmatter: Option<Spanned<Frontmatter>>,
    pub trim: Option<bool>,
    pub locked: Option<Spanned<bool>>,
    #[serde(rename = "override")]
    pub override_: Option<Spanned<Override>>,
    pub overlay_field: Option<Name>,
    pub overlay_file: Option<Name>,
    pub title: Option<Spanned<String>>,
    pub overlay_separator: Option<Spanned<String>>,
    pub suffix: Option<Spanned<Suffix>>,
    pub claims: Option<Spanned<Claims>>,
}

/// Words a locked layer adds to what `safety_claims` looks for.
#[derive(Debug, Deserialize)]
pub(super) struct Claims {
    #[serde(default)]
    pub verbs: Vec<Spanned<String>>,
    #[serde(default)]
    pub objects: Vec<Spanned<String>>,
    #[serde(default)]
    pub actions: Vec<Spanned<String>>,
    #[serde(default)]
    pub phrases: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
pub(super) struct Order {
    pub first: Name,
    pub then: Name,
}
