//! What a change did, as the web page shows it in review mode: each changed layer text once
//! with the prompts it reaches, and per prompt the bytes that changed and a line on its
//! cached prefix before and after. `cargo doctrine book --diff` computes it (with the same
//! comparison `cargo doctrine diff` prints); the page only shows it.

use std::collections::HashMap;
use std::ops::Range;

use crate::Book;

/// A change from an old set of prompts to the book's (the new ones).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Review {
    /// What the old side is (`doctrine.toml at HEAD`).
    pub old: String,
    /// What the new side is.
    pub new: String,
    /// Each distinct change of a layer's text, once.
    pub changes: Vec<Change>,
    /// What changed in each prompt, by the prompt's name; a prompt absent here is unchanged.
    pub pages: HashMap<String, PageReview>,
    /// The prompts only the old side has.
    pub removed: Vec<String>,
    /// Lines under the review's heading (the simulated cache before → after).
    pub summary: Vec<String>,
}

/// One change of a layer's text and the prompts it reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub layer: String,
    /// The text's lines, as a line diff shows them.
    pub lines: Vec<DiffLine>,
    /// The names of the prompts (new ones, or old ones where the text went away) it reaches.
    pub prompts: Vec<String>,
}

impl Change {
    pub fn new(layer: impl Into<String>, lines: Vec<DiffLine>, prompts: Vec<String>) -> Self {
        Change {
            layer: layer.into(),
            lines,
            prompts,
        }
    }
}

/// A line of a text's diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffLine {
    Same(String),
    Removed(String),
    Added(String),
}

/// What changed in one prompt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageReview {
    /// `changed` or `added`.
    pub status: String,
    /// The stretches of the new prompt that are new, in order.
    pub inserted: Vec<Range<usize>>,
    /// The old bytes removed, each at the byte of the new prompt where they stood.
    pub deleted: Vec<(usize, String)>,
    /// The prompt's cached prefix before → after, as `cargo doctrine diff` words it.
    pub cache: Vec<String>,
}

impl Book {
    /// Shows the book as the review of `review`.
    pub fn review(&mut self, review: Review) -> &mut Self {
        self.review = Some(review);
        self
    }
}
