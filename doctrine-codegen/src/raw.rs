//! The manifest as written: shapes with spans, before any validation. Each table is
//! declared once (`table!`, `sections!` for the top level): its keys, its struct, its
//! reader and its unknown-key check.

use std::collections::BTreeMap;
use std::ops::Range;

use toml::Spanned;

use super::de::{invalid, keywords, table, Error, FromToml, Value};
use super::diag::Sink;
#[cfg(feature = "schema")]
use super::json::Json;
#[cfg(feature = "schema")]
use super::schema::shape::{any_of, array as array_of, map, typed};
#[cfg(feature = "schema")]
use super::sections::SectionSchema;
use super::sections::{array, de, each, flags, named, sections, Key};
use doctrine_core::__internals::part::Trim;
use toml::de::DeValue;

pub(super) type Name = Spanned<String>;

sections! {
    /// The top level. Each key is read on its own so one bad section does not hide errors
    /// in the others.
    pub(super) struct Manifest in "the manifest's top level" {
        separator: Option<Spanned<String>> = "separator",
        trim: Option<Trim> = "trim",
        roles: Roles = roles "roles" | "modes",
        flags: Vec<(Name, bool)> = flags "flags",
        knobs: Vec<(Name, Knob)> = named "knobs",
        facts: Vec<(Name, Fact)> = named "facts",
        extra: Option<Spanned<bool>> = "extra",
        /// The most bytes a caller may cap overlay files at (`Overlay::load_with_cap`).
        overlay_cap_max: Option<Spanned<usize>> = "overlay_cap_max",
        budget: Option<Spanned<Budget>> = "budget",
        formulation: Option<Spanned<FormulationTable>> = "formulation",
        /// `[models]`: what a model name sets (choices, flags, the formulation family).
        models: Option<Spanned<ModelsTable>> = "models",
        layers: Vec<Spanned<Layer>> = layers "layer",
        orders: Vec<Spanned<Order>> = each "order",
        reminders: Option<Spanned<Reminders>> = "reminders",
        skills: Option<Spanned<SkillsTable>> = "skills",
        /// Ordered cache tiers, the last one volatile; absent: `stable`, `volatile`.
        tiers: Option<Spanned<Vec<Name>>> = "tiers",
        /// `[cache]`: the shared tiers, the breakpoint limit, the tiers of flags and knobs.
        cache: Option<Spanned<CacheTable>> = "cache",
        /// What is cleaned out of every value from outside (facts, list items, slots):
        /// `tags`, `bidi`, `nfc`.
        sanitize: Option<Spanned<Vec<Spanned<SanitizeClass>>>> = "sanitize",
        /// `[[message]]`: the layers grouped into a request's messages, in order.
        messages: Vec<Spanned<MessageTable>> = each "message",
    }
}

table! {
    /// One `[[message]]`: a role, its layers (consecutive, in manifest order) and an
    /// optional wrapper.
    pub(super) struct MessageTable in "a `[[message]]`" {
        role: Name = required "role",
        layers: Spanned<Vec<Name>> = required "layers",
        /// The opening and the closing text written around the message's layers.
        wrap: Option<Spanned<Vec<Spanned<String>>>> = "wrap",
        /// Sent after the conversation's history (the turn's own context).
        after_history: Option<Spanned<bool>> = "after_history",
        /// Each of its layers with text sent as a content part of its own.
        parts: Option<Spanned<bool>> = "parts",
    }
}

/// `roles` (or `modes`): the declared list.
#[derive(Debug, Default)]
pub(super) struct Roles {
    pub names: Vec<Name>,
    /// `true` when the manifest said `modes` rather than `roles`: the generated type is
    /// then `Mode` and messages say "mode".
    pub modes: bool,
    /// Span of the whole value, for errors about the list as a whole.
    pub span: Option<Range<usize>>,
}

/// As [`roles`] reads it.
#[cfg(feature = "schema")]
impl SectionSchema for Roles {
    fn value_schema() -> Json {
        Vec::<Name>::schema()
    }
}

table! {
    pub(super) struct Fact in "fact `{of}`" {
        /// One of the manifest's tiers (`stable` or `volatile` without declared `tiers`).
        tier: Name = required "tier",
        values: Option<Spanned<Values>> = "values",
        /// With `values` as a table: free text other than its keys passes through.
        other: Option<Spanned<Other>> = "other",
        /// Roles (modes) that must be given this fact; `"*"` means every one.
        required: Vec<Name> = default "required",
        /// Roles (modes) that may be given this fact; `"*"` means every one.
        optional: Vec<Name> = default "optional",
        /// The value an optional fact takes when it is not given (or given empty).
        default: Option<Spanned<String>> = "default",
        /// A list of strings, printed item by item.
        list: Option<Spanned<List>> = "list",
        /// A list's byte budget: it prints at most this many bytes, cut at a character
        /// boundary; `{ items = n }` counts the bytes its items print alone, not its joins.
        max_bytes: Option<Spanned<ByteBudget>> = "max_bytes",
        /// How its value (each item of a plain list) is printed: `json` or `xml`; for a
        /// list with named fields, a table of field = `json` or `xml`.
        escape: Option<Spanned<EscapeSpec>> = "escape",
        /// Its own cleaning, over the manifest's `sanitize`: a list of classes, or `false`.
        sanitize: Option<Spanned<SanitizeSpec>> = "sanitize",
    }
}

table! {
    /// `list = { item, join, sort, max, more, skip }`: how a list fact prints.
    pub(super) struct List in "the list of {of}" {
        item: Option<Spanned<String>> = "item",
        /// The item template in a file (relative to the manifest), instead of `item`.
        item_file: Option<Spanned<String>> = "item_file",
        /// Each item's fields and their kinds: `text`, `bool`, `text?`, or a nested table of
        /// them (an optional struct, its fields read as `outer.field`).
        fields: Option<Spanned<FieldTypes>> = "fields",
        /// Written between two items; `{ end_line = true, text = "..." }` writes a line
        /// break first, only when the item before it does not end with one.
        join: Option<Spanned<Join>> = "join",
        sort: Option<Spanned<ListSort>> = "sort",
        max: Option<Spanned<usize>> = "max",
        more: Option<Spanned<String>> = "more",
        /// Which items are left out: `empty` ones (the default) or `blank` ones too (only
        /// whitespace).
        skip: Option<Spanned<ListSkip>> = "skip",
    }
}

table! {
    /// `max_bytes = { items = n }`: a list's byte budget counting its items alone.
    pub(super) struct ItemsBudget in "the byte budget of {of}" {
        /// The most bytes the items' fields print, not counting the joins, the item
        /// template's own text or the `more` line.
        items: Spanned<usize> = required "items",
    }
}

table! {
    /// `join = { end_line = true, text = "..." }`: a join that ends the line first, in a
    /// list or an instructions layer.
    pub(super) struct JoinTable in "the join of {of}" {
        /// Written between two items (a list's, or an instructions layer's instructions),
        /// after the line break `end_line` adds (default "").
        text: Option<Spanned<String>> = "text",
        /// A line break before `text`, only when the text before it does not end with one.
        end_line: Spanned<bool> = required "end_line",
    }
}

table! {
    /// `[cache]`: how the tiers meet a provider's prompt cache.
    pub(super) struct CacheTable in "`[cache]`" {
        /// Tiers whose every layer must be the same bytes for every role.
        shared: Vec<Name> = default "shared",
        /// The most cache breakpoints a request may mark (default 4).
        breakpoints: Option<Spanned<usize>> = "breakpoints",
        /// Flag or knob name → its tier (default: the first tier).
        settings: BTreeMap<Name, Name> = default "settings",
    }
}

table! {
    pub(super) struct Budget in "`[budget]`" {
        stable_bytes: Option<Spanned<usize>> = "stable_bytes",
        per_role: BTreeMap<Name, Spanned<usize>> = default "per_role",
        /// The most tokens every stable prefix may hold, counted in `encoding` (feature
        /// `tokens`).
        tokens: Option<Spanned<usize>> = "tokens",
        /// `o200k`/`o200k_base` or `cl100k`/`cl100k_base`: what `tokens` counts in.
        encoding: Option<Spanned<String>> = "encoding",
    }
}

table! {
    /// Section delimiters per model family: the longest matching name prefix wins.
    pub(super) struct FormulationTable in "`[formulation]`" {
        default: Option<Formulation> = "default",
        families: BTreeMap<Name, Formulation> = default "families",
        match_: Option<Spanned<FamilyMatch>> = "match",
        /// `locked` (the default): section boundaries in run-time text are escaped, with a
        /// notice, where a locked layer can be reached (outside a container, in a message
        /// that holds one); `boundaries`: in every message; `none`: run-time text is written
        /// as given, for a manifest without a locked layer.
        escape: Option<Spanned<Escape>> = "escape",
    }
}

table! {
    /// `[models]`: model names (prefixes, as `[formulation] families`) → what they set.
    pub(super) struct ModelsTable in "`[models]`" {
        /// What a model no rule matches gets.
        default: Option<Spanned<ModelRule>> = "default",
        rules: BTreeMap<Name, Spanned<ModelRule>> = default "rules",
        match_: Option<Spanned<FamilyMatch>> = "match",
    }
}

table! {
    pub(super) struct Knob in "knob `{of}`" {
        values: Spanned<Values> = required "values",
        default: Name = required "default",
    }
}

table! {
    /// One `[[layer]]` table.
    pub(super) struct Layer in "{of}" {
        name: Name = required "name",
        file: Option<Spanned<String>> = "file",
        /// With a `{role}` pattern in `file`: what a role without its file gets.
        missing: Option<Spanned<Missing>> = "missing",
        files: Option<Spanned<BTreeMap<Name, Spanned<String>>>> = "files",
        text: Option<Spanned<String>> = "text",
        texts: Option<Spanned<RoleTexts>> = "texts",
        dir: Option<Spanned<String>> = "dir",
        slot: Option<Spanned<Slot>> = "slot",
        instructions: Option<Spanned<bool>> = "instructions",
        choice: Option<Name> = "choice",
        /// `dir` only: file stem → enum variant, for stems whose own variants collide.
        rename: Option<Spanned<BTreeMap<Name, Spanned<String>>>> = "rename",
        optional: Option<Spanned<bool>> = "optional",
        roles: Option<Spanned<Vec<Name>>> = "roles" | "modes",
        when: Option<Spanned<Conds>> = "when",
        unless: Option<Spanned<Conds>> = "unless",
        when_fact: Option<Name> = "when_fact",
        equals: Option<Spanned<String>> = "equals",
        interpolate: Option<Spanned<bool>> = "interpolate",
        /// How an interpolating layer's tags are written: `{name}`, `{{name}}`, or handlebars'.
        placeholders: Option<Spanned<Placeholders>> = "placeholders",
        /// Whose rules block tags take whitespace by: the standalone-tag rule or Jinja's.
        whitespace: Option<Spanned<Whitespace>> = "whitespace",
        /// One of the manifest's tiers; absent: the first.
        tier: Option<Name> = "tier",
        frontmatter: Option<Spanned<Frontmatter>> = "frontmatter",
        trim: Option<Trim> = "trim",
        locked: Option<Spanned<bool>> = "locked",
        override_: Option<Spanned<Override>> = "override",
        overlay_field: Option<Name> = "overlay_field",
        overlay_file: Option<Name> = "overlay_file",
        overlay_separator: Option<Spanned<String>> = "overlay_separator",
        /// The most bytes read from the overlay file.
        overlay_cap: Option<Spanned<usize>> = "overlay_cap",
        /// Over the cap: use the file's start (`truncate`) or keep the shipped text (`refuse`).
        oversize: Option<Spanned<Oversize>> = "oversize",
        /// Files in the crate holding earlier shipped versions of the layer's text.
        overlay_ignore: Option<Vec<Spanned<String>>> = "overlay_ignore",
        /// An empty overlay file keeps the shipped text (`keep`) or turns the layer off.
        empty: Option<Spanned<EmptyOverlay>> = "empty",
        /// The overlay file is a template with the facts the layer may use.
        overlay_interpolate: Option<Spanned<bool>> = "overlay_interpolate",
        title: Option<Spanned<String>> = "title",
        /// One line for whoever reads the layer table (`explain()`, `LayerInfo::note`);
        /// never in the prompt.
        note: Option<Spanned<String>> = "note",
        /// Written before the layer's text, in place of the separator, only when a layer
        /// before it in its message printed.
        join_before: Option<Spanned<String>> = "join_before",
        /// The opening and the closing text written around the layer's text when it
        /// prints: a container when they pair (a tag, a code fence).
        wrap: Option<Spanned<Vec<Spanned<String>>>> = "wrap",
        /// Written before the layer's text when it prints, with `{fact}` and `{knob}`
        /// placeholders.
        header: Option<Spanned<String>> = "header",
        suffix: Option<Spanned<Suffix>> = "suffix",
        claims: Option<Spanned<Claims>> = "claims",
        /// Instructions layers: the provenance line's template.
        provenance: Option<Spanned<String>> = "provenance",
        /// Instructions layers: rank by authority (default) or by declared source.
        rank: Option<Spanned<Rank>> = "rank",
        /// Instructions layers: each text as given (no trim, no provenance line).
        verbatim: Option<Spanned<bool>> = "verbatim",
        /// Instructions layers: written between two instructions; `{ end_line = true, text =
        /// "..." }` writes a line break first, only when the text before it does not end
        /// with one.
        join: Option<Spanned<Join>> = "join",
        /// Instructions layers: the most bytes of instruction text written (not their
        /// provenance lines or joins), the text that crosses it cut at a character boundary.
        max_bytes: Option<Spanned<usize>> = "max_bytes",
        /// The layer's source is chosen at run time by this selector.
        selector: Option<Spanned<Selector>> = "selector",
    }
}

table! {
    /// A line appended to a layer's text for some roles.
    pub(super) struct Suffix in "the suffix of {of}" {
        text: Spanned<String> = required "text",
        roles: Option<Vec<Name>> = "roles",
        separator: Option<String> = "separator",
    }
}

table! {
    /// One `[[layer.texts]]` entry: a text several roles share.
    pub(super) struct TextsEntry in "a `[[layer.texts]]` entry of {of}" {
        roles: Spanned<Vec<Name>> = required "roles",
        text: Spanned<String> = required "text",
    }
}

table! {
    /// Words a locked layer adds to what `safety_claims` looks for.
    pub(super) struct Claims in "the claims of {of}" {
        verbs: Vec<Spanned<String>> = default "verbs",
        objects: Vec<Spanned<String>> = default "objects",
        actions: Vec<Spanned<String>> = default "actions",
        phrases: Vec<Spanned<String>> = default "phrases",
    }
}

table! {
    /// `selector = "name"`, or `selector = { name = "...", follows = "..." }`.
    pub(super) struct Selector in "the selector of {of}",
        short "name", expected "a selector name, or a table { name, follows }"
    {
        name: Name = required "name",
        /// The selector whose value this one takes when its own is not given.
        follows: Option<Name> = "follows",
    }
}

table! {
    pub(super) struct Order in "an order constraint" {
        first: Name = required "first",
        then: Name = required "then",
    }
}

table! {
    /// `[reminders]`: notes appended to a turn, never part of the prefix.
    pub(super) struct Reminders in "`[reminders]`" {
        /// Wraps every reminder: one `{text}`.
        marker: Option<Spanned<String>> = "marker",
        /// What `emit` reads, by name: `flag`, `list` or `budget`.
        state: BTreeMap<Name, Spanned<StateKind>> = default "state",
        /// `[[reminders.kind]]`, in emit order.
        kinds: Vec<Spanned<ReminderKind>> = default "kind",
    }
}

table! {
    pub(super) struct ReminderKind in "a reminder kind" {
        name: Name = required "name",
        /// The state field that fires it: a flag on, a list non-empty, a budget band crossed.
        when: Name = required "when",
        text: Spanned<ReminderText> = required "text",
    }
}

table! {
    /// `[skills]`: the directory of shipped skills, embedded at compile time, and the index.
    /// Without `dir` nothing is shipped: the index lists the user's skills alone.
    pub(super) struct SkillsTable in "`[skills]`" {
        dir: Option<Spanned<String>> = "dir",
        index: Option<Spanned<SkillIndex>> = "index",
    }
}

table! {
    /// `[skills] index = { ... }`: the skill index's name, and how it prints, as a list
    /// fact does (`sort` is always by name).
    pub(super) struct SkillIndex in "the skill index" {
        /// The fact's name, for placeholders and conditions (default `skills`).
        name: Option<Name> = "name",
        item: Option<Spanned<String>> = "item",
        join: Option<Spanned<String>> = "join",
        max: Option<Spanned<usize>> = "max",
        more: Option<Spanned<String>> = "more",
    }
}

/// Every table's keys, by where they are written, for the test that the manifest
/// reference documents each one.
pub const MANIFEST_KEYS: &[(&str, &[&str])] = &[
    ("top level", Manifest::KEYS),
    ("[formulation]", FormulationTable::KEYS),
    ("[models]", ModelsTable::KEYS),
    ("[cache]", CacheTable::KEYS),
    ("[[message]]", MessageTable::KEYS),
    ("[facts.NAME]", Fact::KEYS),
    ("a fact's list", List::KEYS),
    ("a fact's max_bytes", ItemsBudget::KEYS),
    ("a list's join", JoinTable::KEYS),
    ("[budget]", Budget::KEYS),
    ("[knobs.NAME]", Knob::KEYS),
    ("[[layer]]", Layer::KEYS),
    ("[layer.suffix]", Suffix::KEYS),
    ("[[layer.texts]]", TextsEntry::KEYS),
    ("[layer.claims]", Claims::KEYS),
    ("a layer's selector", Selector::KEYS),
    ("[[order]]", Order::KEYS),
    ("[reminders]", Reminders::KEYS),
    ("[[reminders.kind]]", ReminderKind::KEYS),
    ("[skills]", SkillsTable::KEYS),
    ("[skills.index]", SkillIndex::KEYS),
];

// The shapes of values that may be written more than one way.

/// `when` / `unless`: one condition, or an array of them (all must hold), or an array of
/// alternatives, each an array of conditions (`[["a", "b"], ["c"]]`: a and b, or c).
#[derive(Debug)]
pub(super) enum Conds {
    All(Vec<Name>),
    Any(Vec<Spanned<Vec<Name>>>),
    /// Single names mixed with alternatives (`["a", ["b"]]`), each name read as an
    /// alternative of its own: an error, reported where the layer and key are known.
    Mixed(Vec<Spanned<Vec<Name>>>),
}

impl FromToml for Conds {
    const EXPECTED: &'static str =
        "a string, an array of strings, or an array of alternatives (arrays of strings)";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        if v.get_ref().is_str() {
            return Ok(Conds::All(vec![Name::from_toml(v)?]));
        }
        let Some(items) = v.get_ref().as_array() else {
            return invalid(v, Self::EXPECTED);
        };
        match items.iter().filter(|i| i.get_ref().is_array()).count() {
            0 => Ok(Conds::All(Vec::from_toml(v)?)),
            n if n == items.len() => Ok(Conds::Any(Vec::from_toml(v)?)),
            _ => {
                let alternative = |i: &Value<'_>| match i.get_ref().is_array() {
                    true => Spanned::from_toml(i),
                    false => Ok(Spanned::new(i.span(), vec![Name::from_toml(i)?])),
                };
                Ok(Conds::Mixed(
                    items.iter().map(alternative).collect::<Result<_, _>>()?,
                ))
            }
        }
    }
    /// The three shapes that mean something: a mixed list, read only to be refused where
    /// the layer is known, is no shape an editor should offer.
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        any_of(vec![
            Name::schema(),
            Vec::<Name>::schema(),
            Vec::<Vec<Name>>::schema(),
        ])
    }
}

/// One `[models]` rule: `{ base = "long", flags = ["patch_tool"], family = "claude" }`,
/// each key but `flags` and `family` a choice layer and the value its variant.
#[derive(Debug, Default)]
pub(super) struct ModelRule {
    pub choices: Vec<(Name, Name)>,
    pub flags: Vec<Name>,
    pub family: Option<Name>,
}

impl FromToml for ModelRule {
    const EXPECTED: &'static str =
        "a table of choice layer = variant, with optional `flags` and `family`";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        let Some(t) = v.get_ref().as_table() else {
            return invalid(v, Self::EXPECTED);
        };
        let mut rule = ModelRule::default();
        for (k, value) in t {
            match k.get_ref().as_ref() {
                "flags" => rule.flags = Vec::from_toml(value)?,
                "family" => rule.family = Some(Name::from_toml(value)?),
                layer => {
                    let layer = Spanned::new(k.span(), layer.to_string());
                    rule.choices.push((layer, Name::from_toml(value)?));
                }
            }
        }
        Ok(rule)
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        let properties = vec![
            ("flags".to_string(), Vec::<Name>::schema()),
            ("family".to_string(), Name::schema()),
        ];
        typed("object")
            .with("properties", Json::Object(properties))
            .with("additionalProperties", Name::schema())
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
            return invalid(v, Self::EXPECTED);
        }
        Ok(Values {
            names: Vec::from_toml(v)?,
            texts: None,
        })
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        any_of(vec![
            Vec::<Name>::schema(),
            BTreeMap::<Name, Spanned<String>>::schema(),
        ])
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
            return invalid(v, Self::EXPECTED);
        };
        let mut map = BTreeMap::new();
        for entry in entries.iter() {
            let TextsEntry { roles, text } = TextsEntry::from_toml(entry)?;
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
    /// A `[[layer.texts]]` entry gives its text to one role at least, as `from_toml` asks.
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        let mut entry = TextsEntry::schema();
        let roles = entry.get_mut("properties").and_then(|p| p.get_mut("roles"));
        if let Some(roles) = roles {
            roles.set("minItems", 1u64.into());
        }
        any_of(vec![
            BTreeMap::<Name, Spanned<String>>::schema(),
            array_of(entry),
        ])
    }
    fn unknown_keys(v: &Value<'_>, of: &str, out: &mut Vec<Error>) {
        Vec::<TextsEntry>::unknown_keys(v, of, out);
    }
}

/// `fields = { name = "text", has_resources = "bool", instructions = "text?" }`: an
/// item's fields in the order written, each with its kind; a nested table
/// (`rules_file = { path = "text" }`) is an optional struct of fields.
#[derive(Debug)]
pub(super) struct FieldTypes(pub Vec<(Name, FieldType)>);

/// One declared item field: a kind, or a nested table of fields (one level deep).
#[derive(Debug)]
pub(super) enum FieldType {
    Kind(Spanned<FieldKind>),
    Nested(Spanned<Vec<(Name, Spanned<FieldKind>)>>),
}

impl FromToml for FieldTypes {
    const EXPECTED: &'static str = "a table of field = kind";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        let Some(t) = v.get_ref().as_table() else {
            return invalid(v, Self::EXPECTED);
        };
        let fields = t.iter().map(|(k, kind)| {
            let name = Spanned::new(k.span(), k.get_ref().to_string());
            let field = match kind.get_ref().as_table() {
                Some(nested) => FieldType::Nested(Spanned::new(
                    kind.span(),
                    nested_fields(k.get_ref(), nested)?,
                )),
                None => FieldType::Kind(Spanned::<FieldKind>::from_toml(kind)?),
            };
            Ok((name, field))
        });
        Ok(FieldTypes(fields.collect::<Result<_, _>>()?))
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        let kind = FieldKind::schema();
        map(any_of(vec![
            kind.clone(),
            map(kind).with("minProperties", 1u64),
        ]))
    }
}

/// The fields of nested table `outer`: kinds only, since a table inside it would be a
/// struct of a struct, which no template needs over a field of its own.
fn nested_fields(
    outer: &str,
    t: &toml::de::DeTable<'_>,
) -> Result<Vec<(Name, Spanned<FieldKind>)>, Error> {
    t.iter()
        .map(|(k, kind)| {
            let inner = k.get_ref();
            if let Some(deeper) = kind.get_ref().as_table() {
                let first = deeper.iter().next().map_or("path", |(k, _)| k.get_ref());
                return Err(Error {
                    span: kind.span(),
                    message: format!("item field `{outer}.{inner}` is a table inside the nested table `{outer}`: fields nest one level deep"),
                    help: Some(format!("flatten it: give each of its fields a field of `{outer}` of its own, e.g. `{inner}_{first} = \"text\"`")),
                });
            }
            let name = Spanned::new(k.span(), inner.to_string());
            Ok((name, Spanned::<FieldKind>::from_toml(kind)?))
        })
        .collect()
}

keywords! {
    /// What an item field holds.
    pub(super) enum FieldKind {
        Text = "text",
        Bool = "bool",
        OptText = "text?",
    }
}

/// A list fact's `max_bytes`: its whole output (`max_bytes = 32768`) or its items alone
/// (`max_bytes = { items = 32768 }`).
#[derive(Debug)]
pub(super) enum ByteBudget {
    Output(usize),
    Items(usize),
}

impl ByteBudget {
    /// The most bytes, whatever it counts.
    pub(super) fn bytes(&self) -> usize {
        match self {
            ByteBudget::Output(n) | ByteBudget::Items(n) => *n,
        }
    }
}

impl FromToml for ByteBudget {
    const EXPECTED: &'static str = "a non-negative integer, or a table `{ items = n }`";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref() {
            DeValue::Integer(_) => Ok(ByteBudget::Output(usize::from_toml(v)?)),
            DeValue::Table(_) => {
                let budget = ItemsBudget::from_toml(v).map_err(|e| {
                    helped(e, "items", "write `max_bytes = { items = n }` to count the items' bytes alone, or `max_bytes = n` to count the whole list's")
                })?;
                Ok(ByteBudget::Items(*budget.items.get_ref()))
            }
            _ => invalid(v, Self::EXPECTED),
        }
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        any_of(vec![usize::schema(), ItemsBudget::schema()])
    }
    fn unknown_keys(v: &Value<'_>, of: &str, out: &mut Vec<Error>) {
        ItemsBudget::unknown_keys(v, of, out);
    }
}

/// A list's or an instructions layer's `join`: the text written between two items
/// (`join = ", "`), or a table that writes a line break first where the item before does
/// not end with one (`join = { end_line = true, text = "\n" }`).
#[derive(Debug, Clone)]
pub(super) enum Join {
    Text(String),
    Table {
        text: Option<Spanned<String>>,
        end_line: bool,
    },
}

impl Join {
    /// What is written between two items, after the line break `end_line` may add.
    pub(super) fn text(&self) -> &str {
        match self {
            Join::Text(t) => t,
            Join::Table { text, .. } => text.as_ref().map_or("", |t| t.get_ref()),
        }
    }

    /// Whether a line break goes first, where the item before does not end with one.
    pub(super) fn ends_line(&self) -> bool {
        matches!(self, Join::Table { end_line: true, .. })
    }
}

impl FromToml for Join {
    const EXPECTED: &'static str = "a string, or a table `{ end_line = true, text = \"...\" }`";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref() {
            DeValue::String(s) => Ok(Join::Text(s.to_string())),
            DeValue::Table(_) => {
                let table = JoinTable::from_toml(v).map_err(|e| {
                    helped(e, "end_line", "a join written as a table ends the line first: add `end_line = true`, or write the join as a string (`join = \"\\n\"`)")
                })?;
                let JoinTable { text, end_line } = table;
                let end_line = end_line.into_inner();
                Ok(Join::Table { text, end_line })
            }
            _ => invalid(v, Self::EXPECTED),
        }
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        any_of(vec![String::schema(), JoinTable::schema()])
    }
    fn unknown_keys(v: &Value<'_>, of: &str, out: &mut Vec<Error>) {
        JoinTable::unknown_keys(v, of, out);
    }
}

/// `e` with `help` when it is the missing `key` and says nothing of how to fix it.
fn helped(mut e: Error, key: &str, help: &str) -> Error {
    if e.help.is_none() && e.message == format!("missing field `{key}`") {
        e.help = Some(help.into());
    }
    e
}

keywords! {
    /// Which items of a list are left out: those whose fields are all empty, or (`blank`)
    /// all empty or whitespace.
    pub(super) enum ListSkip {
        Empty = "empty",
        Blank = "blank",
    }
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
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        any_of(vec![typed("boolean"), typed("string")])
    }
}

/// `trim = true` (both ends), `false`, `"start"` or `"end"`: which ends of a text are trimmed.
impl FromToml for Trim {
    const EXPECTED: &'static str = "a boolean, `\"start\"` or `\"end\"`";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref() {
            DeValue::Boolean(true) => Ok(Trim::Both),
            DeValue::Boolean(false) => Ok(Trim::No),
            DeValue::String(s) => match s.as_ref() {
                "start" => Ok(Trim::Start),
                "end" => Ok(Trim::End),
                word => Err(super::de::unknown_word(v, word, &["start", "end"])),
            },
            _ => invalid(v, Self::EXPECTED),
        }
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        any_of(vec![
            typed("boolean"),
            super::schema::shape::words(&["start", "end"]),
        ])
    }
}

/// `escape = "json"` (the value, or every item of a plain list) or `escape = { field =
/// "json", ... }` (named fields of a list's items).
#[derive(Debug)]
pub(super) enum EscapeSpec {
    All(Spanned<EscapeKind>),
    Fields(BTreeMap<Name, Spanned<EscapeKind>>),
}

impl FromToml for EscapeSpec {
    const EXPECTED: &'static str =
        "`\"json\"`, `\"xml\"`, or a table of field = `\"json\"` or `\"xml\"`";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref() {
            DeValue::Table(_) => Ok(EscapeSpec::Fields(BTreeMap::from_toml(v)?)),
            _ => Ok(EscapeSpec::All(Spanned::from_toml(v)?)),
        }
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        any_of(vec![EscapeKind::schema(), map(EscapeKind::schema())])
    }
}

/// A fact's `sanitize`: its own classes, or `false` (nothing cleaned).
#[derive(Debug)]
pub(super) enum SanitizeSpec {
    Off,
    Classes(Vec<Spanned<SanitizeClass>>),
}

impl FromToml for SanitizeSpec {
    const EXPECTED: &'static str =
        "a list of `\"tags\"`, `\"bidi\"`, `\"nfc\"`, `\"variation\"`, or `false`";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref() {
            DeValue::Boolean(false) => Ok(SanitizeSpec::Off),
            DeValue::Array(_) => Ok(SanitizeSpec::Classes(Vec::from_toml(v)?)),
            _ => invalid(v, Self::EXPECTED),
        }
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        let off = typed("boolean").with("const", Json::from(false));
        any_of(vec![Vec::<SanitizeClass>::schema(), off])
    }
}

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
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        any_of(vec![String::schema(), map(String::schema())])
    }
}

// Closed sets of words.

keywords! {
    pub(super) enum Formulation {
        Markdown = "markdown",
        Tagged = "tagged",
        Bare = "bare",
    }
}

impl From<Formulation> for doctrine_core::input::Formulation {
    fn from(f: Formulation) -> Self {
        match f {
            Formulation::Markdown => doctrine_core::input::Formulation::Markdown,
            Formulation::Tagged => doctrine_core::input::Formulation::Tagged,
            Formulation::Bare => doctrine_core::input::Formulation::Bare,
        }
    }
}

keywords! {
    /// What `[formulation] escape` escapes in run-time text.
    pub(super) enum Escape {
        Locked = "locked",
        Boundaries = "boundaries",
        None = "none",
    }
}

keywords! {
    /// A fact's `escape`: how its value is printed.
    pub(super) enum EscapeKind {
        Json = "json",
        Xml = "xml",
    }
}

keywords! {
    /// What `sanitize` cleans out of values from outside.
    pub(super) enum SanitizeClass {
        Tags = "tags",
        Bidi = "bidi",
        Nfc = "nfc",
        Variation = "variation",
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
    /// `placeholders`: an interpolating layer's tags in single braces or mustache's double.
    pub(super) enum Placeholders {
        Braces = "braces",
        Mustache = "mustache",
        Handlebars = "handlebars",
    }
}

keywords! {
    /// `whitespace`: the standalone-tag rule, or Jinja's `trim_blocks` + `lstrip_blocks`.
    pub(super) enum Whitespace {
        Standalone = "standalone",
        Jinja = "jinja",
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
    pub(super) enum Slot {
        Required = "required",
        Optional = "optional",
    }
}

keywords! {
    pub(super) enum Frontmatter {
        Keep = "keep",
        Strip = "strip",
    }
}

keywords! {
    pub(super) enum Override {
        Replace = "replace",
        Append = "append",
    }
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
    /// `other`: what a fact with value texts does with free text that is not a key.
    pub(super) enum Other {
        Verbatim = "verbatim",
    }
}

keywords! {
    /// The shape of one field of the generated `SessionState`.
    pub(super) enum StateKind {
        Flag = "flag",
        List = "list",
        Budget = "budget",
    }
}

/// `roles` or `modes` (not both): the list, its span, and which word the manifest used.
pub(super) fn roles(out: &mut Roles, key: &Key<'_>, value: &Value<'_>, sink: &mut Sink<'_>) {
    if out.span.is_some() {
        sink.error(
            Some(key.span()),
            "the manifest declares both `roles` and `modes`",
            Some("they are two spellings of one list: keep one".into()),
        );
    }
    out.modes = key.get_ref().as_ref() == "modes";
    out.span = Some(value.span());
    match de(value, "", sink) {
        Some(names) => out.names = names,
        None => sink.reported_mut().roles = true,
    }
}

/// `[[layer]]` tables, each on its own, named in messages by its `name`; the names of
/// those that do not read are kept (`""` without one), so their uses stay quiet.
pub(super) fn layers(
    out: &mut Vec<Spanned<Layer>>,
    key: &Key<'_>,
    value: &Value<'_>,
    sink: &mut Sink<'_>,
) {
    for v in array(value, key, sink) {
        let name = v.get_ref().as_table().and_then(|t| t.get("name"));
        let name = name.and_then(|n| n.get_ref().as_str());
        let what = name.map_or_else(|| "a layer".to_string(), |n| format!("layer `{n}`"));
        match de::<Layer>(v, &what, sink) {
            Some(layer) => out.push(Spanned::new(v.span(), layer)),
            None => sink
                .reported_mut()
                .layers
                .push(name.unwrap_or("").to_string()),
        }
    }
}
