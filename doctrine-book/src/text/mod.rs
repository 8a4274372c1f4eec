//! The prompt book: every prompt of a manifest on one page of text, for review. Each
//! distinct layer text appears once, with the prompts it reaches; a matrix gives one line
//! per prompt (its bytes, its stable prefix's fingerprint, the texts it is made of, or the
//! earlier prompt it equals). A change to a file every prompt shares is then one hunk in
//! the book's text plus one changed line per prompt in the matrix, not a copy of the hunk
//! per prompt. The facade's `testing` feature snapshots it (`doctrine::testing::assert_book!`).
//! The same grouping (identical prompts, distinct texts) heads the web page ([`Book::html`]).

mod render;
pub(crate) mod shown;

use std::collections::HashMap;
use std::fmt::Display;

use doctrine_core::cache::MessageInfo;
use doctrine_core::introspect::{LayerInfo, Section};
use doctrine_core::Prompt;

use crate::count::Counter;
use crate::frames::frames;
use crate::page::Detail;
use crate::review::Review;

/// Every prompt of one manifest, layer texts shared. Build it with [`Book::of`] or
/// [`Book::add`]; its `Display` is the book.
#[derive(Clone, Debug, Default)]
pub struct Book {
    title: String,
    pub(crate) pages: Vec<Page>,
    texts: Vec<Text>,
    /// `(message, layer, text)` → its index in `texts`.
    known: HashMap<(Option<usize>, String, String), usize>,
    /// The messages the prompts are framed in, in the order first seen.
    messages: Vec<Message>,
    /// Each whole prompt → the first page that has it.
    prompts: HashMap<String, usize>,
    /// The layers' names, in the order prompts list them.
    layers: Vec<String>,
    /// What stands between two layers' texts: the first such stretch seen.
    joint: Option<String>,
    /// What the web page shows of each distinct prompt (`None` for a page that equals an
    /// earlier one), in page order.
    pub(crate) details: Vec<Option<Detail>>,
    pub(crate) counter: Counter,
    /// The role names, when the prompts' names start with one ([`Book::roles`]).
    pub(crate) roles: Vec<String>,
    /// What the manifest says of a layer beyond the runtime's records ([`Book::describe`]).
    pub(crate) about: HashMap<String, LayerAbout>,
    pub(crate) review: Option<Review>,
}

/// What a manifest says of a layer that a composed prompt does not record: shown in the
/// layer's label on the web page. `cargo doctrine book` fills it from the manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayerAbout {
    /// The gate that lets the layer in (`when = "fable"`, `roles = developer, qa`), if any.
    pub gate: Option<String>,
    /// The generated `Overlay` field that can change its text, if any.
    pub overlay: Option<String>,
}

/// One prompt: its name, sizes and the texts it is made of.
#[derive(Clone, Debug)]
pub(crate) struct Page {
    pub(crate) name: String,
    pub(crate) bytes: usize,
    pub(crate) stable: usize,
    fingerprint: u64,
    /// Indices into `Book::texts`, in the prompt's order.
    pieces: Vec<usize>,
    /// The index in `pieces` of the first volatile piece, if any.
    volatile: Option<usize>,
    /// The first earlier page with the same whole text.
    pub(crate) same_as: Option<usize>,
}

/// One distinct text of one layer, and the pages it is in.
#[derive(Clone, Debug)]
struct Text {
    /// The layer's name, or a gap's label (`(before notes)`, see [`is_gap`]) for what
    /// stands between two layers where the prompt does not have the book's joint.
    layer: String,
    body: String,
    /// The message it is inside (an index into `Book::messages`), if any.
    message: Option<usize>,
    pages: Vec<usize>,
}

/// One `[[message]]`, shown once as a frame around its texts, and the pages it is in.
#[derive(Clone, Debug)]
struct Message {
    info: &'static MessageInfo,
    pages: Vec<usize>,
}

/// The label of a prompt whose layers' records do not lie in order in its text: all of
/// it, as one stretch. A stretch that is no layer's text in an ordered prompt is labelled
/// by the layer it stands before (`(before notes)`), or after, for text after the last.
const BETWEEN: &str = "(between layers)";

/// A piece of a prompt: its label, where it stands, and the message it is inside.
type Piece = (String, usize, usize, Option<usize>);

/// Whether `label` names a stretch that is no layer's text (a layer's name never starts
/// with a parenthesis).
pub(crate) fn is_gap(label: &str) -> bool {
    label.starts_with('(')
}

/// The layer a gap's label names (`(before notes)` → `notes`), if any.
pub(crate) fn gap_layer(label: &str) -> Option<&str> {
    let inner = label.strip_prefix('(')?.strip_suffix(')')?;
    inner
        .strip_prefix("before ")
        .or_else(|| inner.strip_prefix("after "))
}

/// Whether what stands between `before`'s text and `after`'s is the manifest's separator:
/// both in the same message (or neither in one) and no `join_before` on `after`.
fn separated(before: &LayerInfo, after: &LayerInfo) -> bool {
    let same = match (before.message, after.message) {
        (Some(a), Some(b)) => std::ptr::eq(a, b),
        (a, b) => a.is_none() && b.is_none(),
    };
    same && after.join.is_none()
}

impl Book {
    /// An empty book called `title`.
    pub fn new(title: impl Into<String>) -> Self {
        Book {
            title: title.into(),
            ..Book::default()
        }
    }

    /// A book of one prompt per case: `compose` makes each, the case's `Display` names it
    /// (a generated `Combination` reads `developer+fable+intensity=ultra`).
    pub fn of<C: Display, S: AsRef<[Section]>>(
        title: impl Into<String>,
        cases: impl IntoIterator<Item = C>,
        mut compose: impl FnMut(C) -> Prompt<S>,
    ) -> Self {
        let mut book = Book::new(title);
        for case in cases {
            let name = case.to_string();
            book.add(name, &compose(case));
        }
        book
    }

    /// Adds a prompt under `name`, after those already added.
    pub fn add<S: AsRef<[Section]>>(
        &mut self,
        name: impl Display,
        prompt: &Prompt<S>,
    ) -> &mut Self {
        let page = self.pages.len();
        for section in prompt.sections() {
            if !self.layers.iter().any(|l| l == section.info.name) {
                self.layers.push(section.info.name.to_string());
            }
        }
        let text = prompt.as_str();
        let mut pieces = Vec::new();
        let mut volatile = None;
        for (layer, start, end, message) in self.split(text, prompt.sections(), page) {
            if volatile.is_none() && start >= prompt.stable().len() && start < text.len() {
                volatile = Some(pieces.len());
            }
            pieces.push(self.text(message, layer, &text[start..end], page));
        }
        let same_as = self.prompts.get(text).copied();
        if same_as.is_none() {
            self.prompts.insert(text.to_string(), page);
        }
        let detail = same_as
            .is_none()
            .then(|| Detail::of(prompt, &mut self.counter));
        self.details.push(detail);
        self.pages.push(Page {
            name: name.to_string(),
            bytes: text.len(),
            stable: prompt.stable().len(),
            fingerprint: prompt.stable_fingerprint(),
            pieces,
            volatile,
            same_as,
        });
        self
    }

    /// Names the roles: a prompt whose name starts with one of them (`developer+fable`) is
    /// that role's, and the web page's index filters by it.
    pub fn roles<R: Into<String>>(&mut self, roles: impl IntoIterator<Item = R>) -> &mut Self {
        self.roles = roles.into_iter().map(Into::into).collect();
        self
    }

    /// Says what the manifest says of `layer` beyond the prompt's records, for its label on
    /// the web page.
    pub fn describe(&mut self, layer: impl Into<String>, about: LayerAbout) -> &mut Self {
        self.about.insert(layer.into(), about);
        self
    }

    /// The book's title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The prompt cut into pieces `(layer, start, end, message)`: each included layer's
    /// text, and whatever stands between two of them when it is not the book's joint (the
    /// first joint seen becomes the book's). A message's wrapper is no piece: it is drawn
    /// as the frame of the message, which the pieces inside it name. Layers that overlap or
    /// run backwards (no composed prompt does) make the whole prompt one piece, so that
    /// nothing is ever lost.
    fn split(&mut self, text: &str, sections: &[Section], page: usize) -> Vec<Piece> {
        let spans: Vec<(&LayerInfo, usize, usize)> = sections
            .iter()
            .filter_map(|s| s.state.range().map(|r| (s.info, r.start, r.end)))
            .collect();
        let ordered = spans
            .iter()
            .try_fold(0, |at, &(_, start, end)| {
                (at <= start && start <= end && end <= text.len()).then_some(end)
            })
            .is_some();
        if !ordered {
            return vec![(BETWEEN.to_string(), 0, text.len(), None)];
        }
        let frames = frames(text, spans.iter().map(|&(info, s, e)| (info, s..e)));
        let mut pieces = Vec::new();
        let mut at = 0;
        for (i, &(info, start, end)) in spans.iter().enumerate() {
            let frame = frames.iter().find(|f| f.layers.contains(&i));
            let message = frame.map(|f| self.message(f.info, page));
            // Between two messages stands what the composer writes between them, the
            // separator, once their wrappers are taken off.
            let opens = frame.filter(|f| f.opens_at(i));
            let gap_end = opens.map_or(start, |f| f.range.start);
            let gap = &text[at..gap_end];
            let joint =
                i > 0 && (opens.is_some() || separated(spans[i - 1].0, info)) && self.is_joint(gap);
            if !joint && (i > 0 || !gap.is_empty()) {
                let inside = if opens.is_some() { None } else { message };
                pieces.push((format!("(before {})", info.name), at, gap_end, inside));
            }
            pieces.push((info.name.to_string(), start, end, message));
            at = match frame {
                Some(f) if f.closes_at(i) => f.range.end,
                _ => end,
            };
        }
        if let (true, Some((last, _, _))) = (at < text.len(), spans.last()) {
            pieces.push((format!("(after {})", last.name), at, text.len(), None));
        }
        pieces
    }

    /// The index of message `info` among the book's, recording that `page` has it.
    fn message(&mut self, info: &'static MessageInfo, page: usize) -> usize {
        let i = match self.messages.iter().position(|m| *m.info == *info) {
            Some(i) => i,
            None => {
                self.messages.push(Message {
                    info,
                    pages: Vec::new(),
                });
                self.messages.len() - 1
            }
        };
        if self.messages[i].pages.last() != Some(&page) {
            self.messages[i].pages.push(page);
        }
        i
    }

    /// Whether `gap` is the book's joint; the first non-empty gap becomes it.
    fn is_joint(&mut self, gap: &str) -> bool {
        match &self.joint {
            Some(joint) => joint == gap,
            None if !gap.is_empty() => {
                self.joint = Some(gap.to_string());
                true
            }
            None => false,
        }
    }

    /// The index of `(layer, body)` inside `message` among the texts, recording that
    /// `page` has it.
    fn text(&mut self, message: Option<usize>, layer: String, body: &str, page: usize) -> usize {
        let key = (message, layer, body.to_string());
        let i = match self.known.get(&key) {
            Some(&i) => i,
            None => {
                let i = self.texts.len();
                self.texts.push(Text {
                    layer: key.1.clone(),
                    body: key.2.clone(),
                    message,
                    pages: Vec::new(),
                });
                self.known.insert(key, i);
                i
            }
        };
        if self.texts[i].pages.last() != Some(&page) {
            self.texts[i].pages.push(page);
        }
        i
    }
}
