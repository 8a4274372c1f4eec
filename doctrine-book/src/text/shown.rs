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
    /// The message it is inside, an index into the book's messages.
    pub message: Option<usize>,
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
    /// and within a layer in the order they first appear; a message's texts together.
    pub ids: Vec<usize>,
    /// Each of the book's messages' number (`M1`), in the order of the texts' numbers.
    pub messages: Vec<usize>,
}

/// The separator a head and its last paragraph are cut at.
pub(super) const PARAGRAPH: &str = "\n\n";

impl Book {
    pub(crate) fn view(&self) -> View<'_> {
        // How many of a layer's texts share each head: only a head shared is cut off.
        // A text is a layer's within its message: keys hold both.
        type Key<'k> = (Option<usize>, &'k str, &'k str);
        let mut sharing: HashMap<Key<'_>, usize> = HashMap::new();
        for t in &self.texts {
            if let Some((head, _)) = head_of(t) {
                *sharing.entry((t.message, &t.layer, head)).or_default() += 1;
            }
        }
        let mut heads: HashMap<Key<'_>, usize> = HashMap::new();
        let mut tails: HashMap<Key<'_>, usize> = HashMap::new();
        let mut shown: Vec<Shown<'_>> = Vec::new();
        let mut parts = Vec::with_capacity(self.texts.len());
        for t in &self.texts {
            let layer = t.layer.as_str();
            let message = t.message;
            let whole = || Shown {
                layer,
                body: &t.body,
                message,
                pages: t.pages.clone(),
            };
            match head_of(t).filter(|&(head, _)| sharing[&(message, layer, head)] > 1) {
                Some((head, tail)) => {
                    let h = *heads.entry((message, layer, head)).or_insert_with(|| {
                        shown.push(Shown {
                            body: head,
                            pages: Vec::new(),
                            ..whole()
                        });
                        shown.len() - 1
                    });
                    shown[h].pages.extend(&t.pages);
                    // One ending shared by several heads (a knob's suffix under each role's
                    // text) is shown once too, with every prompt it is in.
                    let e = *tails.entry((message, layer, tail)).or_insert_with(|| {
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
        let (ids, messages) = self.number(&shown);
        View {
            shown,
            parts,
            ids,
            messages,
        }
    }

    /// Each shown text's number (see [`View::ids`]) and each message's.
    fn number(&self, shown: &[Shown<'_>]) -> (Vec<usize>, Vec<usize>) {
        // A gap ranks with the layer its label names: a join is listed beside its layer.
        let rank = |layer: &str| {
            let layer = gap_layer(layer).unwrap_or(layer);
            self.layers
                .iter()
                .position(|l| l == layer)
                .unwrap_or(self.layers.len())
        };
        // A message ranks with its first layer, so that its texts are listed together,
        // inside its frame; a text outside any ranks with its layer, before a message
        // that starts there.
        let mut first = vec![usize::MAX; self.messages.len()];
        for s in shown {
            if let Some(m) = s.message {
                first[m] = first[m].min(rank(s.layer));
            }
        }
        let key = |s: &Shown<'_>| match s.message {
            Some(m) => (first[m], m + 1, rank(s.layer)),
            None => (rank(s.layer), 0, rank(s.layer)),
        };
        let mut order: Vec<usize> = (0..shown.len()).collect();
        order.sort_by_key(|&s| (key(&shown[s]), s));
        let mut ids = vec![0; shown.len()];
        let mut messages = vec![0; self.messages.len()];
        let mut next = 1;
        for (n, &s) in order.iter().enumerate() {
            ids[s] = n + 1;
            if let Some(m) = shown[s].message.filter(|&m| messages[m] == 0) {
                messages[m] = next;
                next += 1;
            }
        }
        (ids, messages)
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
