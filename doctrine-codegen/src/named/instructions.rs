//! Instructions given by name: each to an instructions layer, with its source word, scope
//! and text, checked against the manifest and owned, then handed to the runtime as the
//! `&[Instruction]` generated `.<layer>(&instructions)` takes; the runtime renders them in
//! the layer's provenance style and rank, as for compiled code.

use super::error::find;
use super::{read_text, InputError, SlotText};
use crate::model::{Content, Doctrine};
use doctrine_core::instructions::{Authority, Instruction};

/// One instruction, by name: what a command line gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedInstruction {
    /// `learned`, `user`, `project`, `directory` or `locked` ([`Authority::as_str`]);
    /// `locked` is an administrator's instruction (`locked: true`), the only one that
    /// ranks at the top.
    pub source: String,
    /// What it applies to (a directory, a file); empty for none.
    pub scope: String,
    /// The guidance, given or read from a file as a slot's text is.
    pub text: SlotText,
}

/// An [`Instruction`], owned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Owned {
    source: Authority,
    scope: String,
    text: String,
}

impl Owned {
    pub(super) fn borrowed(&self) -> Instruction<'_> {
        Instruction {
            source: self.source,
            scope: &self.scope,
            // `locked` on a command line is the administrator's instruction it names.
            locked: self.source == Authority::Locked,
            text: &self.text,
        }
    }
}

/// Each instructions layer's instructions, in the plan's order of those layers, and in the
/// order given within a layer.
pub(super) fn instructions(
    d: &Doctrine,
    given: &[(String, NamedInstruction)],
) -> Result<Vec<Vec<Owned>>, InputError> {
    let layers: Vec<&str> = d
        .layers
        .iter()
        .filter(|l| matches!(l.content, Content::Instructions))
        .map(|l| l.name.as_str())
        .collect();
    let mut owned: Vec<Vec<Owned>> = vec![Vec::new(); layers.len()];
    let sources = Authority::ALL.map(Authority::as_str);
    for (layer, i) in given {
        let at = find("instructions layer", layer, layers.iter().copied())?;
        let source = find("instruction source", &i.source, sources.iter().copied())?;
        let nth = owned[at].len() + 1;
        let what = format!("instruction {nth} of layer `{layer}`");
        owned[at].push(Owned {
            source: Authority::ALL[source],
            scope: i.scope.clone(),
            text: read_text(&what, &i.text)?,
        });
    }
    Ok(owned)
}
