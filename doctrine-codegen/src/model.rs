//! The validated manifest: every name resolved, every file loaded and normalised.

use std::path::PathBuf;

use doctrine_core::__internals::part::Trim;
use doctrine_core::introspect::{LayerInfo, Stability};

use super::diag::Span;
use super::text::Fields;

pub struct Doctrine {
    /// Absolute path of the manifest, for `include_bytes!`.
    pub manifest: PathBuf,
    /// The manifest's path relative to the crate directory, for docs and messages.
    pub manifest_display: String,
    pub separator: String,
    /// The manifest's `sanitize`: what is cleaned out of slots and users' files.
    pub sanitize: doctrine_core::__private::Clean,
    /// `[budget]`: each role's stable-prefix ceiling in bytes (one entry without roles);
    /// `None` without a `[budget]` table.
    pub budget: Option<Vec<Option<usize>>>,
    /// The most bytes `Overlay::load_with_cap` may cap overlay files at: `overlay_cap_max`,
    /// or without it the smallest `overlay_cap` (`None` without overlay fields).
    pub overlay_cap_max: Option<usize>,
    /// Whether the manifest declares `overlay_cap_max` (for the docs).
    pub overlay_cap_max_declared: bool,
    /// Declared roles; empty when the manifest declares none (a single-agent prompt).
    pub roles: Vec<String>,
    /// `"role"`, or `"mode"` when the manifest says `modes`: names the generated type
    /// (`Role`/`Mode`) and the parameter of `compose`.
    pub role_word: &'static str,
    /// The cache tiers, in order (`stable`, `volatile` unless the manifest declares them).
    pub tiers: Tiers,
    /// Named values the caller gives per composition, in manifest order.
    pub facts: Vec<Fact>,
    pub flags: Vec<Flag>,
    pub knobs: Vec<Knob>,
    pub layers: Vec<Layer>,
    /// Every distinct embedded text; layers refer to them by index.
    pub texts: Vec<Text>,
    /// Every file read, absolute, so cargo rebuilds when one changes.
    pub tracked: Vec<PathBuf>,
    /// `[formulation]`: per model family, how titled sections are delimited.
    pub formulation: Formulations,
    /// `[models]`: what a model name sets, when the manifest has the table.
    pub models: Option<Models>,
    /// Words locked layers add to the safety-claims tripwire, in manifest order.
    pub claims: Vec<Claims>,
    /// `[reminders]`, when the manifest has one.
    pub reminders: Option<Reminders>,
    /// `[skills]`: the shipped skills, by name; `None` without the table.
    pub skills: Option<Vec<SkillDef>>,
    /// The path generated code names the runtime by: `::doctrine` unless the macro call
    /// says `crate = "..."`. Checked to be a path when the request was loaded.
    pub krate: proc_macro2::TokenStream,
}

impl Doctrine {
    /// Whether some layers are joined otherwise than by the separator: a `join_before`, or
    /// `[[message]]`s (their wrappers and the separator between them).
    pub fn joins_per_layer(&self) -> bool {
        self.layers
            .iter()
            .any(|l| l.info.join.is_some() || l.info.message.is_some())
    }

    /// The lines the manifest writes between layers (each `join_before` text's lines,
    /// trimmed, none blank), sorted, once each: what run-time text may not write as a
    /// line of its own.
    pub fn join_lines(&self) -> Vec<String> {
        let joins = self.layers.iter().filter_map(|l| l.info.join);
        let mut lines: Vec<String> = joins
            .flat_map(|j| j.lines().map(|l| l.trim_matches([' ', '\t']).to_string()))
            .filter(|l| !l.is_empty())
            .collect();
        lines.sort();
        lines.dedup();
        lines
    }

    /// Whether the manifest declares `[[message]]`s.
    pub fn has_messages(&self) -> bool {
        self.layers.iter().any(|l| l.info.message.is_some())
    }
}

// By hand: the crate path as it reads, not as token trees; the texts' bodies left out.
impl std::fmt::Debug for Doctrine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Doctrine")
            .field("manifest", &self.manifest)
            .field("roles", &self.roles)
            .field("facts", &self.facts)
            .field("flags", &self.flags)
            .field("knobs", &self.knobs)
            .field("layers", &self.layers)
            .field("texts", &self.texts)
            .field("krate", &self.krate.to_string())
            .finish_non_exhaustive()
    }
}

/// A locked layer's `claims`, normalised as the runtime normalises instruction text.
#[derive(Debug)]
pub struct Claims {
    pub layer: String,
    pub verbs: Vec<String>,
    pub objects: Vec<String>,
    pub actions: Vec<String>,
    pub phrases: Vec<String>,
}

impl Doctrine {
    /// The generated role type: `Role`, or `Mode` for a manifest that says `modes`.
    pub fn role_type(&self) -> proc_macro2::Ident {
        quote::format_ident!("{}", super::names::camel(self.role_word))
    }

    /// How many facts are lists.
    pub fn list_count(&self) -> usize {
        self.facts.iter().filter(|f| f.list.is_some()).count()
    }

    /// The index of fact `f` among the list facts, if it is one.
    pub fn list_index(&self, f: FactId) -> Option<usize> {
        self.facts[f].list.as_ref()?;
        Some(
            self.facts[..f.0]
                .iter()
                .filter(|g| g.list.is_some())
                .count(),
        )
    }

    /// The layers whose overlay is a user's template (`overlay_interpolate`), in manifest
    /// order: template `k`'s rendered text is value `template_base() + k`.
    pub fn overlay_templates(&self) -> impl Iterator<Item = (&Layer, &Overlay)> {
        self.layers.iter().filter_map(|l| {
            let o = l.overlay.as_ref()?;
            o.template.map(|_| (l, o))
        })
    }

    /// Where the users' templates' values start: after the loops'.
    pub fn template_base(&self) -> usize {
        self.loop_base() + self.loops().len()
    }

    /// How many values a composition has: facts, knobs, flags in sections, loops, users'
    /// templates.
    pub fn value_count(&self) -> usize {
        self.template_base() + self.overlay_templates().count()
    }

    /// Where the loops' values start among a composition's values: after the facts, the
    /// knobs and (when some text has a `{?flag}` section) the flags.
    pub fn loop_base(&self) -> usize {
        let flags = if self.flags_in_sections() {
            self.flags.len()
        } else {
            0
        };
        self.facts.len() + self.knobs.len() + flags
    }

    /// Every loop of the manifest, in the order of its value: the list fact it prints and
    /// its item template.
    pub fn loops(&self) -> Vec<(FactId, &ListSpec)> {
        let mut loops: Vec<(usize, FactId, &ListSpec)> = self
            .texts
            .iter()
            .flat_map(|t| t.segments.iter().flatten())
            .filter_map(|s| match s {
                Segment::Loop { fact, style, site } => Some((*site, *fact, &**style)),
                _ => None,
            })
            .collect();
        loops.sort_by_key(|(site, ..)| *site);
        loops.into_iter().map(|(_, f, s)| (f, s)).collect()
    }

    /// Whether some text has a `{?flag}` section, so flags join the template values.
    pub fn flags_in_sections(&self) -> bool {
        self.overlay_templates().next().is_some() && !self.flags.is_empty()
            || self
                .texts
                .iter()
                .flat_map(|t| t.segments.iter().flatten())
                .any(|s| match s {
                    Segment::If {
                        on: SectionOn::Flag(_),
                        ..
                    } => true,
                    Segment::When { steps, .. } => steps
                        .iter()
                        .any(|s| matches!(s, Step::Given(SectionOn::Flag(_)))),
                    _ => false,
                })
    }

    /// The ends a layer's template must be trimmed at once rendered: those it trims where
    /// one of its texts can render with whitespace (a value or a section there). Texts are
    /// trimmed as embedded, so one that starts and ends with literal text outside any
    /// section renders trimmed already, and the runtime is spared the work.
    pub fn trims_rendered(&self, l: &Layer) -> Trim {
        let needed = |end: bool| {
            l.content.text_ids().iter().any(|&id| {
                let segments = self.texts[id].segments.as_deref().unwrap_or_default();
                if !end {
                    return !plain_end(segments.first(), false);
                }
                // The last segment may be left out, with a section.
                let last = segments.len().saturating_sub(1);
                let cut = segments
                    .iter()
                    .enumerate()
                    .any(|(i, s)| matches!(s, Segment::If { len, .. } | Segment::IfCount { len, .. } | Segment::When { len, .. } if i + len >= last));
                !plain_end(segments.last(), true) || cut
            })
        };
        match (
            l.trim.start() && needed(false),
            l.trim.end() && needed(true),
        ) {
            // Both ends stay as the layer says: a text needing one end may not need the other.
            (true, _) | (_, true) => l.trim,
            _ => Trim::No,
        }
    }

    /// Whether a layer's texts have placeholders (`interpolate = true`).
    pub fn is_template(&self, l: &Layer) -> bool {
        match &l.content {
            Content::PerRole(groups) => {
                groups.iter().any(|g| self.texts[g.text].segments.is_some())
            }
            Content::Choice { variants, .. } => variants
                .iter()
                .any(|v| self.texts[v.text].segments.is_some()),
            Content::Slot { .. } | Content::Instructions => false,
        }
    }
}

/// How a layer can carry text from a user's file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserVia {
    /// An `Overlay` field (the user's overlay file replaces or extends it).
    Overlay,
    /// A selector: a file named by path, or the user's copy.
    Selector,
    /// It prints the skill index, whose user skills' lines are user content.
    SkillIndex,
}

impl UserVia {
    /// For the layer table in rustdoc.
    pub fn describe(self) -> &'static str {
        match self {
            UserVia::Overlay => "overlay file",
            UserVia::Selector => "selector's file",
            UserVia::SkillIndex => "skill index",
        }
    }
}

impl Doctrine {
    /// How layer `l` can carry text from a user's file, if it can.
    pub fn user_via(&self, l: &Layer) -> Option<UserVia> {
        if l.selector.is_some() {
            Some(UserVia::Selector)
        } else if l.overlay.is_some() {
            Some(UserVia::Overlay)
        } else if self.prints_skill_index(l) {
            Some(UserVia::SkillIndex)
        } else {
            None
        }
    }

    /// Whether a text of layer `l` prints the skill index.
    fn prints_skill_index(&self, l: &Layer) -> bool {
        let ids = l.content.text_ids();
        let segments = ids.iter().filter_map(|&t| self.texts[t].segments.as_ref());
        segments
            .flatten()
            .any(|s| matches!(s, Segment::Fact(f) if self.facts[*f].skill_index))
    }
}

/// Whether `segment` is literal text that does not start (`end`: end) with whitespace.
fn plain_end(segment: Option<&Segment>, end: bool) -> bool {
    match segment {
        Some(Segment::Lit(t)) if end => t.ends_with(|c: char| !c.is_whitespace()),
        Some(Segment::Lit(t)) => t.starts_with(|c: char| !c.is_whitespace()),
        _ => false,
    }
}

/// The manifest's ordered cache tiers: every one but the last is cached (its block ends
/// with a breakpoint), the last is per turn.
#[derive(Debug, Clone)]
pub struct Tiers {
    pub names: Vec<String>,
    /// `tiers = [...]` is written; without it generated code is what it was before tiers.
    pub declared: bool,
    /// Per tier: listed in `[cache] shared` (the same bytes for every role).
    pub shared: Vec<bool>,
    /// `[cache] breakpoints`: the most breakpoints a request may mark.
    pub breakpoints: usize,
}

/// Anthropic's limit of cache breakpoints per request.
pub const DEFAULT_BREAKPOINTS: usize = 4;

impl Default for Tiers {
    fn default() -> Self {
        Tiers {
            names: vec!["stable".into(), "volatile".into()],
            declared: false,
            shared: vec![false, false],
            breakpoints: DEFAULT_BREAKPOINTS,
        }
    }
}

impl Tiers {
    /// The last tier's index: the volatile one.
    pub fn last(&self) -> usize {
        self.names.len() - 1
    }

    /// Stable for every tier but the last.
    pub fn split(&self, tier: usize) -> Stability {
        if tier == self.last() {
            Stability::Volatile
        } else {
            Stability::Stable
        }
    }
}

#[derive(Debug)]
pub struct Flag {
    pub name: String,
    pub default: bool,
    /// Its tier (`[cache] settings`; default the first).
    pub tier: usize,
}

#[derive(Debug)]
pub struct Fact {
    pub name: String,
    pub tier: Stability,
    /// Its place in [`Doctrine::tiers`].
    pub tier_index: usize,
    /// The closed set of values, when the fact has one, and its enum's name.
    pub values: Option<(String, Vec<String>)>,
    /// Per role (a single entry when no roles are declared).
    pub need: Vec<Need>,
    /// What an optional fact is when not given, or given empty (`default`).
    pub default: Option<String>,
    /// `values` as a table: each key and the text it prints. With `values` `None`
    /// (`other = "verbatim"`), the fact is free text and other text prints as given.
    pub texts: Option<Vec<(String, String)>>,
    /// A list fact (`list = { ... }`): given as `&[&str]`, printed item by item.
    pub list: Option<ListSpec>,
    /// The skill index `[skills]` declares: a list given as `&Skills`, whose user skills'
    /// lines are user content, so no locked layer may print or test it.
    pub skill_index: bool,
    /// How each field prints (`escape`), by field index (one entry for a text fact or a
    /// plain list); empty when nothing is escaped.
    pub escape: Vec<Option<doctrine_core::__private::Escaping>>,
    /// What is cleaned out of its value before it is composed (`sanitize`).
    pub sanitize: doctrine_core::__private::Clean,
}

/// How a list fact prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListSpec {
    /// The item template.
    pub item: Vec<ItemPiece>,
    /// Whether the fact has an item template (`item`, `item_file`, or a plain list's
    /// default `{0}`): without one, declared `fields` are printed by loops only.
    pub printable: bool,
    /// The item's named fields, as `fields` declares them or in order of first use in the
    /// item template; empty for a plain list (`{0}`), whose items are strings.
    pub fields: Vec<String>,
    /// Each field's kind, in the order of `fields` (all text when the template names them).
    pub kinds: Vec<FieldKind>,
    pub join: String,
    /// The field the items are sorted by.
    pub sort: Option<usize>,
    /// At most this many items, then `more` with `{n}` the number left out.
    pub max: Option<usize>,
    pub more: String,
    /// At most this many bytes printed (`max_bytes`), cut at a character boundary.
    pub max_bytes: Option<usize>,
    /// `max_bytes = { items = n }`: the budget counts the bytes the items' fields print
    /// alone.
    pub budget_items: bool,
    /// `join = { end_line = true, text = "..." }`: a line break before the join, only
    /// when the text before it does not end with one.
    pub join_ends_line: bool,
    /// `skip = "blank"`: an item whose fields are all whitespace is left out too.
    pub skip_blank: bool,
}

/// What a declared item field holds (`fields = { name = "text", ... }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// `"text"`: `&str`.
    Text,
    /// `"bool"`: tested by `{?field}`, never printed.
    Bool,
    /// `"text?"`: `Option<&str>`, absent when `None` (or empty).
    OptText,
    /// A nested table (`rules_file = { path = "text" }`): an `Option` of a struct whose
    /// fields follow it in [`ListSpec::fields`], named `rules_file.path`. Read as a bool
    /// is (`"true"` when `Some`): tested, never printed.
    Struct,
}

impl FieldKind {
    /// Whether a placeholder may print it (a bool or a struct has no text).
    pub fn printed(self) -> bool {
        matches!(self, FieldKind::Text | FieldKind::OptText)
    }
}

impl ListSpec {
    /// The nested fields of struct field `outer` (index into `fields`): their indices,
    /// each named `outer.field`.
    pub fn nested(&self, outer: usize) -> impl Iterator<Item = usize> + '_ {
        let prefix = format!("{}.", self.fields[outer]);
        (0..self.fields.len()).filter(move |&i| self.fields[i].starts_with(&prefix))
    }
}

/// A piece of a list's item template; fields by index into [`ListSpec::fields`] (`0` for
/// a plain list's item).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemPiece {
    Text(String),
    Field(usize),
    /// A field printed escaped for HTML (handlebars' `{{field}}`).
    Html(usize),
    /// A section on a field; `true` when negated (`{?!field}`).
    Open(usize, bool),
    /// A section on a condition over fields, its steps in postfix order.
    When(Vec<ItemStep>),
    Close,
}

/// One step of a condition over an item's fields ([`ItemPiece::When`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemStep {
    /// The field is non-empty (a bool field: on).
    Given(usize),
    /// The text field is this text.
    Is(usize, String),
    Not,
    And,
    Or,
}

impl Fact {
    /// The generated struct of one item, for a list with named fields (the skill index has
    /// none: it is given as `&Skills`).
    pub fn item_type(&self) -> Option<String> {
        let list = self.list.as_ref().filter(|_| !self.skill_index)?;
        (!list.fields.is_empty()).then(|| format!("{}Item", crate::names::camel(&self.name)))
    }

    /// The generated struct of nested field `field` of an item (`WorktreesRulesFile` for
    /// `rules_file` of `worktrees`).
    pub fn nested_type(&self, field: &str) -> String {
        let camel = crate::names::camel;
        format!("{}{}", camel(&self.name), camel(field))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    Required,
    Optional,
    /// The role does not take this fact.
    Absent,
}

#[derive(Debug)]
pub struct Knob {
    pub name: String,
    pub enum_name: String,
    pub values: Vec<String>,
    pub default: usize,
    /// `values` as a table: the text each value prints, in the order of `values`.
    pub texts: Option<Vec<String>>,
    /// Its tier (`[cache] settings`; default the first).
    pub tier: usize,
}

impl Knob {
    /// What value `i` prints: its text, or its name.
    pub fn printed(&self, i: usize) -> &str {
        self.texts.as_ref().map_or(&self.values[i], |t| &t[i])
    }
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
    /// Literal and placeholder segments, for a layer with `interpolate = true`.
    pub segments: Option<Vec<Segment>>,
}

#[derive(Debug)]
pub struct SourceFile {
    /// Relative to the crate directory, `/`-separated.
    pub display: String,
    pub fields: Fields,
    /// Where the body (the text embedded) sits in the file as read, for messages: a span
    /// of the diagnostics' [`Files`](crate::Files) of the load that read it.
    pub body: Span,
}

impl SourceFile {
    /// Where byte `offset` of the body is in the file.
    pub fn at(&self, offset: usize) -> Span {
        let at = self.body.start().unwrap_or(0) + offset;
        Span::new(self.body.file, at..at)
    }
}

/// Newtype indices into the model's lists, so a role cannot be used where a text is meant.
/// Each indexes its list directly (`d.roles[role]`, `d.texts[text]`).
macro_rules! index {
    ($(#[$doc:meta] $name:ident => $item:ty;)*) => {$(
        #[$doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub usize);

        impl std::ops::Index<$name> for Vec<$item> {
            type Output = $item;
            fn index(&self, i: $name) -> &$item {
                &self[i.0]
            }
        }

        impl std::ops::IndexMut<$name> for Vec<$item> {
            fn index_mut(&mut self, i: $name) -> &mut $item {
                &mut self[i.0]
            }
        }

        impl std::ops::Index<$name> for [$item] {
            type Output = $item;
            fn index(&self, i: $name) -> &$item {
                &self[i.0]
            }
        }
    )*};
}

index! {
    /// A role (or mode), into `Doctrine::roles`.
    RoleId => String;
    /// An embedded text, into `Doctrine::texts`.
    TextId => Text;
    /// A flag, into `Doctrine::flags`.
    FlagId => Flag;
    /// A fact, into `Doctrine::facts`; also its place among the values of a composition.
    FactId => Fact;
    /// A knob, into `Doctrine::knobs`.
    KnobId => Knob;
}

impl RoleId {
    /// Every role of a manifest with `count` of them (one for a single-agent prompt).
    pub fn all(count: usize) -> impl Iterator<Item = RoleId> {
        (0..count.max(1)).map(RoleId)
    }
}

/// One condition of a layer's `when` (all must hold) or `unless` (not all may hold).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    pub test: Test,
    /// `!name`: the test must fail.
    pub negated: bool,
    /// As written in the manifest, for rustdoc and skip reasons.
    pub written: String,
    /// Where it is written, for messages.
    pub at: std::ops::Range<usize>,
}

/// What a condition looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Test {
    /// The flag is on.
    Flag(FlagId),
    /// The fact is given.
    Fact(FactId),
    /// The fact is given with this value.
    FactIs(FactId, String),
    /// The slot, optional choice or instructions layer of this name is given, non-empty.
    Filled(String),
    /// The overlay field is non-empty.
    Overlay(String),
}

/// Roles sharing one text of a per-role layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoleGroup {
    pub roles: Vec<RoleId>,
    pub text: TextId,
}

impl RoleGroup {
    /// Each of `roles` roles' text in `groups`, `None` for a role no group holds: one pass,
    /// where a search of the groups per role grew with the square of the roles.
    pub fn texts_by_role(groups: &[RoleGroup], roles: usize) -> Vec<Option<TextId>> {
        let mut texts = vec![None; roles];
        for g in groups {
            for r in &g.roles {
                // The first group holding a role wins, as a search would find it.
                if let Some(t @ None) = texts.get_mut(r.0) {
                    *t = Some(g.text);
                }
            }
        }
        texts
    }
}

/// One file of a `dir` layer: its stem (the choice's name) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceFile {
    pub stem: String,
    /// The enum variant it becomes (see `names::stem_variant`, and `rename`).
    pub variant: String,
    pub text: TextId,
}

#[derive(Debug)]
pub struct Layer {
    pub name: String,
    /// The layer's description as the runtime shows it, as far as validation knows it: its
    /// name, and what keys that only describe a layer (`note`) say, set where they are
    /// validated. The plan starts from it and adds the tier's names, `locked`, the title
    /// and whether the layer carries user-file text.
    pub info: LayerInfo,
    pub tier: Stability,
    /// Its place in [`Doctrine::tiers`].
    pub tier_index: usize,
    /// Conditions that must all hold for the layer to be included (`when`, `when_fact`).
    pub when: Vec<Cond>,
    /// Conditions that must not all hold (`unless`); empty means no such rule.
    pub unless: Vec<Cond>,
    /// `when` written as alternatives (`[["a", "b"], ["c"]]`): one of them must hold
    /// entirely; empty means no such rule.
    pub when_any: Vec<Vec<Cond>>,
    /// `unless` written as alternatives: the layer is dropped when one holds entirely.
    pub unless_any: Vec<Vec<Cond>>,
    /// Roles the layer applies to; `None` means every role.
    pub scope: Option<Vec<RoleId>>,
    pub content: Content,
    /// The ends of its text the layer trims (`trim`, or the manifest's): a template once
    /// rendered.
    pub trim: Trim,
    pub locked: bool,
    pub overlay: Option<Overlay>,
    pub suffix: Option<Suffix>,
    /// Delimited per formulation (`## Title`, `<title>`…) when set.
    pub title: Option<String>,
    /// Where the layer's keys sit in the manifest, for the checks that span layers.
    pub at: LayerSpans,
    /// An instructions layer's `provenance` template and `rank`; `None`: the default line,
    /// ranked by authority.
    pub provenance: Option<Provenance>,
    /// `selector`: the layer's source is chosen at run time. Its user copy's file and
    /// policy are in `overlay`, which such a layer always has, with no `Overlay` field.
    pub selector: Option<Selector>,
    /// `header`: written before the layer's text when it prints.
    pub header: Option<Header>,
}

/// A layer's `header`: its template as written, and its literal and placeholder segments
/// (no sections).
#[derive(Debug)]
pub struct Header {
    pub template: String,
    pub segments: Vec<Segment>,
    /// Where it is written in the manifest, for messages.
    pub at: std::ops::Range<usize>,
}

/// A layer's selector.
#[derive(Debug)]
pub struct Selector {
    /// A field of the generated `Selectors`.
    pub name: String,
    /// The index (among the manifest's selectors) of the one it follows when unset.
    pub follows: Option<usize>,
    /// Where the name is written, for messages.
    pub at: std::ops::Range<usize>,
    /// `follows` as written, and where, until resolved into `follows`.
    pub follows_name: Option<(String, std::ops::Range<usize>)>,
}

impl Doctrine {
    /// The layers with a selector, in manifest order: selector `i` is the `i`-th.
    pub fn selectors(&self) -> impl Iterator<Item = (&Layer, &Selector)> {
        self.layers
            .iter()
            .filter_map(|l| l.selector.as_ref().map(|s| (l, s)))
    }
}

/// An instructions layer's provenance line and ranking.
#[derive(Debug)]
pub struct Provenance {
    /// `None` keeps the default line (only `rank`, `verbatim`, `join` or `max_bytes` was
    /// set).
    pub line: Option<Vec<LinePart>>,
    pub by_source: bool,
    /// Each text as given, with no provenance line (`verbatim = true`).
    pub verbatim: bool,
    /// Written between two instructions, when not `\n\n`.
    pub join: Option<String>,
    /// A line break before `join`, only where the text before it does not end with one
    /// (`join = { end_line = true, ... }`).
    pub join_ends_line: bool,
    /// The most bytes of instruction text written (`max_bytes`).
    pub max_bytes: Option<usize>,
}

/// A piece of a provenance template.
#[derive(Debug, PartialEq, Eq)]
pub enum LinePart {
    Lit(String),
    Source,
    Scope,
}

/// Byte ranges in the manifest of the keys whole-manifest checks report at.
#[derive(Clone, Debug, Default)]
pub struct LayerSpans {
    pub name: std::ops::Range<usize>,
    /// `overlay_file`, when the manifest gives it.
    pub overlay_file: Option<std::ops::Range<usize>>,
}

impl Layer {
    pub fn in_scope(&self, role: RoleId) -> bool {
        self.scope.as_ref().is_none_or(|s| s.contains(&role))
    }

    /// Whether the layer is included only when fact `f` is given (so it may print it):
    /// `when` requires it, or every one of `when`'s alternatives does.
    pub fn requires_fact(&self, f: FactId) -> bool {
        let requires = |conds: &[Cond]| {
            conds.iter().any(|c| {
                !c.negated && matches!(c.test, Test::Fact(g) | Test::FactIs(g, _) if g == f)
            })
        };
        let alternatives = &self.when_any;
        requires(&self.when)
            || (!alternatives.is_empty() && alternatives.iter().all(|g| requires(g)))
    }

    /// Whether anything decides at run time if the layer is included.
    pub fn is_gated(&self) -> bool {
        self.conds().next().is_some()
    }

    /// Every condition of the layer, in `when`, `unless` and their alternatives.
    pub fn conds(&self) -> impl Iterator<Item = &Cond> {
        let any = self.when_any.iter().chain(&self.unless_any).flatten();
        self.when.iter().chain(&self.unless).chain(any)
    }
}

#[derive(Debug)]
pub enum Content {
    /// Groups of roles sharing one text, covering every role in scope (a single group
    /// holding role 0 when the manifest declares no roles).
    PerRole(Vec<RoleGroup>),
    /// A directory of markdown files; each stem is a variant of a generated enum.
    Choice {
        enum_name: String,
        variants: Vec<ChoiceFile>,
        optional: bool,
    },
    /// Text the caller supplies at composition time; `trim`: trimmed when given.
    Slot { required: bool, trim: Trim },
    /// Instructions the caller supplies at composition time, rendered in ascending
    /// authority, each after a line naming its source and scope.
    Instructions,
}

impl Content {
    /// The embedded texts it may print (none for a slot or instructions).
    pub fn text_ids(&self) -> Vec<TextId> {
        match self {
            Content::PerRole(groups) => groups.iter().map(|g| g.text).collect(),
            Content::Choice { variants, .. } => variants.iter().map(|v| v.text).collect(),
            Content::Slot { .. } | Content::Instructions => Vec::new(),
        }
    }
}

#[derive(Debug)]
pub struct Overlay {
    /// `overlay_cap` (default `limits::MAX_OVERLAY_BYTES`).
    pub cap: usize,
    /// `oversize = "refuse"`.
    pub refuse_oversize: bool,
    /// `overlay_ignore`: size and fingerprint of each earlier shipped version.
    pub ignore: Vec<(u64, u64)>,
    /// `empty = "off"`: an empty overlay file turns the layer off (`Overlay::<field>_off`).
    pub empty_off: bool,
    pub field: String,
    /// The file in the user's overlay directory that fills the field.
    pub file: String,
    pub mode: Override,
    pub separator: String,
    /// `overlay_interpolate = true`: the file is read as a template with the layer's
    /// facts, in the layer's syntax.
    pub template: Option<OverlayTemplate>,
}

/// How a user's overlay template is read: the layer's `placeholders` and `whitespace`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlayTemplate {
    pub dialect: doctrine_load::__private::Dialect,
    pub jinja: bool,
}

/// `override`: what a non-empty overlay file does to the shipped text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Override {
    Replace,
    Append,
}

/// A line appended to a layer's text for some roles, with knob placeholders.
#[derive(Debug)]
pub struct Suffix {
    pub roles: Option<Vec<RoleId>>,
    pub separator: String,
    pub segments: Vec<Segment>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Segment {
    Lit(String),
    Knob(KnobId),
    Fact(FactId),
    /// Handlebars' `{{name}}`: the fact printed escaped for HTML.
    Html(FactId),
    /// `{?name}`: the next `len` segments print only when the fact is given or the flag
    /// is on (`negated`: only when not).
    If {
        on: SectionOn,
        negated: bool,
        len: usize,
    },
    /// `{?list:one}` / `{?list:many}`: the next `len` segments print only when list fact
    /// `fact` holds exactly one item / two or more (`negated`: only when not).
    IfCount {
        fact: FactId,
        count: Count,
        negated: bool,
        len: usize,
    },
    /// `{?a and not b}`, `{?mode = plan}`, `{?tools has grep}`: the next `len` segments
    /// print only when the condition, its steps in postfix order, holds.
    When {
        steps: Vec<Step>,
        len: usize,
    },
    /// `{#list}…{/list}`: list fact `fact` printed through the loop's own item template
    /// (`style`); `site` numbers the manifest's loops in text order (set once every text is
    /// read), each a value of its own.
    Loop {
        fact: FactId,
        style: Box<ListSpec>,
        site: usize,
    },
}

pub use doctrine_load::__internals::template::Count;

/// One step of a section's condition, resolved, in postfix order ([`Segment::When`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Given(SectionOn),
    Count(FactId, Count),
    /// The fact prints this text (a closed set's value, as it prints).
    Is(FactId, String),
    Has(FactId, String),
    Not,
    And,
    Or,
}

/// What a `{?name}` section reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionOn {
    Fact(FactId),
    Flag(FlagId),
}

/// `[formulation]`, validated.
#[derive(Debug)]
pub struct Formulations {
    /// For families the table does not name.
    pub default: doctrine_core::input::Formulation,
    /// Lowercase family name (or prefix) → formulation, in manifest order.
    pub families: Vec<(String, doctrine_core::input::Formulation)>,
    /// `match = "exact"`: a key names a whole family, not a prefix.
    pub exact: bool,
    /// Where section boundaries in run-time text are escaped (`escape`).
    pub guard: Guarding,
}

/// `[formulation] escape`: where run-time text is kept from writing a section boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guarding {
    /// Outside a container, in a message that holds a locked layer (`locked`, the
    /// default); elsewhere only what would close a container.
    Locked,
    /// Outside a container, in every message (`boundaries`).
    Everywhere,
    /// Nowhere (`none`, in a manifest without a locked layer).
    Off,
}

/// `[reminders]`, validated.
#[derive(Debug)]
pub struct Reminders {
    /// The marker around every reminder, split at `{text}`.
    pub marker: (String, String),
    /// The fields of the generated `SessionState`, sorted by name.
    pub state: Vec<(String, StateShape)>,
    /// In emit order.
    pub kinds: Vec<ReminderDef>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateShape {
    Flag,
    List,
    Budget,
}

#[derive(Debug)]
pub struct ReminderDef {
    pub name: String,
    /// The state field that fires it.
    pub when: usize,
    pub body: ReminderBody,
}

#[derive(Debug)]
pub enum ReminderBody {
    /// Text with list fields printed in it.
    Text(Vec<ReminderPiece>),
    /// A budget reminder: the text for the 60%, 80% and 92% bands.
    Bands([String; 3]),
}

#[derive(Debug)]
pub enum ReminderPiece {
    Text(String),
    /// A list field's items, joined with `, `.
    List(usize),
}

/// A shipped skill, read from its file.
#[derive(Debug)]
pub struct SkillDef {
    pub name: String,
    pub when: String,
    pub triggers: Vec<String>,
    pub body: String,
}

/// `[models]`: model names (prefixes, or whole names with `exact`) → what they set.
#[derive(Debug)]
pub struct Models {
    /// `match = "exact"`.
    pub exact: bool,
    /// In key order.
    pub rules: Vec<ModelRule>,
    /// What a name no rule matches gets (nothing, without `default`).
    pub default: ModelRule,
}

/// One `[models]` rule, resolved.
#[derive(Debug, Default)]
pub struct ModelRule {
    /// The model name (prefix) it matches; `default` for the default rule.
    pub key: String,
    /// (index among the choice layers, the variant's index), in manifest order of layers.
    pub choices: Vec<(usize, usize)>,
    /// Flags it turns on, by index.
    pub flags: Vec<usize>,
    /// The family and the formulation `[formulation]` gives it.
    pub family: Option<(String, doctrine_core::input::Formulation)>,
}
