//! A composed prompt: one string, its stable/volatile split, and a record per layer.

use crate::runtime::shown::Shown;
use std::fmt;

use super::boundary::{Escape, RunTimeText};
use super::explain::Explain;
use super::list::ListCut;
use super::model::ModelMatch;
use super::notice::{Notice, NoticeKind};
use super::plan::{Inputs, LayerPlan};
use super::sanitize::Cleaned;
use super::section::{Mark, Section, SectionState};
use super::user_content::UserContent;

/// A composed system prompt, with one [`Section`] per manifest layer held in `S`: an array
/// `[Section; N]` inside the prompt for most manifests (one allocation per prompt), a
/// `Box<[Section]>` for very large ones (generated code picks it above 128 layers).
/// Generated code names the right one as its `Prompt` type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt<S> {
    text: String,
    stable_end: usize,
    volatile_start: usize,
    sections: S,
    marks: Vec<Mark>,
    /// The stretches of `text` a user's file supplied, in order.
    user: Vec<UserContent>,
    /// Where run-time text held a section boundary, escaped, in order.
    escapes: Vec<Escape>,
    /// The manifest's `[budget]` ceiling for this role's stable prefix, if it has one.
    ceiling: Option<usize>,
    /// The `[models]` rule the builder's `.model()` matched, if it was called.
    model: Option<ModelMatch>,
    /// What composing was told of its inputs: the facts and slots `sanitize` changed,
    /// the users' templates refused, the lists their byte budget cut. `None` for most
    /// prompts, and one pointer wide, so a prompt told nothing is moved as cheaply as
    /// before.
    told: Option<Box<Told>>,
}

/// What a prompt was told of its inputs before composing, the lists their byte budget
/// cut, and the run-time pieces a recording guard saw: what most prompts have none of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Told {
    cleaned: Box<[Cleaned]>,
    rejected: Box<[Notice]>,
    run_time: Box<[RunTimeText]>,
    cuts: Box<[ListCut]>,
    unclosed: Box<[Unclosed]>,
}

/// `None` when there is nothing to tell.
#[inline(always)]
fn told(
    (cleaned, rejected): (&[Cleaned], &[Notice]),
    run_time: Vec<RunTimeText>,
    unclosed: Vec<Unclosed>,
    cuts: Vec<ListCut>,
) -> Option<Box<Told>> {
    let nothing = cleaned.is_empty()
        && rejected.is_empty()
        && run_time.is_empty()
        && unclosed.is_empty()
        && cuts.is_empty();
    match nothing {
        true => None,
        false => Some(boxed((cleaned, rejected), run_time, unclosed, cuts)),
    }
}

/// What [`told`] holds when there is something: kept out of the composer's line.
#[cold]
#[inline(never)]
fn boxed(
    (cleaned, rejected): (&[Cleaned], &[Notice]),
    run_time: Vec<RunTimeText>,
    unclosed: Vec<Unclosed>,
    cuts: Vec<ListCut>,
) -> Box<Told> {
    Box::new(Told {
        cleaned: cleaned.into(),
        rejected: rejected.into(),
        run_time: run_time.into(),
        cuts: cuts.into(),
        unclosed: unclosed.into(),
    })
}

pub use super::unclosed::Unclosed;

/// What composition wrote: the text, where its stable part ends and its volatile part
/// starts, where each instruction's provenance line landed, which stretches came from
/// user files, and where a section boundary in run-time text was escaped.
pub(crate) struct Written {
    pub text: String,
    pub stable_end: usize,
    pub volatile_start: usize,
    pub marks: Vec<Mark>,
    pub user: Vec<UserContent>,
    pub escapes: Vec<Escape>,
    /// Each run-time piece, when the guard recorded them.
    pub run_time: Vec<RunTimeText>,
    /// What run-time text left open inside a container, and the closers written.
    pub closed: Vec<Unclosed>,
}

impl<S: AsRef<[Section]>> Prompt<S> {
    /// The whole prompt: the stable part, a separator, then the volatile part.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The cacheable prefix. Byte-identical for equal stable inputs, whatever the
    /// volatile inputs are.
    pub fn stable(&self) -> &str {
        &self.text[..self.stable_end]
    }

    /// The per-turn suffix (empty when no volatile layer has text).
    pub fn volatile(&self) -> &str {
        &self.text[self.volatile_start..]
    }

    /// The whole prompt, as its string.
    pub fn into_string(self) -> String {
        self.text
    }

    /// The text split at its tier boundaries: one [`Block`](crate::cache::Block) per tier
    /// with text, in order, each with its tier's name and whether it ends with a cache
    /// breakpoint (every block but the last tier's). The blocks are slices of the one
    /// text: they concatenate to [`as_str`](Self::as_str). Without declared `tiers` there
    /// are two at most, `stable` (breakpoint) and `volatile`; see [`crate::cache`] for
    /// provider-shaped adapters.
    pub fn blocks(&self) -> super::blocks::Blocks<'_> {
        super::blocks::Blocks::new(&self.text, self.sections())
    }

    /// The prompt as the messages of a request, in order, as plain data: each `[[message]]`
    /// of the manifest that has text, its wrapper around its layers, with its role, its
    /// tier, whether a cache breakpoint follows it and whether the caller sends it after
    /// the conversation's history (`after_history`). A manifest without messages gives the
    /// whole text as one `system` message; an empty prompt gives none. Each message's text
    /// is a slice of [`as_str`](Self::as_str) (which holds them joined by the separator);
    /// see [`crate::cache`] for provider-shaped requests.
    pub fn messages(&self) -> Vec<super::message::Message<'_>> {
        super::message::messages(&self.text, self.sections())
    }

    /// One record per manifest layer, in manifest order, skipped layers included.
    pub fn sections(&self) -> &[Section] {
        self.sections.as_ref()
    }

    /// The text a layer contributed, or `None` when it was skipped or is unknown.
    pub fn layer(&self, name: &str) -> Option<&str> {
        self.sections()
            .iter()
            .find(|s| s.info.name == name)
            .and_then(|s| self.text_of(s))
    }

    /// The text of one section of this prompt.
    pub fn text_of(&self, section: &Section) -> Option<&str> {
        match section.state {
            SectionState::Included { start, end } => Some(&self.text[start..end]),
            SectionState::Skipped(_) => None,
        }
    }

    /// Every stretch of the text that a user's file supplied, in order: an overlay that
    /// replaced or extended a layer, a file a selector named or its user copy, a user
    /// skill's line of the skill index. Never inside a locked layer (the manifest cannot
    /// compile so). Everything else is shipped text or what the calling code passed (slots,
    /// facts, instructions).
    ///
    /// It marks only the bytes the library itself read from a user's files. What the
    /// calling code passes is the caller's, wherever it came from: a list fact the caller
    /// filled with skill text or a file's lines is not listed here, even in a locked layer.
    pub fn user_content(&self) -> &[UserContent] {
        &self.user
    }

    /// Each section boundary that run-time text held (a tag of a section or marker the
    /// manifest declares, a heading line at level 1 or 2), where the `\` that split it
    /// was written: a user's overlay, selector file or skill line, or a slot, fact or
    /// instruction, could otherwise close its section and open one that reads as the
    /// manifest's, a locked one included. Shipped text is never escaped. See
    /// [`Prompt::notices`] for the same said in sentences.
    pub fn escapes(&self) -> &[Escape] {
        &self.escapes
    }

    /// Each stretch run-time text wrote (a fact's value, a list item's field, a slot, an
    /// instruction, a user's file), in order, when the prompt was composed with a
    /// recording guard ([`Guard::recording`](crate::__private::Guard::recording)): what
    /// the prompt book draws. Empty for generated code's prompts, which do not record.
    pub fn run_time_text(&self) -> &[RunTimeText] {
        self.told.as_ref().map_or(&[], |t| &t.run_time)
    }

    /// Each fact and slot whose value the manifest's `sanitize` changed before it was
    /// composed (tag characters or invisible characters removed, normalised to NFC), in
    /// manifest order. See [`Prompt::notices`] for the same said in sentences.
    pub fn cleaned(&self) -> &[Cleaned] {
        self.told.as_ref().map_or(&[], |t| &t.cleaned)
    }

    /// Each list fact and instructions layer its byte budget (`max_bytes`, or the
    /// builder's lower one) cut: the lists in the order of the values placeholders print,
    /// then the instructions layers in manifest order. See [`Prompt::notices`] for the
    /// same said in sentences.
    pub fn cuts(&self) -> &[ListCut] {
        self.told.as_ref().map_or(&[], |t| &t.cuts)
    }

    /// Each code fence or HTML comment that run-time text left open inside a container (or
    /// a layer's header), and where the closer the composer wrote before the container's
    /// closing text (at the header's end) sits.
    /// See [`Prompt::notices`] for the same said in sentences.
    pub fn unclosed(&self) -> &[Unclosed] {
        self.told.as_ref().map_or(&[], |t| &t.unclosed)
    }

    /// What composing did that the caller should hear of: one notice
    /// ([`NoticeKind::Sanitized`]) per fact or slot whose value `sanitize` changed, saying
    /// what went; one ([`NoticeKind::ListCut`]) per list fact or instructions layer its
    /// byte budget cut; then
    /// one ([`NoticeKind::BoundaryEscaped`]) per layer and source whose
    /// text held a section boundary, naming both, what was escaped and how; one
    /// ([`NoticeKind::LeftOpen`]) per code fence or comment run-time text left open inside
    /// a container or a layer's header. Empty for most prompts.
    pub fn notices(&self) -> Vec<Notice> {
        let cleaned = self.cleaned().iter().map(|c| {
            let message = format!("{} before composing", c.removed);
            Notice::new(c.from.to_string(), NoticeKind::Sanitized, message)
        });
        let rejected = self.told.iter().flat_map(|t| t.rejected.iter().cloned());
        let mut notices: Vec<Notice> = rejected.chain(cleaned).collect();
        notices.extend(
            self.cuts()
                .iter()
                .map(|c| Notice::new(c.subject(), NoticeKind::ListCut, c.message())),
        );
        notices.extend(super::boundary::notices(
            &self.escapes,
            &self.text,
            &self.user,
        ));
        notices.extend(self.unclosed().iter().map(|u| {
            let headed = self.sections().iter().any(|s| {
                s.info.name == u.layer && s.header().is_some_and(|h| h.contains(&u.range.start))
            });
            let (place, hidden) = match headed {
                true => ("in its layer's header", "the text after it"),
                false => ("inside its container", "the container's closing text"),
            };
            let message = format!(
                "It left {} open {place}, which would have hidden {hidden}; `{}` was \
                 written to close it.",
                u.what,
                Shown(&self.text[u.range.clone()])
            );
            let subject = format!("layer `{}`, {}", u.layer, u.source);
            Notice::new(subject, NoticeKind::LeftOpen, message)
        }));
        notices
    }

    /// A table of every layer: order, tier, bytes, source, provenance, and why any was
    /// skipped; locked layers and those that can carry user-file content are marked, and
    /// each stretch of user content and each escaped boundary is listed under its layer.
    pub fn explain(&self) -> Explain<'_> {
        Explain::new(
            self.sections(),
            &self.text,
            (&self.marks, &self.user, &self.escapes, self.cleaned()),
            (self.stable().len(), self.volatile().len()),
        )
        .model(self.model.as_ref())
        .cuts(self.cuts())
        .unclosed(self.unclosed())
    }

    /// The model name given to the builder's `.model()` and the `[models]` rule it matched
    /// (`None` for the rule: the manifest's `default` applied); `None` when `.model()` was
    /// not called.
    pub fn model(&self) -> Option<&ModelMatch> {
        self.model.as_ref()
    }

    /// The stable prefix's size against the manifest's `[budget]` ceiling for this role, or
    /// `None` when the manifest sets none. The compiler checks the shipped text (with
    /// placeholders as empty); this counts what was composed, runtime values included.
    pub fn budget(&self) -> Option<Budget> {
        self.ceiling.map(|ceiling| Budget {
            stable_bytes: self.stable().len(),
            ceiling,
        })
    }

    /// [`fingerprint`](crate::cache::fingerprint) of the stable prefix, for cache-key logging.
    pub fn stable_fingerprint(&self) -> u64 {
        crate::cache::fingerprint(self.stable().as_bytes())
    }
}

impl<S> fmt::Display for Prompt<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl<S> AsRef<str> for Prompt<S> {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

/// Attaches the manifest's budget ceiling to a composed prompt. Used by generated code.
pub fn with_ceiling<S>(mut prompt: Prompt<S>, ceiling: Option<usize>) -> Prompt<S> {
    prompt.ceiling = ceiling;
    prompt
}

/// Records the `[models]` rule a prompt was composed under. Used by generated code.
pub fn with_model<S>(mut prompt: Prompt<S>, model: Option<ModelMatch>) -> Prompt<S> {
    prompt.model = model;
    prompt
}

/// A composed stable prefix against its `[budget]` ceiling ([`Prompt::budget`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Budget {
    /// Bytes of the stable prefix as composed.
    pub stable_bytes: usize,
    /// The manifest's ceiling for this role, in bytes.
    pub ceiling: usize,
}

impl Budget {
    /// Whether the composed prefix is over its ceiling.
    pub fn exceeded(&self) -> bool {
        self.stable_bytes > self.ceiling
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let over = if self.exceeded() { "over" } else { "within" };
        write!(
            f,
            "stable prefix of {} bytes, {over} its {}-byte budget",
            self.stable_bytes, self.ceiling
        )
    }
}

/// What the byte budgets cut in a prompt composed from `plan` given `inputs`, whose
/// records are `sections`: the lists among its values, then its instructions layers.
#[inline(always)]
pub(crate) fn cuts(plan: &[LayerPlan], inputs: &Inputs<'_>, sections: &[Section]) -> Vec<ListCut> {
    let mut cuts = list_cuts(inputs.values);
    if !inputs.instructions.is_empty() {
        cuts.extend(super::plan::instruction_cuts(plan, inputs, sections));
    }
    cuts
}

impl<S> Prompt<S> {
    /// The prompt `written` with `sections`, recording the values `sanitize` changed
    /// (`cleaned`) and the users' templates refused (`rejected`) before composing, and what
    /// the byte budgets cut (`cuts`). Built once, whole: a prompt carries a record per
    /// layer, and each step that took and returned it copied them all (see BENCHMARKS.md,
    /// issue 37).
    #[inline(always)]
    pub(crate) fn from_parts(
        written: Written,
        sections: S,
        (cleaned, rejected): (&[Cleaned], &[Notice]),
        cuts: Vec<ListCut>,
    ) -> Self {
        Prompt {
            text: written.text,
            stable_end: written.stable_end,
            volatile_start: written.volatile_start,
            sections,
            marks: written.marks,
            user: written.user,
            escapes: written.escapes,
            ceiling: None,
            model: None,
            told: told((cleaned, rejected), written.run_time, written.closed, cuts),
        }
    }
}

/// The cuts of the lists among `values`, each list fact once (a list printed through a
/// loop is another value of the same fact). Allocates only when one was cut.
#[inline(always)]
fn list_cuts(values: &[super::part::Value<'_>]) -> Vec<ListCut> {
    let mut cuts: Vec<ListCut> = Vec::new();
    for value in values {
        if let super::part::Value::List(list) = value {
            if let Some(cut) = list.cut() {
                if !cuts.iter().any(|c| c.name == cut.name) {
                    cuts.push(cut);
                }
            }
        }
    }
    cuts
}
