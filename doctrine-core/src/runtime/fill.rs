//! Writing a prompt layer by layer, into one allocation measured beforehand: the steps
//! [`compose`](super::compose::compose) and a [`Prepared`](super::prepared::Prepared) plan
//! both take, so the two cannot write different bytes or records.

use super::boundary::{Closed, Guarded, Piece, Raw, RunTimeText, Scope, Shift};
use super::decided::{Decided, Reading};
use super::formulation::Formulation;
use super::layer::{LayerInfo, Origin, Skip, Stability};
use super::message::Joins;
use super::part::{each_joined, rendered_len, Body, Part, Value};
use super::prompt::Written;
use super::section::{Section, SectionState};
use super::user_content::UserValue;
use super::write::{write_part, write_values, Out};

/// How a manifest joins its layers: the separator, the formulation that delimits titled
/// layers, and what run-time text is guarded against (its section boundaries).
pub type Layout<'a> = (
    &'a str,
    super::formulation::Formulation,
    &'a super::boundary::Guard,
);

/// What goes around a non-empty part: its title's delimiters in this formulation.
#[inline]
pub(super) fn delimiters(
    part: &Part<'_>,
    formulation: Formulation,
) -> (&'static str, &'static str) {
    part.info
        .title
        .map_or(("", ""), |t| t.delimiters(formulation))
}

/// The bytes `part` writes, its title's delimiters, its header and its wrapper included
/// (0: it is left out).
#[inline(always)]
pub(super) fn part_len(part: &Part<'_>, formulation: Formulation, values: &[Value<'_>]) -> usize {
    framed(part, formulation, values, part.body.len(values))
}

/// [`part_len`], as a prompt's measuring pass takes it: the conditions of its text's
/// template recorded in `decided` as they are decided ([`Body::measure`]).
#[inline(always)]
pub(super) fn part_measure(
    part: &Part<'_>,
    formulation: Formulation,
    values: &[Value<'_>],
    decided: &mut Decided,
) -> usize {
    framed(
        part,
        formulation,
        values,
        part.body.measure(values, decided),
    )
}

/// A part whose body writes `len` bytes, with its title's delimiters, its header and its
/// wrapper (0: it is left out).
#[inline(always)]
fn framed(part: &Part<'_>, formulation: Formulation, values: &[Value<'_>], len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    let (open, close) = delimiters(part, formulation);
    let wrap = part.info.wrap.map_or(0, |w| w.open.len() + w.close.len());
    let header = part.info.header.map_or(0, |h| rendered_len(h.segs, values));
    len + open.len() + close.len() + wrap + header
}

/// The length of what parts join to, the empty ones left out: their bytes and what goes
/// between them (separators, `join_before`s, messages' wrappers).
#[derive(Clone, Copy, Default)]
pub(super) struct Measure {
    total: usize,
    joins: Joins,
}

impl Measure {
    /// A part of `info` writing `len` bytes.
    #[inline(always)]
    pub(super) fn add(&mut self, len: usize, info: &LayerInfo, separator: &str) {
        if len == 0 {
            return;
        }
        // As `Filler::before` writes it: most layers, the separator alone.
        if info.message.is_none() && info.join.is_none() {
            let started = self.joins.start();
            self.total += len + if started { separator.len() } else { 0 };
            return;
        }
        let [a, b, c] = self.joins.before(info, separator);
        self.total += a.len() + b.len() + c.len() + len;
    }

    #[inline(always)]
    pub(super) fn total(self) -> usize {
        self.total + self.joins.end().len()
    }
}

/// What the measuring pass leaves in a layer's record for [`Filler::layer`]: whether its
/// part has text (`len` bytes), and where its conditions' decisions start (`at`, in
/// [`Decided`]). Measuring a template walks its segments and decides its sections, a list
/// walks its rows: once is enough.
#[inline(always)]
pub(super) fn measured(len: usize, at: usize) -> SectionState {
    match len {
        0 => SectionState::Skipped(Skip::Empty),
        _ => SectionState::Included {
            start: at,
            end: len,
        },
    }
}

/// What every layer is written with: the separator between layers, the formulation that
/// delimits titled ones, the values placeholders print and their user stretches. Passed
/// by value, not kept in [`Filler`], so that a constant separator stays one in the code.
#[derive(Clone, Copy)]
pub(super) struct With<'a, 'v> {
    pub(super) separator: &'a str,
    pub(super) formulation: Formulation,
    pub(super) values: (&'v [Value<'v>], &'v [UserValue<'v>]),
}

/// A prompt being written: its text, and where its stable part ends and its volatile
/// part starts.
pub(super) struct Filler<'a> {
    out: Out<'a>,
    total: usize,
    stable_end: usize,
    volatile_start: usize,
    joins: Joins,
    /// The conditions the measuring pass decided.
    decided: Decided,
}

impl<'a> Filler<'a> {
    /// A prompt of `total` bytes (before any escape), in one allocation, for role `role`;
    /// its templates' conditions as the measuring pass `decided` them.
    #[inline(always)]
    pub(super) fn new(
        (separator, _, guard): Layout<'a>,
        (total, decided): (usize, Decided),
        role: usize,
    ) -> Self {
        let separator = guard.context(separator);
        Filler {
            out: Out {
                text: Guarded::with_capacity(total, guard, separator),
                // Allocated only when a prompt has instructions, or user content.
                marks: Vec::new(),
                user: Vec::new(),
                record: true,
                role,
                decided: Reading::NONE,
            },
            total,
            stable_end: 0,
            volatile_start: usize::MAX,
            joins: Joins::default(),
            decided,
        }
    }

    /// Layer `i`'s part, written after the separator when it has text; `section`
    /// receives its record, and holds what [`measured`] left in it.
    #[inline(always)]
    pub(super) fn layer(
        &mut self,
        w: With<'_, '_>,
        i: usize,
        part: &Part<'a>,
        section: &mut Section,
    ) {
        // Its header stays as placed, none: every record `layer` is given is a placeholder
        // (`Section::UNSET`, or a prepared plan's record of a live layer, never written).
        debug_assert_eq!(section.header, (0, 0));
        section.info = part.info;
        section.origin = part.origin;
        if let Body::Skip(skip) = part.body {
            section.state = SectionState::Skipped(skip);
            return;
        }
        // Measured empty ([`measured`]): a part is not measured twice.
        let SectionState::Included { start: at, .. } = section.state else {
            return;
        };
        self.out.decided = self.decided.from(at);
        self.before(part.info, w.separator);
        let start = self.out.text.len();
        if let Some(at) = write_section(i, part, w.formulation, w.values, &mut self.out) {
            section.record_header(Some(at));
        }
        let end = self.out.text.len();
        self.included(part.info.stability, start, end);
        section.state = SectionState::Included { start, end };
    }

    /// Text composed beforehand from fixed layers of one tier and one message (never
    /// empty), `first` the first of them with text: written after what goes before that
    /// layer (as [`Self::layer`] writes it) as it is; `sections`, those layers' records
    /// with offsets from the text's start, are moved to where it landed.
    #[inline(always)]
    pub(super) fn run(
        &mut self,
        separator: &str,
        first: &LayerInfo,
        text: &str,
        tier: Stability,
        sections: &mut [Section],
    ) {
        self.before(first, separator);
        let start = self.out.text.len();
        self.out.text.push(text);
        self.included(tier, start, self.out.text.len());
        for s in sections {
            if let SectionState::Included { start: from, end } = &mut s.state {
                (*from, *end) = (*from + start, *end + start);
            }
        }
    }

    /// What goes before a layer of `info` that has text ([`Joins::before`]).
    #[inline(always)]
    fn before(&mut self, info: &LayerInfo, separator: &str) {
        // Most layers: the separator alone, a constant in generated code, so written
        // without a `memcpy` call (the three pieces `Joins::before` gives cost one each).
        if info.message.is_none() && info.join.is_none() {
            if self.joins.start() {
                self.out.text.push(separator);
            }
            return;
        }
        for piece in self.joins.before(info, separator) {
            self.out.text.push(piece);
        }
    }

    /// Text of `tier` was written from `start` to `end`.
    #[inline(always)]
    fn included(&mut self, tier: Stability, start: usize, end: usize) {
        match tier {
            Stability::Stable => {
                debug_assert!(
                    self.volatile_start == usize::MAX,
                    "stable layer after volatile"
                );
                self.stable_end = end;
            }
            Stability::Volatile => self.volatile_start = self.volatile_start.min(start),
        }
    }

    /// What was written, with every escape in place and every offset in `sections` moved
    /// past the escapes before it.
    #[inline(always)]
    pub(super) fn done(mut self, sections: &mut [Section]) -> Written {
        self.out.text.push(self.joins.end());
        let unmeasured = self.out.text.unmeasured();
        debug_assert_eq!(self.out.text.len(), self.total + unmeasured);
        let (text, escapes, pieces, closed) = self.out.text.finish();
        let volatile_start = self.volatile_start.min(text.len());
        let (stable_end, volatile_start) = match self.joins.messages() {
            true => super::message::split(sections, text.len()),
            false => (self.stable_end, volatile_start),
        };
        let written = Written {
            text,
            stable_end,
            volatile_start,
            marks: self.out.marks,
            user: self.out.user,
            escapes: Vec::new(),
            run_time: run_time(pieces, sections),
            closed: closed_records(closed, sections),
        };
        match escapes.is_empty() {
            true => {
                debug_assert!(unmeasured > 0 || written.text.capacity() == self.total);
                written
            }
            false => shifted(written, sections, &escapes),
        }
    }
}

/// One layer's text, its title's delimiters, its header and its wrapper around it, read on
/// its own for boundaries as its place in the request says ([`Scope`]); where its header
/// went, from the layer's start, when it has one.
#[inline(always)]
pub(super) fn write_section<'a>(
    i: usize,
    part: &Part<'a>,
    formulation: Formulation,
    values: (&[Value<'_>], &[UserValue<'_>]),
    out: &mut Out<'a>,
) -> Option<(usize, usize)> {
    if let Body::Text(head, tail) = part.body {
        if shipped(part) {
            write_shipped(part, formulation, head, &tail, out);
            return None;
        }
    }
    write_guarded(i, part, formulation, values, out)
}

/// [`write_section`] for a layer that may hold run-time text. Called, not inlined: the
/// composer's loop stays small for the shipped layers most of a prompt is.
#[inline(never)]
fn write_guarded<'a>(
    i: usize,
    part: &Part<'a>,
    formulation: Formulation,
    values: (&[Value<'_>], &[UserValue<'_>]),
    out: &mut Out<'a>,
) -> Option<(usize, usize)> {
    let scope = Scope::of(part.info, formulation, part.info.guarded_in(out.role));
    if part.info.header.is_some() {
        return write_headed(i, part, (formulation, scope), values, out);
    }
    out.text.open(i, scope);
    // Untitled, unwrapped layers (most) take no delimiter pushes at all.
    let title = part.info.title.map(|t| t.delimiters(formulation));
    if let Some((open, _)) = title {
        out.text.push(open);
    }
    write_wrapped(i, part, values, out);
    if let Some((_, close)) = title {
        out.text.push(close);
    }
    out.text.close();
    None
}

/// Whether a text part is shipped text only (no slot's, no user's, no header's values):
/// nothing in it is guarded, and nothing of it recorded.
#[inline(always)]
fn shipped(part: &Part<'_>) -> bool {
    !part.info.user && part.info.header.is_none() && !matches!(part.origin, Origin::Slot)
}

/// A part of shipped text ([`shipped`]), written as it is, its title's delimiters and its
/// wrapper around it. The guard's per-layer steps (its scope, what is left open) are
/// skipped: with no run-time piece they decide nothing, and most layers are this (see
/// BENCHMARKS.md, issue 37).
#[inline(always)]
fn write_shipped(
    part: &Part<'_>,
    formulation: Formulation,
    head: &str,
    tail: &[super::part::Joined<'_>; 2],
    out: &mut Out<'_>,
) {
    let title = part.info.title.map(|t| t.delimiters(formulation));
    if let Some((open, _)) = title {
        out.text.push(open);
    }
    if let Some(w) = part.info.wrap {
        out.text.push(w.open);
    }
    out.text.push(head);
    each_joined(head.len(), tail, |piece, _| out.text.push(piece));
    if let Some(w) = part.info.wrap {
        out.text.push(w.close);
    }
    if let Some((_, close)) = title {
        out.text.push(close);
    }
}

/// A layer's text inside its wrapper, what its run-time text left open in it closed first.
#[inline(always)]
fn write_wrapped<'a>(
    i: usize,
    part: &Part<'a>,
    values: (&[Value<'_>], &[UserValue<'_>]),
    out: &mut Out<'a>,
) {
    if let Some(w) = part.info.wrap {
        out.text.push(w.open);
    }
    let content = out.text.len();
    write_part(i, part, values, out);
    out.text.end_container(content);
    if let Some(w) = part.info.wrap {
        out.text.push(w.close);
    }
}

/// [`write_section`] for a layer with a `header`: its values stand outside the layer's
/// container, before its wrapper's opening text, guarded as a wrapper's would be (every
/// boundary escaped); where it was written, from the layer's start.
#[inline(never)]
fn write_headed<'a>(
    i: usize,
    part: &Part<'a>,
    (formulation, scope): (Formulation, Scope),
    values: (&[Value<'_>], &[UserValue<'_>]),
    out: &mut Out<'a>,
) -> Option<(usize, usize)> {
    out.text.open(i, Scope::header(part.info));
    let start = out.text.len();
    let title = part.info.title.map(|t| t.delimiters(formulation));
    if let Some((open, _)) = title {
        out.text.push(open);
    }
    let from = out.text.len();
    if let Some(h) = part.info.header {
        // A header's conditions were not measured with the layer's: decided as met.
        let mut none = Reading::NONE;
        write_values(h.segs, values.0, &mut none, out);
    }
    out.text.end_header(from);
    let to = out.text.len();
    out.text.switch(scope);
    write_wrapped(i, part, values, out);
    if let Some((_, close)) = title {
        out.text.push(close);
    }
    out.text.close();
    Some((from - start, to - start))
}

/// The closers as the prompt names them (before any escape).
// Empty for most prompts: returned as it is (collecting even an empty vector cost about a
// hundred instructions), the collecting kept out of line (see BENCHMARKS.md, issue 37).
#[inline(always)]
fn closed_records(closed: Vec<Closed>, sections: &[Section]) -> Vec<super::prompt::Unclosed> {
    match closed.is_empty() {
        true => Vec::new(),
        false => name_closed(closed, sections),
    }
}

#[cold]
#[inline(never)]
fn name_closed(closed: Vec<Closed>, sections: &[Section]) -> Vec<super::prompt::Unclosed> {
    let record = |c: Closed| super::prompt::Unclosed {
        range: c.range,
        layer: sections[c.section].info.name,
        source: c.source,
        what: c.what,
    };
    closed.into_iter().map(record).collect()
}

/// The run-time pieces as the prompt names them (before any escape), as
/// [`closed_records`] does.
#[inline(always)]
fn run_time(pieces: Vec<Piece>, sections: &[Section]) -> Vec<RunTimeText> {
    match pieces.is_empty() {
        true => Vec::new(),
        false => name_pieces(pieces, sections),
    }
}

#[cold]
#[inline(never)]
fn name_pieces(pieces: Vec<Piece>, sections: &[Section]) -> Vec<RunTimeText> {
    let piece = |p: Piece| RunTimeText {
        range: p.range,
        layer: sections[p.section].info.name,
        source: p.source,
    };
    pieces.into_iter().map(piece).collect()
}

/// What was written, its offsets moved past the escapes that went into the text.
#[cold]
fn shifted(mut w: Written, sections: &mut [Section], escapes: &[Raw]) -> Written {
    let shift = Shift::new(escapes);
    // A stretch belongs to the section it starts in (stretches are never empty).
    let section_of = |sections: &[Section], x: usize| {
        sections
            .iter()
            .position(|s| matches!(s.state, SectionState::Included { start, end } if start <= x && x < end))
            .unwrap_or_default()
    };
    for u in &mut w.user {
        let i = section_of(sections, u.range.start);
        u.range = shift.start(u.range.start, i)..shift.end(u.range.end, i);
    }
    for r in &mut w.run_time {
        let i = section_of(sections, r.range.start);
        r.range = shift.start(r.range.start, i)..shift.end(r.range.end, i);
    }
    for c in &mut w.closed {
        let i = section_of(sections, c.range.start);
        c.range = shift.start(c.range.start, i)..shift.end(c.range.end, i);
    }
    for m in &mut w.marks {
        (m.start, m.end) = (shift.start(m.start, m.section), shift.end(m.end, m.section));
    }
    for (i, s) in sections.iter_mut().enumerate() {
        if let SectionState::Included { start, end } = s.state {
            // An escape just past the header is its content's, as one at the layer's
            // start is the layer's.
            let at = |x: usize| shift.start(start + x, i) - shift.start(start, i);
            let (from, to) = (s.header.0 as usize, s.header.1 as usize);
            s.record_header((to > from).then(|| (at(from), at(to))));
            let (start, end) = (shift.start(start, i), shift.end(end, i));
            s.state = SectionState::Included { start, end };
        }
    }
    let included = |tier: Stability| {
        sections
            .iter()
            .filter(move |s| s.info.stability == tier)
            .filter_map(|s| match s.state {
                SectionState::Included { start, end } => Some((start, end)),
                SectionState::Skipped(_) => None,
            })
    };
    w.stable_end = included(Stability::Stable)
        .next_back()
        .map_or(0, |(_, end)| end);
    w.volatile_start = included(Stability::Volatile)
        .next()
        .map_or(w.text.len(), |(start, _)| start);
    if sections.iter().any(|s| s.info.message.is_some()) {
        (w.stable_end, w.volatile_start) = super::message::split(sections, w.text.len());
    }
    w.escapes = shift.escapes(|i| sections[i].info.name);
    w
}
