//! What the book shows of its texts. A layer's variants that differ only in their last
//! paragraph (a knob's suffix: `**Operative intensity: lite.**`, `… full.**`) are cut into
//! the head they share, shown once, and their own last paragraphs, each shown once too
//! (under every role's head alike): an edit to the file behind them is then one hunk, not
//! one per variant.

use std::collections::HashMap;

use super::{gap_layer, is_gap, Book, Text};

/// One text as the book shows it.
pub(crate) struct Shown<'a> {
    pub layer: &'a str,
    pub body: &'a str,
    /// The pages it is in, in order.
    pub pages: Vec<usize>,
}

/// The shown texts, and how the book's texts are made of them.
pub(crate) struct View<'a> {
    pub shown: Vec<Shown<'a>>,
    /// For each of the book's texts, the shown texts it is, joined by a blank line: one,
    /// or a shared head and its own last paragraph.
    pub parts: Vec<Vec<usize>>,
    /// Each shown text's number: layer by layer, in the order prompts list the layers,
    /// and within a layer in the order they first appear.
    pub ids: Vec<usize>,
}

/// The separator a head and its last paragraph are cut at.
pub(super) const PARAGRAPH: &str = "\n\n";

impl Book {
    pub(crate) fn view(&self) -> View<'_> {
        // How many of a layer's texts share each head: only a head shared is cut off.
        let mut sharing: HashMap<(&str, &str), usize> = HashMap::new();
        for t in &self.texts {
            if let Some((head, _)) = head_of(t) {
                *sharing.entry((t.layer.as_str(), head)).or_default() += 1;
            }
        }
        let mut heads: HashMap<(&str, &str), usize> = HashMap::new();
        let mut tails: HashMap<(&str, &str), usize> = HashMap::new();
        let mut shown: Vec<Shown<'_>> = Vec::new();
        let mut parts = Vec::with_capacity(self.texts.len());
        for t in &self.texts {
            let layer = t.layer.as_str();
            let whole = || Shown {
                layer,
                body: &t.body,
                pages: t.pages.clone(),
            };
            match head_of(t).filter(|&(head, _)| sharing[&(layer, head)] > 1) {
                Some((head, tail)) => {
                    let h = *heads.entry((layer, head)).or_insert_with(|| {
                        shown.push(Shown {
                            layer,
                            body: head,
                            pages: Vec::new(),
                        });
                        shown.len() - 1
                    });
                    shown[h].pages.extend(&t.pages);
                    // One ending shared by several heads (a knob's suffix under each role's
                    // text) is shown once too, with every prompt it is in.
                    let e = *tails.entry((layer, tail)).or_insert_with(|| {
                        shown.push(Shown {
                            body: tail,
                            pages: Vec::new(),
                            ..whole()
                        });
                        shown.len() - 1
                    });
                    shown[e].pages.extend(&t.pages);
                    parts.push(vec![h, e]);
                }
                None => {
                    shown.push(whole());
                    parts.push(vec![shown.len() - 1]);
                }
            }
        }
        for s in &mut shown {
            s.pages.sort_unstable();
            s.pages.dedup();
        }
        let ids = self.number(&shown);
        View { shown, parts, ids }
    }

    /// Each shown text's number (see [`View::ids`]).
    fn number(&self, shown: &[Shown<'_>]) -> Vec<usize> {
        // A gap ranks with the layer its label names: a join is listed beside its layer.
        let rank = |layer: &str| {
            let layer = gap_layer(layer).unwrap_or(layer);
            self.layers
                .iter()
                .position(|l| l == layer)
                .unwrap_or(self.layers.len())
        };
        let mut order: Vec<usize> = (0..shown.len()).collect();
        order.sort_by_key(|&s| (rank(shown[s].layer), s));
        let mut ids = vec![0; shown.len()];
        for (n, s) in order.into_iter().enumerate() {
            ids[s] = n + 1;
        }
        ids
    }
}

/// A layer text's head and last paragraph, when it has both.
fn head_of(t: &Text) -> Option<(&str, &str)> {
    if is_gap(&t.layer) {
        return None;
    }
    t.body
        .rsplit_once(PARAGRAPH)
        .filter(|(head, tail)| !head.is_empty() && !tail.is_empty())
}
