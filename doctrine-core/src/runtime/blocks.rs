//! A composed prompt split at its tier boundaries ([`Prompt::blocks`]): what a provider's
//! prompt cache sees, each cacheable tier's block ending with a breakpoint.
//!
//! [`Prompt::blocks`]: crate::Prompt::blocks

use super::layer::Stability;
use super::message::close_after;
use super::section::{Section, SectionState};

/// One tier's stretch of a composed prompt: a `&str` of the prompt's one text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Block<'p> {
    /// The tier's name in the manifest's `tiers` (`stable` or `volatile` without them).
    pub tier: &'static str,
    /// The tier's place in `tiers`, from 0.
    pub tier_index: usize,
    /// The block's text. The separator before its first layer belongs to it, so a block's
    /// bytes never depend on whether a later tier has text.
    pub text: &'p str,
    /// Whether the block ends with a cache breakpoint: every block but the last tier's
    /// (the volatile one, which is never cached).
    pub breakpoint: bool,
}

/// The blocks of a prompt, in order: one per tier with text.
#[derive(Clone, Debug)]
pub struct Blocks<'p> {
    text: &'p str,
    sections: &'p [Section],
    /// Where the next block starts in `text`.
    start: usize,
    /// The next section to look at.
    next: usize,
}

impl<'p> Blocks<'p> {
    pub(crate) fn new(text: &'p str, sections: &'p [Section]) -> Self {
        Blocks {
            text,
            sections,
            start: 0,
            next: 0,
        }
    }
}

impl<'p> Iterator for Blocks<'p> {
    type Item = Block<'p>;

    fn next(&mut self) -> Option<Block<'p>> {
        // The first included section not yet in a block opens the next block; the block
        // runs to the end of the last included section of the same tier (validation keeps
        // a tier's layers together, in tier order).
        let rest = &self.sections[self.next..];
        let (first, open) = rest
            .iter()
            .enumerate()
            .find(|(_, s)| matches!(s.state, SectionState::Included { .. }))?;
        let mut end = self.start;
        let mut consumed = first;
        for (i, s) in rest.iter().enumerate().skip(first) {
            if s.info.tier_index != open.info.tier_index {
                break;
            }
            if let SectionState::Included { end: e, .. } = s.state {
                // A message's closing text ends its block (messages are of one tier).
                end = e + close_after(self.sections, self.next + i);
            }
            consumed = i;
        }
        let block = Block {
            tier: open.info.tier_name,
            tier_index: open.info.tier_index,
            text: &self.text[self.start..end],
            breakpoint: open.info.stability == Stability::Stable,
        };
        self.start = end;
        self.next += consumed + 1;
        Some(block)
    }
}
