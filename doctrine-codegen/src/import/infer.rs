//! What the templates do with each name, from which the facts' kinds are guessed.

use std::collections::BTreeMap;

/// How one value is used: printed, tested (`if`, `is defined`), printed through `trim`.
#[derive(Default, Clone, Copy, Debug)]
pub(super) struct Use {
    pub(super) printed: bool,
    pub(super) tested: bool,
    pub(super) trimmed: bool,
    /// Printed through `tojson`: the fact (or field) is `escape = "json"`.
    pub(super) json: bool,
    /// Printed somewhere outside a section that tests it: doctrine prints an optional
    /// fact only inside one, so the fact is required.
    pub(super) unchecked: bool,
}

/// A top-level name.
#[derive(Default, Debug)]
pub(super) struct FactUse {
    pub(super) at: Use,
    /// Looped over (`for x in name`): its items' use.
    pub(super) list: Option<ListUse>,
}

#[derive(Default, Debug)]
pub(super) struct ListUse {
    /// The item itself printed or tested: a plain list of text.
    pub(super) item: Use,
    pub(super) fields: BTreeMap<String, Use>,
}

/// Every name the templates use, in name order.
#[derive(Default, Debug)]
pub(super) struct Uses {
    pub(super) facts: BTreeMap<String, FactUse>,
    /// The loops imported so far, in all templates: a manifest holds a bounded number.
    #[cfg_attr(not(feature = "jinja"), allow(dead_code))]
    pub(super) loops: usize,
}

/// What a name in a template stands for.
pub(super) enum Target {
    Fact(String),
    /// `item.field` in a loop over `list`.
    Field {
        list: String,
        field: String,
    },
    /// The loop's item itself.
    Item {
        list: String,
    },
}

impl Uses {
    /// The use record of `target`, made on first use.
    pub(super) fn of(&mut self, target: &Target) -> &mut Use {
        match target {
            Target::Fact(name) => &mut self.facts.entry(name.clone()).or_default().at,
            Target::Field { list, field } => {
                let list = self.list(list);
                list.fields.entry(field.clone()).or_default()
            }
            Target::Item { list } => &mut self.list(list).item,
        }
    }

    pub(super) fn list(&mut self, name: &str) -> &mut ListUse {
        let fact = self.facts.entry(name.to_string()).or_default();
        fact.list.get_or_insert_with(ListUse::default)
    }
}
