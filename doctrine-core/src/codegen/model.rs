//! The validated manifest: every name resolved, every file loaded and normalised.

use std::path::PathBuf;

use crate::Tier;

use super::raw::Override;
use super::text::Fields;

#[derive(Debug)]
pub struct Doctrine {
    /// Absolute path of the manifest, for `include_bytes!`.
    pub manifest: PathBuf,
    /// The manifest's path relative to the crate directory, for docs and messages.
    pub manifest_display: String,
    pub separator: String,
    /// Declared roles; empty when the manifest declares none (a single-agent prompt).
    pub roles: Vec<String>,
    pub flags: Vec<Flag>,
    pub knobs: Vec<Knob>,
    pub layers: Vec<Layer>,
    /// Every distinct embedded text; layers refer to them by index.
    pub texts: Vec<Text>,
    /// Every file read, absolute, so cargo rebuilds when one changes.
    pub tracked: Vec<PathBuf>,
}

#[derive(Debug)]
pub struct Flag {
    pub name: String,
    pub default: bool,
}

#[derive(Debug)]
pub struct Knob {
    pub name: String,
    pub enum_name: String,
    pub values: Vec<String>,
    pub default: usize,
}

#[derive(Debug)]
pub struct Text {
    /// Name of the generated constant, unique in the manifest.
    pub const_name: String,
    pub body: String,
    /// `None` for inline manifest text.
    pub file: Option<SourceFile>,
    /// The layer that first embedded it, for rustdoc.
    pub layer: String,
}

#[derive(Debug)]
pub struct SourceFile {
    /// Relative to the crate directory, `/`-separated.
    pub display: String,
    pub fields: Fields,
}

#[derive(Debug)]
pub struct Layer {
    pub name: String,
    pub tier: Tier,
    /// Index into `Doctrine::flags` of the flag that gates this layer.
    pub gate: Option<usize>,
    /// Roles the layer applies to; `None` means every role.
    pub scope: Option<Vec<usize>>,
    pub content: Content,
    pub locked: bool,
    pub overlay: Option<Overlay>,
    pub suffix: Option<Suffix>,
}

impl Layer {
    pub fn in_scope(&self, role: usize) -> bool {
        self.scope.as_ref().is_none_or(|s| s.contains(&role))
    }
}

#[derive(Debug)]
pub enum Content {
    /// Groups of roles sharing one text, covering every role in scope (a single group
    /// holding role 0 when the manifest declares no roles).
    PerRole(Vec<(Vec<usize>, usize)>),
    /// A directory of markdown files; each stem is a variant of a generated enum.
    Choice {
        enum_name: String,
        variants: Vec<(String, usize)>,
        optional: bool,
    },
    /// Text the caller supplies at composition time.
    Slot { required: bool },
}

#[derive(Debug)]
pub struct Overlay {
    pub field: String,
    pub mode: Override,
    pub separator: String,
}

/// A line appended to a layer's text for some roles, with knob placeholders.
#[derive(Debug)]
pub struct Suffix {
    pub roles: Option<Vec<usize>>,
    pub separator: String,
    pub segments: Vec<Segment>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Segment {
    Lit(String),
    Knob(usize),
}
