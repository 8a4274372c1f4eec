//! Where each layer's run-time input sits among a composition's inputs.

use crate::model::{Content, Doctrine};

/// Per layer: its slot or instructions index, its choice index, its selector index, its
/// overlay field and that field's `_off` flag, each counted in manifest order among the
/// layers that have one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indices {
    pub slot: Vec<Option<usize>>,
    pub instructions: Vec<Option<usize>>,
    pub choice: Vec<Option<usize>>,
    pub selector: Vec<Option<usize>>,
    pub overlay: Vec<Option<usize>>,
    pub off: Vec<Option<usize>>,
}

impl Indices {
    pub fn new(d: &Doctrine) -> Self {
        let mut count = [0usize; 6];
        let mut next = |k: usize, yes: bool| {
            yes.then(|| {
                count[k] += 1;
                count[k] - 1
            })
        };
        let mut ix = Indices {
            slot: Vec::new(),
            instructions: Vec::new(),
            choice: Vec::new(),
            selector: Vec::new(),
            overlay: Vec::new(),
            off: Vec::new(),
        };
        for l in &d.layers {
            // A selector layer's user copy is no `Overlay` field.
            let field = l.overlay.as_ref().filter(|_| l.selector.is_none());
            ix.slot
                .push(next(0, matches!(l.content, Content::Slot { .. })));
            ix.instructions
                .push(next(1, matches!(l.content, Content::Instructions)));
            ix.choice
                .push(next(2, matches!(l.content, Content::Choice { .. })));
            ix.selector.push(next(3, l.selector.is_some()));
            ix.overlay.push(next(4, field.is_some()));
            ix.off.push(next(5, field.is_some_and(|o| o.empty_off)));
        }
        ix
    }

    /// The index of layer `name`.
    pub(super) fn layer(d: &Doctrine, name: &str) -> Option<usize> {
        d.layers.iter().position(|l| l.name == name)
    }
}
