//! What a manifest has that the generated builder must carry ([`Uses`]), read by every
//! part of the expansion that writes the builder; below them all, so that none needs
//! another's file to know it.

use crate::model::{Content, Doctrine, Layer};

/// What the manifest has that the builder must carry.
pub(super) struct Uses {
    pub roles: bool,
    pub slots: usize,
    pub instructions: usize,
    /// An instructions layer has `max_bytes`: the builder carries each one's lowered cap.
    pub instruction_budgets: bool,
    pub facts: bool,
    pub lists: usize,
    pub flags: bool,
    pub knobs: bool,
    pub overlay: bool,
    pub selectors: usize,
    pub titled: bool,
    /// `[models]`: the builder's `.model()` and what it matched.
    pub models: bool,
    /// More layers than `MAX_INLINE_LAYERS`: slots on the heap, parts in a vector.
    pub large: bool,
}

impl Uses {
    pub(super) fn new(d: &Doctrine) -> Self {
        let count = |f: fn(&Layer) -> bool| d.layers.iter().filter(|l| f(l)).count();
        Uses {
            roles: !d.roles.is_empty(),
            slots: count(|l| matches!(l.content, Content::Slot { .. })),
            instructions: count(|l| matches!(l.content, Content::Instructions)),
            instruction_budgets: instruction_budgets(d).next().is_some(),
            facts: !d.facts.is_empty(),
            lists: d.list_count(),
            flags: !d.flags.is_empty(),
            knobs: !d.knobs.is_empty(),
            overlay: d
                .layers
                .iter()
                .any(|l| l.overlay.is_some() && l.selector.is_none()),
            selectors: d.selectors().count(),
            titled: d.layers.iter().any(|l| l.title.is_some()),
            models: d.models.is_some(),
            large: d.layers.len() > doctrine_core::__private::MAX_INLINE_LAYERS,
        }
    }
}

/// The choice layers, in manifest order.
pub(super) fn choice_layers(d: &Doctrine) -> impl Iterator<Item = &Layer> {
    d.layers
        .iter()
        .filter(|l| matches!(l.content, Content::Choice { .. }))
}

/// Each instructions layer with a byte budget: the layer, its index among the instructions
/// layers and its `max_bytes`.
pub(super) fn instruction_budgets(d: &Doctrine) -> impl Iterator<Item = (&Layer, usize, usize)> {
    let instructions = d
        .layers
        .iter()
        .filter(|l| matches!(l.content, Content::Instructions));
    instructions.enumerate().filter_map(|(k, l)| {
        let budget = l.provenance.as_ref()?.max_bytes?;
        Some((l, k, budget))
    })
}
