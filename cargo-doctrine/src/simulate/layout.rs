//! Where a request's cache breakpoints go. [`blocks`] is the one place a composed prompt
//! becomes the blocks the simulator serves.

use doctrine_codegen::Doctrine;
use doctrine_core::introspect::Section;
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
    /// The manifest's own tiers: the blocks `Prompt::blocks()` gives, each cached tier's
    /// ending with a breakpoint, as a program sends them.
    Tiers,
}

impl Layout {
    /// What a manifest's prompts mark with no layout asked for: its tiers when it declares
    /// them, else today's two.
    pub(crate) fn default_for(d: &Doctrine) -> Layout {
        if d.tiers.declared {
            Layout::Tiers
        } else {
            Layout::TwoTiers
        }
    }
}

/// `prompt`'s text cut at `layout`'s breakpoints; the text after the last one is a block
/// without a breakpoint. Breakpoints that fall at the same byte are one.
pub(crate) fn blocks(prompt: &Prompt<Box<[Section]>>, layout: &Layout) -> Vec<Block> {
    let text = prompt.as_str();
    let mut cuts: Vec<usize> = match layout {
        Layout::TwoTiers => vec![prompt.stable().len()],
        Layout::After(layers) => layers.iter().map(|&l| end_of(prompt, l)).collect(),
        Layout::Tiers => {
            // Where each block with a breakpoint ends (blocks are slices of `text`, in order).
            let mut end = 0;
            let mut cuts = Vec::new();
            for b in prompt.blocks() {
                end += b.text.len();
                if b.breakpoint {
                    cuts.push(end);
                }
            }
            cuts
        }
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
        .find_map(|s| s.state.range().map(|r| r.end))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{blocks, Block, Layout};
    use crate::prompts;

    /// Every prompt of the tiered crew: the default layout cuts it where `Prompt::blocks()`
    /// does, with the same breakpoints, and a shared block is marked at all.
    #[test]
    fn a_tiered_manifest_s_default_layout_is_its_blocks() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/crew");
        let request = crate::manifest::request(&root.join("tiered.toml"), &root);
        let Ok(all) = prompts::all(&request, false) else {
            panic!("the tiered crew loads");
        };
        let layout = Layout::default_for(&all.doctrine);
        assert_eq!(layout, Layout::Tiers);
        for c in &all.all {
            let theirs: Vec<Block> = c
                .prompt
                .blocks()
                .filter(|b| !b.text.is_empty())
                .map(|b| Block {
                    text: b.text.to_string(),
                    breakpoint: b.breakpoint,
                })
                .collect();
            assert_eq!(blocks(&c.prompt, &layout), theirs, "{}", c.name);
            assert!(theirs.len() >= 3, "{}: {theirs:?}", c.name);
        }
    }
}
