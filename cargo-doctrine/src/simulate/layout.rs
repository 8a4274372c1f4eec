//! Where a request's cache breakpoints go. [`blocks`] is the one place a composed prompt
//! becomes the blocks the simulator serves.

use doctrine_core::introspect::{Section, SectionState};
use doctrine_core::Prompt;

use super::cache::Block;

/// A way of marking breakpoints in a prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Today's two tiers: one breakpoint, at the end of the stable prefix.
    TwoTiers,
    /// A breakpoint after each of these layers (indices in manifest order, which are the
    /// prompt's sections' indices): at the end of the last layer up to it that has text.
    After(Vec<usize>),
}

/// `prompt`'s text cut at `layout`'s breakpoints; the text after the last one is a block
/// without a breakpoint. Breakpoints that fall at the same byte are one.
pub(crate) fn blocks(prompt: &Prompt<Box<[Section]>>, layout: &Layout) -> Vec<Block> {
    let text = prompt.as_str();
    let mut cuts: Vec<usize> = match layout {
        Layout::TwoTiers => vec![prompt.stable().len()],
        Layout::After(layers) => layers.iter().map(|&l| end_of(prompt, l)).collect(),
    };
    cuts.sort_unstable();
    cuts.dedup();
    let mut blocks = Vec::new();
    let mut start = 0;
    for cut in cuts.into_iter().filter(|&c| c > 0) {
        blocks.push(Block {
            text: text[start..cut].to_string(),
            breakpoint: true,
        });
        start = cut;
    }
    if start < text.len() {
        blocks.push(Block {
            text: text[start..].to_string(),
            breakpoint: false,
        });
    }
    blocks
}

/// Where the text of layers `0..=layer` ends: the end of the last of them included, or 0.
fn end_of(prompt: &Prompt<Box<[Section]>>, layer: usize) -> usize {
    let upto: Vec<&Section> = prompt.sections().iter().take(layer + 1).collect();
    upto.into_iter()
        .rev()
        .find_map(|s| match s.state {
            SectionState::Included { end, .. } => Some(end),
            SectionState::Skipped(_) => None,
        })
        .unwrap_or(0)
}
