//! The skill index `[skills]` declares: a list fact (default name `skills`) given as the
//! session's `&Skills` and printed one line per skill, by name. Its user skills' lines are
//! user content, which is why the manifest declares it rather than the caller: the
//! compiler then knows which layers can carry a user's text, and keeps it out of locked
//! ones.

use std::ops::Range;

use toml::Spanned;

use super::idents::check_ident;
use super::list::{list_body, ItemText};
use crate::diag::Sink;
use crate::model::{Fact, ListSpec, Need};
use crate::raw::{self, Manifest};
use doctrine_core::introspect::Stability;

/// The index's name when `index = { name = ... }` does not give one.
pub(crate) const DEFAULT_NAME: &str = "skills";
/// The index's item template by default.
pub(crate) const DEFAULT_ITEM: &str = "- **{name}** — {when}";
/// The most lines the index prints by default.
pub(crate) const DEFAULT_MAX: usize = 64;
/// The line after the last one by default, `{n}` the skills left out.
pub(crate) const DEFAULT_MORE: &str = "- ({n} more skills, not listed)";
/// The fields an index line can print.
const FIELDS: &[&str] = &["name", "when"];

/// The index fact, when the manifest has `[skills]`.
pub(super) fn fact(raw: &Manifest, roles: usize, sink: &mut Sink<'_>) -> Option<Fact> {
    let table = raw.skills.as_ref()?;
    let index = table.get_ref().index.as_ref();
    let named = index.and_then(|i| i.get_ref().name.as_ref());
    let name = named.map_or(DEFAULT_NAME, |n| n.get_ref().as_str());
    let at = named.map_or(table.span(), Spanned::span);
    let what = "the skill index's `name`";
    if !check_ident(sink, at.clone(), what, name, "a field of each facts struct") {
        return None;
    }
    let clash = clashes(raw, name, sink);
    let list = spec(name, index, at, sink)?;
    (!clash).then(|| Fact {
        name: name.to_string(),
        tier: Stability::Stable,
        tier_index: 0,
        values: None,
        need: vec![Need::Optional; roles],
        default: None,
        texts: None,
        list: Some(list),
        skill_index: true,
        // User skills are cleaned as the loader reads them.
        escape: Vec::new(),
        sanitize: doctrine_core::__private::Clean::NONE,
    })
}

/// Reports a declared fact or knob of the index's name; true when there is one.
fn clashes(raw: &Manifest, name: &str, sink: &mut Sink<'_>) -> bool {
    let facts = raw.facts.iter().map(|(n, _)| (n, "fact"));
    let knobs = raw.knobs.iter().map(|(n, _)| (n, "knob"));
    let mut found = false;
    for (n, what) in facts.chain(knobs).filter(|(n, _)| n.get_ref() == name) {
        found = true;
        sink.error(
            Some(n.span()),
            format!("{what} `{name}` has the name of the skill index, which `[skills]` declares"),
            Some(format!(
                "remove `[{what}s.{name}]`: `[skills]` declares the index, printed with `{{{name}}}` and given as `&Skills`; set how it prints with `[skills] index = {{ item = \"...\", max = N }}`, or name the index otherwise with `index = {{ name = \"...\" }}`"
            )),
        );
    }
    found
}

/// The index's printing: the manifest's keys over the defaults; its fields are `name`
/// and `when`, and it is sorted by name.
fn spec(
    name: &str,
    index: Option<&Spanned<raw::SkillIndex>>,
    at: Range<usize>,
    sink: &mut Sink<'_>,
) -> Option<ListSpec> {
    let given = index.map(Spanned::get_ref);
    let or = |key: Option<&Spanned<String>>, default: &str| {
        Some(
            key.cloned()
                .unwrap_or_else(|| Spanned::new(at.clone(), default.into())),
        )
    };
    let list = raw::List {
        item: or(given.and_then(|l| l.item.as_ref()), DEFAULT_ITEM),
        item_file: None,
        fields: None,
        join: given
            .and_then(|l| l.join.as_ref())
            .map(|j| Spanned::new(j.span(), raw::Join::Text(j.get_ref().clone()))),
        sort: None,
        max: given
            .and_then(|l| l.max.clone())
            .or(Some(Spanned::new(at.clone(), DEFAULT_MAX))),
        more: or(given.and_then(|l| l.more.as_ref()), DEFAULT_MORE),
        skip: None,
    };
    let item = list.item.as_ref().map(ItemText::inline);
    let mut spec = list_body(name, &list, item, sink)?;
    let item_at = list.item.as_ref().map(Spanned::span);
    if let Some(bad) = spec.fields.iter().find(|f| !FIELDS.contains(&f.as_str())) {
        sink.error(
            item_at,
            format!("the skill index's item template prints `{{{bad}}}`, which a skill does not have"),
            Some("an index line prints `{name}` and `{when}`, e.g. `item = \"- **{name}** — {when}\"`".into()),
        );
        return None;
    }
    if spec.fields.is_empty() {
        sink.error(
            item_at,
            "the skill index's item template prints `{0}`: a skill has fields, not one value",
            Some("print `{name}` and `{when}`, e.g. `item = \"- **{name}** — {when}\"`".into()),
        );
        return None;
    }
    spec.sort = spec.fields.iter().position(|f| f == "name");
    Some(spec)
}
