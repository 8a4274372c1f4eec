//! The manifest as written: shapes with spans, before any validation (read by `de`).

use std::collections::BTreeMap;

use toml::Spanned;

use super::de::{invalid, keywords, Error, Fields, FromToml, Value};
use toml::de::DeValue;

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
    "overlay_cap_max",
    "budget",
    "formulation",
    "layer",
    "order",
    "reminders",
    "skills",
];
pub(super) const FORMULATION_KEYS: &[&str] = &["default", "families", "match"];
pub(super) const FACT_KEYS: &[&str] = &[
    "tier", "values", "other", "required", "optional", "default", "list",
];
pub(super) const BUDGET_KEYS: &[&str] = &["stable_bytes", "per_role"];
pub(super) const KNOB_KEYS: &[&str] = &["values", "default"];
pub(super) const LAYER_KEYS: &[&str] = &[
    "name",
    "file",
    "missing",
    "files",
    "text",
    "texts",
    "dir",
    "slot",
    "instructions",
    "choice",
    "rename",
    "optional",
    "roles",
    "modes",
    "when",
    "unless",
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
    "overlay_cap",
    "oversize",
    "overlay_ignore",
    "empty",
    "title",
    "suffix",
    "claims",
    "provenance",
    "rank",
    "selector",
];
pub(super) const LIST_KEYS: &[&str] = &["item", "join", "sort", "max", "more"];
pub(super) const SUFFIX_KEYS: &[&str] = &["text", "roles", "separator"];
/// The keys of one `[[layer.texts]]` entry.
pub(super) const TEXTS_ENTRY_KEYS: &[&str] = &["roles", "text"];
pub(super) const CLAIMS_KEYS: &[&str] = &["verbs", "objects", "actions", "phrases"];
pub(super) const ORDER_KEYS: &[&str] = &["first", "then"];
pub(super) const SELECTOR_KEYS: &[&str] = &["name", "follows"];

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
    /// The most bytes a caller may cap overlay files at (`Overlay::load_with_cap`).
    pub overlay_cap_max: Option<Spanned<usize>>,
    pub budget: Option<Spanned<Budget>>,
    pub formulation: Option<Spanned<FormulationTable>>,
    pub reminders: Option<Spanned<Reminders>>,
    pub skills: Option<Spanned<SkillsTable>>,
    /// Span of the whole `roles` value, for errors about the list as a whole.
    pub roles_span: Option<std::ops::Range<usize>>,
}

#[derive(Debug)]
pub(super) struct Fact {
    pub tier: Spanned<Tier>,
    pub values: Option<Spanned<Values>>,
    /// With `values` as a table: free text other than its keys passes through.
    pub other: Option<Spanned<Other>>,
    /// Roles (modes) that must be given this fact; `"*"` means every one.
    pub required: Vec<Name>,
    /// Roles (modes) that may be given this fact; `"*"` means every one.
    pub optional: Vec<Name>,
    /// The value an optional fact takes when it is not given (or given empty).
    pub default: Option<Spanned<String>>,
    /// A list of strings, printed item by item.
    pub list: Option<Spanned<List>>,
}

#[derive(Debug)]
pub(super) struct Budget {
    pub stable_bytes: Option<Spanned<usize>>,
    pub per_role: BTreeMap<Name, Spanned<usize>>,
}

/// Section delimiters per model family: the longest matching name prefix wins.
#[derive(Debug)]
pub(super) struct FormulationTable {
    pub default: Option<Formulation>,
    pub match_: Option<Spanned<FamilyMatch>>,
    pub families: BTreeMap<Name, Formulation>,
}

keywords! {
    pub(super) enum Formulation {
        Markdown = "markdown",
        Tagged = "tagged",
        Bare = "bare",
    }
}

#[derive(Debug)]
pub(super) struct Knob {
    pub values: Spanned<Values>,
    pub default: Name,
}

keywords! {
    /// `empty`: what an empty overlay file does.
    pub(super) enum EmptyOverlay {
        Keep = "keep",
        Off = "off",
    }
}

keywords! {
    /// `oversize`: what an overlay file over its cap gives.
    pub(super) enum Oversize {
        Truncate = "truncate",
        Refuse = "refuse",
    }
}

keywords! {
    /// `rank`: what orders an instructions layer's instructions.
    pub(super) enum Rank {
        Authority = "authority",
        Source = "source",
    }
}

keywords! {
    /// `missing`: a role whose pattern file does not exist is an error, or gets no text.
    pub(super) enum Missing {
        Error = "error",
        Empty = "empty",
    }
}

keywords! {
    /// How `[formulation] families` keys meet a model family name.
    pub(super) enum FamilyMatch {
        Prefix = "prefix",
        Exact = "exact",
    }
}

keywords! {
    pub(super) enum Tier {
        Stable = "stable",
        Volatile = "volatile",
    }
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

keywords! {
    pub(super) enum Frontmatter {
        Keep = "keep",
        Strip = "strip",
    }
}

keywords! {
    pub enum Override {
        Replace = "replace",
        Append = "append",
    }
}

keywords! {
    pub(super) enum Slot {
        Required = "required",
        Optional = "optional",
    }
}

#[derive(Debug)]
pub(super) struct Suffix {
    pub text: Spanned<String>,
    pub roles: Option<Vec<Name>>,
    pub separator: Option<String>,
}

#[derive(Debug)]
pub(super) struct Layer {
    pub name: Name,
    pub file: Option<Spanned<String>>,
    /// With a `{role}` pattern in `file`: what a role without its file gets.
    pub missing: Option<Spanned<Missing>>,
    pub files: Option<Spanned<BTreeMap<Name, Spanned<String>>>>,
    pub text: Option<Spanned<String>>,
    pub texts: Option<Spanned<RoleTexts>>,
    pub dir: Option<Spanned<String>>,
    pub slot: Option<Spanned<Slot>>,
    pub instructions: Option<Spanned<bool>>,
    pub choice: Option<Name>,
    /// `dir` only: file stem → enum variant, for stems whose own variants collide.
    pub rename: Option<Spanned<BTreeMap<Name, Spanned<String>>>>,
    pub optional: Option<Spanned<bool>>,
    pub roles: Option<Spanned<Vec<Name>>>,
    pub when: Option<Spanned<Conds>>,
    pub unless: Option<Spanned<Conds>>,
    pub when_fact: Option<Name>,
    pub equals: Option<Spanned<String>>,
    pub interpolate: Option<Spanned<bool>>,
    pub tier: Option<Spanned<Tier>>,
    pub frontmatter: Option<Spanned<Frontmatter>>,
    pub trim: Option<bool>,
    pub locked: Option<Spanned<bool>>,
    pub override_: Option<Spanned<Override>>,
    pub overlay_field: Option<Name>,
    pub overlay_file: Option<Name>,
    pub title: Option<Spanned<String>>,
    pub overlay_separator: Option<Spanned<String>>,
    /// The most bytes read from the overlay file.
    pub overlay_cap: Option<Spanned<usize>>,
    /// Over the cap: use the file's start (`truncate`) or keep the shipped text (`refuse`).
    pub oversize: Option<Spanned<Oversize>>,
    /// Files in the crate holding earlier shipped versions of the layer's text.
    pub overlay_ignore: Option<Vec<Spanned<String>>>,
    /// An empty overlay file keeps the shipped text (`keep`) or turns the layer off.
    pub empty: Option<Spanned<EmptyOverlay>>,
    pub suffix: Option<Spanned<Suffix>>,
    pub claims: Option<Spanned<Claims>>,
    /// Instructions layers: the provenance line's template.
    pub provenance: Option<Spanned<String>>,
    /// Instructions layers: rank by authority (default) or by declared source.
    pub rank: Option<Spanned<Rank>>,
    /// The layer's source is chosen at run time by this selector.
    pub selector: Option<Spanned<Selector>>,
}

/// `selector = "name"`, or `selector = { name = "...", follows = "..." }`.
#[derive(Debug)]
pub(super) struct Selector {
    pub name: Name,
    /// The selector whose value this one takes when its own is not given.
    pub follows: Option<Name>,
}

impl FromToml for Selector {
    const EXPECTED: &'static str = "a selector name, or a table { name, follows }";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        if v.get_ref().is_str() {
            return Ok(Selector {
                name: Name::from_toml(v)?,
                follows: None,
            });
        }
        if !v.get_ref().is_table() {
            return invalid(v, Self::EXPECTED);
        }
        let f = Fields::of(v)?;
        Ok(Selector {
            name: f.required("name")?,
            follows: f.optional("follows")?,
        })
    }
}

/// Words a locked layer adds to what `safety_claims` looks for.
#[derive(Debug)]
pub(super) struct Claims {
    pub verbs: Vec<Spanned<String>>,
    pub objects: Vec<Spanned<String>>,
    pub actions: Vec<Spanned<String>>,
    pub phrases: Vec<Spanned<String>>,
}

#[derive(Debug)]
pub(super) struct Order {
    pub first: Name,
    pub then: Name,
}

/// A struct read key by key; every key is optional unless read with `required`.
macro_rules! from_toml {
    ($name:ident, |$f:ident| $body:expr) => {
        impl FromToml for $name {
            const EXPECTED: &'static str = "a table";
            fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
                let $f = Fields::of(v)?;
                Ok($body)
            }
        }
    };
}

from_toml!(Fact, |f| Fact {
    tier: f.required("tier")?,
    values: f.optional("values")?,
    other: f.optional("other")?,
    required: f.or_default("required")?,
    optional: f.or_default("optional")?,
    default: f.optional("default")?,
    list: f.optional("list")?,
});

from_toml!(Budget, |f| Budget {
    stable_bytes: f.optional("stable_bytes")?,
    per_role: f.or_default("per_role")?,
});

from_toml!(FormulationTable, |f| FormulationTable {
    default: f.optional("default")?,
    match_: f.optional("match")?,
    families: f.or_default("families")?,
});

from_toml!(Knob, |f| Knob {
    values: f.required("values")?,
    default: f.required("default")?,
});

from_toml!(Suffix, |f| Suffix {
    text: f.required("text")?,
    roles: f.optional("roles")?,
    separator: f.optional("separator")?,
});

from_toml!(Layer, |f| Layer {
    name: f.required("name")?,
    file: f.optional("file")?,
    missing: f.optional("missing")?,
    files: f.optional("files")?,
    text: f.optional("text")?,
    texts: f.optional("texts")?,
    dir: f.optional("dir")?,
    slot: f.optional("slot")?,
    instructions: f.optional("instructions")?,
    choice: f.optional("choice")?,
    rename: f.optional("rename")?,
    optional: f.optional("optional")?,
    roles: f.either("roles", "modes")?,
    when: f.optional("when")?,
    unless: f.optional("unless")?,
    when_fact: f.optional("when_fact")?,
    equals: f.optional("equals")?,
    interpolate: f.optional("interpolate")?,
    tier: f.optional("tier")?,
    frontmatter: f.optional("frontmatter")?,
    trim: f.optional("trim")?,
    locked: f.optional("locked")?,
    override_: f.optional("override")?,
    overlay_field: f.optional("overlay_field")?,
    overlay_file: f.optional("overlay_file")?,
    title: f.optional("title")?,
    overlay_separator: f.optional("overlay_separator")?,
    overlay_cap: f.optional("overlay_cap")?,
    oversize: f.optional("oversize")?,
    overlay_ignore: f.optional("overlay_ignore")?,
    empty: f.optional("empty")?,
    suffix: f.optional("suffix")?,
    claims: f.optional("claims")?,
    provenance: f.optional("provenance")?,
    rank: f.optional("rank")?,
    selector: f.optional("selector")?,
});

from_toml!(Claims, |f| Claims {
    verbs: f.or_default("verbs")?,
    objects: f.or_default("objects")?,
    actions: f.or_default("actions")?,
    phrases: f.or_default("phrases")?,
});

from_toml!(Order, |f| Order {
    first: f.required("first")?,
    then: f.required("then")?,
});

/// `when` / `unless`: one condition, or an array of them (all must hold), or an array of
/// alternatives, each an array of conditions (`[["a", "b"], ["c"]]`: a and b, or c).
#[derive(Debug)]
pub(super) enum Conds {
    All(Vec<Name>),
    Any(Vec<Spanned<Vec<Name>>>),
}

impl FromToml for Conds {
    const EXPECTED: &'static str =
        "a string, an array of strings, or an array of alternatives (arrays of strings)";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        if v.get_ref().is_str() {
            return Ok(Conds::All(vec![Name::from_toml(v)?]));
        }
        let Some(items) = v.get_ref().as_array() else {
            return super::de::invalid(v, Self::EXPECTED);
        };
        match items.iter().filter(|i| i.get_ref().is_array()).count() {
            0 => Ok(Conds::All(Vec::from_toml(v)?)),
            n if n == items.len() => Ok(Conds::Any(Vec::from_toml(v)?)),
            _ => Err(Error {
                span: v.span(),
                message: "conditions mix single names with alternatives".into(),
                help: Some(
                    "write every alternative as an array: `[[\"a\", \"b\"], [\"c\"]]` holds when a and b hold, or c does".into(),
                ),
            }),
        }
    }
}

/// `values`: a list of names, or a table of name → the text it prints, in manifest order.
#[derive(Debug)]
pub(super) struct Values {
    pub names: Vec<Name>,
    /// Present when `values` is a table: each name's text, in the order of `names`.
    pub texts: Option<Vec<Spanned<String>>>,
}

impl FromToml for Values {
    const EXPECTED: &'static str = "an array of names or a table of name = text";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        if let Some(t) = v.get_ref().as_table() {
            let mut names = Vec::new();
            let mut texts = Vec::new();
            for (k, text) in t {
                names.push(Spanned::new(k.span(), k.get_ref().to_string()));
                texts.push(Spanned::<String>::from_toml(text)?);
            }
            return Ok(Values {
                names,
                texts: Some(texts),
            });
        }
        if !v.get_ref().is_array() {
            return super::de::invalid(v, Self::EXPECTED);
        }
        Ok(Values {
            names: Vec::from_toml(v)?,
            texts: None,
        })
    }
}

keywords! {
    /// `other`: what a fact with value texts does with free text that is not a key.
    pub(super) enum Other {
        Verbatim = "verbatim",
    }
}

/// `texts`: a table of role → text, or an array of `{ roles = [...], text = "..." }`
/// tables so several roles share one text without writing it twice.
#[derive(Debug)]
pub(super) struct RoleTexts(pub BTreeMap<Name, Spanned<String>>);

impl FromToml for RoleTexts {
    const EXPECTED: &'static str = "a table of role = text, or an array of { roles, text } tables";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        let Some(entries) = v.get_ref().as_array() else {
            if v.get_ref().is_table() {
                return Ok(RoleTexts(BTreeMap::from_toml(v)?));
            }
            return super::de::invalid(v, Self::EXPECTED);
        };
        let mut map = BTreeMap::new();
        for entry in entries.iter() {
            let f = Fields::of(entry)?;
            let roles: Spanned<Vec<Name>> = f.required("roles")?;
            let text: Spanned<String> = f.required("text")?;
            if roles.get_ref().is_empty() {
                return Err(Error {
                    span: roles.span(),
                    message: "this `[[layer.texts]]` entry gives its text to no role".into(),
                    help: Some("list the roles that take the text, or remove the entry".into()),
                });
            }
            let roles = roles.into_inner();
            for role in roles {
                let span = role.span();
                let name = role.get_ref().clone();
                if map.insert(role, text.clone()).is_some() {
                    return Err(Error {
                        span,
                        message: format!("role `{name}` already has a text in `texts`"),
                        help: Some(
                            "a role takes one text: remove it from one of the `roles` lists".into(),
                        ),
                    });
                }
            }
        }
        Ok(RoleTexts(map))
    }
}

/// `list = { item, join, sort, max, more }`: how a list fact prints.
#[derive(Debug)]
pub(super) struct List {
    pub item: Option<Spanned<String>>,
    pub join: Option<Spanned<String>>,
    pub sort: Option<Spanned<ListSort>>,
    pub max: Option<Spanned<usize>>,
    pub more: Option<Spanned<String>>,
}

/// `sort = true` (a plain list, by its items) or `sort = "field"` (items with fields).
#[derive(Debug)]
pub(super) enum ListSort {
    On(bool),
    By(String),
}

impl FromToml for ListSort {
    const EXPECTED: &'static str = "a boolean or a field name";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref() {
            DeValue::Boolean(b) => Ok(ListSort::On(*b)),
            DeValue::String(s) => Ok(ListSort::By(s.to_string())),
            _ => invalid(v, Self::EXPECTED),
        }
    }
}

from_toml!(List, |f| List {
    item: f.optional("item")?,
    join: f.optional("join")?,
    sort: f.optional("sort")?,
    max: f.optional("max")?,
    more: f.optional("more")?,
});

/// `[reminders]`: notes appended to a turn, never part of the prefix.
pub(super) const REMINDERS_KEYS: &[&str] = &["marker", "state", "kind"];
pub(super) const REMINDER_KIND_KEYS: &[&str] = &["name", "when", "text"];

#[derive(Debug)]
pub(super) struct Reminders {
    /// Wraps every reminder: one `{text}`.
    pub marker: Option<Spanned<String>>,
    /// What `emit` reads, by name: `flag`, `list` or `budget`.
    pub state: BTreeMap<Name, Spanned<StateKind>>,
    /// `[[reminders.kind]]`, in emit order.
    pub kinds: Vec<Spanned<ReminderKind>>,
}

from_toml!(Reminders, |f| Reminders {
    marker: f.optional("marker")?,
    state: f.or_default("state")?,
    kinds: f.or_default("kind")?,
});

keywords! {
    /// The shape of one field of the generated `SessionState`.
    pub(super) enum StateKind {
        Flag = "flag",
        List = "list",
        Budget = "budget",
    }
}

#[derive(Debug)]
pub(super) struct ReminderKind {
    pub name: Name,
    /// The state field that fires it: a flag on, a list non-empty, a budget band crossed.
    pub when: Name,
    pub text: Spanned<ReminderText>,
}

from_toml!(ReminderKind, |f| ReminderKind {
    name: f.required("name")?,
    when: f.required("when")?,
    text: f.required("text")?,
});

/// One text, or (for a budget field) one per band: `{ 60 = "...", 80 = "...", 92 = "..." }`.
#[derive(Debug)]
pub(super) enum ReminderText {
    One(String),
    Bands(BTreeMap<Name, Spanned<String>>),
}

impl FromToml for ReminderText {
    const EXPECTED: &'static str = "a string, or a table of band = text";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref() {
            DeValue::String(s) => Ok(ReminderText::One(s.to_string())),
            DeValue::Table(_) => Ok(ReminderText::Bands(BTreeMap::from_toml(v)?)),
            _ => invalid(v, Self::EXPECTED),
        }
    }
}

/// `[skills]`: the directory of shipped skills, embedded at compile time, and the index.
pub(super) const SKILLS_KEYS: &[&str] = &["dir", "index"];
/// `[skills] index = { ... }`: the skill index's name and printing.
pub(super) const SKILL_INDEX_KEYS: &[&str] = &["name", "item", "join", "max", "more"];

/// Every table's keys, by where they are written, for the test that the manifest
/// reference documents each one.
pub const MANIFEST_KEYS: &[(&str, &[&str])] = &[
    ("top level", TOP_KEYS),
    ("[formulation]", FORMULATION_KEYS),
    ("[facts.NAME]", FACT_KEYS),
    ("a fact's list", LIST_KEYS),
    ("[budget]", BUDGET_KEYS),
    ("[knobs.NAME]", KNOB_KEYS),
    ("[[layer]]", LAYER_KEYS),
    ("[layer.suffix]", SUFFIX_KEYS),
    ("[[layer.texts]]", TEXTS_ENTRY_KEYS),
    ("[layer.claims]", CLAIMS_KEYS),
    ("a layer's selector", SELECTOR_KEYS),
    ("[[order]]", ORDER_KEYS),
    ("[reminders]", REMINDERS_KEYS),
    ("[[reminders.kind]]", REMINDER_KIND_KEYS),
    ("[skills]", SKILLS_KEYS),
    ("[skills.index]", SKILL_INDEX_KEYS),
];

#[derive(Debug)]
pub(super) struct SkillsTable {
    pub dir: Spanned<String>,
    pub index: Option<Spanned<SkillIndex>>,
}

from_toml!(SkillsTable, |f| SkillsTable {
    dir: f.required("dir")?,
    index: f.optional("index")?,
});

/// The skill index `[skills]` declares: a list fact of the session's skills.
#[derive(Debug)]
pub(super) struct SkillIndex {
    /// The fact's name, for placeholders and conditions (default `skills`).
    pub name: Option<Name>,
    /// How it prints, as a list fact does (`sort` is always by name).
    pub list: List,
}

from_toml!(SkillIndex, |f| SkillIndex {
    name: f.optional("name")?,
    list: List {
        item: f.optional("item")?,
        join: f.optional("join")?,
        sort: None,
        max: f.optional("max")?,
        more: f.optional("more")?,
    },
});
