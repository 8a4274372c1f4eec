//! The composer's text as it is written, shipped pieces as they are and run-time pieces
//! checked for boundaries as they land. Each piece is checked when written, against its
//! layer's text so far; one whose end may still become part of a boundary is checked
//! again when the next run-time piece comes and when the layer ends. The escapes go in at
//! the end, so a prompt with nothing to escape is written in its one allocation, as
//! before.

use super::scan::{piece, Ctx, Found};
use super::{Escape, Guard, Scope, Supplied, Via};
use crate::runtime::container::{fence_lines, left_open_but, LeftOpen, Reading};
use crate::runtime::escape::{Escaping, Within};
use crate::runtime::heading_marks::may_mark_a_heading;
use crate::runtime::list::Rows;

/// An escape found while writing: where the `\` goes (before the byte at `at`), in which
/// section (layer index), the boundary's bytes, and where the text came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Raw {
    pub(crate) at: usize,
    pub(crate) section: usize,
    pub(crate) boundary: (usize, usize),
    pub(crate) source: Supplied,
    /// What the escape lands inside: inside a JSON string (a value escaped `json`), where
    /// a `\` may only begin one of JSON's escapes, the character after it is written as
    /// one; inside escaped markup, as a character reference.
    pub(crate) within: Within,
    /// The bytes the escape adds to the text (set when the escapes go in).
    pub(crate) width: usize,
    /// The character the escape writes in another form, when it does.
    pub(crate) replaced: Option<char>,
}

/// A run-time piece, and how far the text went when it was last checked (everything
/// decided by then is recorded).
#[derive(Clone, Copy)]
struct Pending<'a> {
    lo: usize,
    hi: usize,
    checked: usize,
    via: Via<'a>,
    /// What it was written inside.
    within: Within,
}

/// Whether the run-time piece at `lo` may open a code fence or an HTML comment: it holds a
/// character one opens with, or a line break (after which a shipped fence run starts its
/// line), or it completes a `<!--` the shipped text before it began (`<{x}` given `!--`).
#[inline(always)]
fn may_open(text: &[u8], lo: usize) -> bool {
    let s = &text[lo..];
    let begun =
        || matches!(s.first(), Some(b'!' | b'-')) && text[lo.saturating_sub(3)..lo].contains(&b'<');
    s.iter()
        .any(|b| matches!(b, b'`' | b'~' | b'<' | b'\n' | b'\r'))
        || begun()
}

/// A prompt's text being written, layer by layer.
pub(crate) struct Guarded<'a> {
    text: String,
    guard: &'a Guard,
    separator: &'a str,
    /// Where the layer being written starts, its index, and what its run-time text may
    /// not write.
    base: usize,
    section: usize,
    scope: Scope,
    /// Run-time pieces of this layer with a boundary not decided yet (allocated only
    /// when a piece ends inside one).
    pending: Vec<Pending<'a>>,
    escapes: Vec<Raw>,
    /// Each run-time piece, where it was written, when the guard records them.
    pieces: Vec<Piece>,
    /// The run-time pieces of the layer being written, when its scope closes what they
    /// leave open (allocated only for such a layer), and what each was written inside.
    spans: Vec<(usize, usize, Via<'a>, Within)>,
    /// What was closed that run-time text left open inside a container.
    closed: Vec<Closed>,
    /// What the run-time piece being written lands inside.
    within: Within,
}

/// A code fence or an HTML comment that run-time text left open inside a container, and
/// the text that closed it (written before the container's closing text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Closed {
    pub(crate) range: std::ops::Range<usize>,
    pub(crate) section: usize,
    pub(crate) source: Supplied,
    pub(crate) what: &'static str,
}

/// A run-time piece as written (before any escape): its bytes, its layer, its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub(crate) range: std::ops::Range<usize>,
    pub(crate) section: usize,
    pub(crate) source: Supplied,
}

impl<'a> Guarded<'a> {
    // Inlined, so the composer builds it in place rather than copying it out of a call.
    #[inline]
    pub(crate) fn with_capacity(capacity: usize, guard: &'a Guard, separator: &'a str) -> Self {
        Guarded {
            text: String::with_capacity(capacity),
            guard,
            separator,
            base: 0,
            section: 0,
            scope: Scope::FULL,
            pending: Vec::new(),
            // Allocated only when something is escaped.
            escapes: Vec::new(),
            pieces: Vec::new(),
            spans: Vec::new(),
            closed: Vec::new(),
            within: Within::Text,
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.text.len()
    }

    /// The guard's verdict on placeholder value `v`: a fact's is run-time text.
    #[inline]
    pub(crate) fn fact(&self, v: usize) -> Option<Via<'a>> {
        match self.guard.template_file(v) {
            Some(file) => Some(Via::OverlayFile(file)),
            None => self.guard.is_fact(v).then_some(Via::Fact(v)),
        }
    }

    /// Shipped text: written as it is.
    #[inline]
    pub(crate) fn push(&mut self, s: &str) {
        self.text.push_str(s);
    }

    /// `s`, run-time text when it came `via` somewhere, else shipped.
    #[inline(always)]
    pub(crate) fn put(&mut self, s: &str, via: Option<Via<'a>>) {
        match via {
            Some(via) => self.runtime(s, via),
            None => self.push(s),
        }
    }

    /// [`Self::put`] for a piece written inside a JSON string or escaped markup (a value
    /// escaped, piece by piece).
    #[inline]
    pub(crate) fn put_within(&mut self, s: &str, within: Within, via: Option<Via<'a>>) {
        self.within = within;
        self.put(s, via);
        self.within = Within::Text;
    }

    /// Layer `section` starts here, its run-time text guarded as `scope` says.
    #[inline]
    pub(crate) fn open(&mut self, section: usize, scope: Scope) {
        self.base = self.text.len();
        self.section = section;
        self.scope = scope;
        self.spans.clear();
    }

    /// What follows is guarded as `scope` says (a header's values are written, the layer's
    /// own text comes next): the boundaries the pieces so far left undecided are decided
    /// first, as if anything followed, under the scope they were written in.
    #[inline]
    pub(crate) fn switch(&mut self, scope: Scope) {
        self.close();
        self.scope = scope;
        self.spans.clear();
    }

    /// The layer's container ends here (its closing text comes next): what its run-time
    /// text left open since `from`, where the container's content starts, is closed first,
    /// so that a markdown reader (and a model) still sees the container close.
    #[inline(always)]
    pub(crate) fn end_container(&mut self, from: usize) {
        // Most layers: no run-time piece in a tracked container.
        if !self.spans.is_empty() {
            self.close_left_open(from, false);
        }
    }

    /// A header ends here (its wrapper and its layer's text come next): what its values
    /// left open since `from`, where it starts, is closed, so that the text after it
    /// stands where the manifest put it: a fence's closing line ends with a line break, and
    /// a comment's closer too when the header ended its line.
    pub(crate) fn end_header(&mut self, from: usize) {
        if !self.spans.is_empty() {
            self.close_left_open(from, true);
        }
    }

    /// What the run-time text since `from` left open, closed (`ends_line`: the closer
    /// ends its line, as a header's does).
    #[inline(never)]
    fn close_left_open(&mut self, from: usize, ends_line: bool) {
        if !self.scope.tracks() || !self.guard.is_on() {
            return;
        }
        // A fence line the scope escapes opens nothing.
        let inert = self.scope.opens();
        let read = |text: &str| {
            let lenient = left_open_but(text, inert, Reading::Lenient);
            let strict = left_open_but(text, inert, Reading::CommonMark);
            match (lenient, strict) {
                (None, None) => Ok(None),
                (Some(a), Some(b)) if a.same_closer(b) => Ok(Some(a)),
                // Closed for one reader and open for another, or open differently.
                (_, strict) => Err(strict),
            }
        };
        let open = match read(&self.text[from..]) {
            Ok(open) => open,
            // The two readings part on an indented or listed fence line: no closer serves
            // both, so every fence line run-time text wrote is escaped (it is then text to
            // any reader), and what shipped text leaves open is read again.
            Err(_) => {
                let escaped = self.escape_fence_lines(from);
                match read(&escaped) {
                    Ok(open) => open,
                    Err(strict) => strict,
                }
            }
        };
        let Some(open) = open else {
            return;
        };
        let content = &self.text[from..];
        let mut closer = open.closer(content);
        let ended = content.ends_with(['\n', '\r']);
        if ends_line && (ended || matches!(open, LeftOpen::Fence { .. })) {
            closer.push('\n');
        }
        let at = from + open.at();
        // The piece that opened it: the first that reaches past where it was opened.
        let via = self
            .spans
            .iter()
            .find(|(_, hi, _, _)| *hi > at)
            .map(|(_, _, via, _)| *via);
        let Some(via) = via.or(self.spans.last().map(|(_, _, via, _)| *via)) else {
            return;
        };
        let start = self.text.len();
        self.text.push_str(&closer);
        self.closed.push(Closed {
            range: start..self.text.len(),
            section: self.section,
            source: via.supplied(self.guard),
            what: open.what(),
        });
    }

    /// Escapes the marks of each fence line since `from` that run-time text wrote (read
    /// leniently), and gives that text as it will be once escaped.
    #[cold]
    fn escape_fence_lines(&mut self, from: usize) -> String {
        let content = &self.text[from..];
        let mut escaped = String::with_capacity(content.len() + 8);
        let mut done = 0;
        for at in fence_lines(content) {
            let pos = from + at;
            let Some(&(_, _, via, within)) = self
                .spans
                .iter()
                .find(|(lo, hi, _, _)| *lo <= pos && pos < *hi)
            else {
                continue;
            };
            escaped.push_str(&content[done..at]);
            escaped.push('\\');
            done = at;
            self.escapes.push(Raw {
                at: pos,
                section: self.section,
                boundary: (pos, (pos + 3).min(self.text.len())),
                source: via.supplied(self.guard),
                within,
                width: 1,
                replaced: None,
            });
        }
        escaped.push_str(&content[done..]);
        escaped
    }

    /// A run-time piece from `lo` to the text's end: kept when the layer's scope closes
    /// what run-time text leaves open. Uncontained, only a piece that may open something
    /// is kept (a fence's or a comment's first character in it): most layers then keep
    /// none, and their end reads nothing again.
    #[inline(always)]
    fn span(&mut self, lo: usize, via: Via<'a>) {
        let scope = &self.scope;
        if scope.tracks() && (!scope.full() || may_open(self.text.as_bytes(), lo)) {
            self.spans.push((lo, self.text.len(), via, self.within));
        }
    }

    /// Whether run-time text in `s` may hold something the layer's scope looks for: most
    /// run-time text, in most manifests, is written with this one pass.
    #[inline(always)]
    fn may_hold(&self, s: &[u8]) -> bool {
        let scope = &self.scope;
        if !self.guard.lines.is_empty() {
            return true;
        }
        if scope.opens().is_some_and(|mark| s.contains(&mark)) {
            return true;
        }
        match scope.full() {
            true => !self.guard.tags.is_empty() || may_mark_a_heading(s),
            false => {
                scope.has_closers() || scope.fence().is_some_and(|(mark, _)| s.contains(&mark))
            }
        }
    }

    /// The layer is written: what its run-time pieces left open is decided as if
    /// anything followed (the separator, the prompt's end, another layer).
    #[inline]
    pub(crate) fn close(&mut self) {
        if !self.pending.is_empty() {
            for p in std::mem::take(&mut self.pending) {
                self.check(p, true);
            }
        }
    }

    /// Run-time text: written, then checked, and so are the pieces before it that it may
    /// decide.
    #[inline]
    pub(crate) fn runtime(&mut self, s: &str, via: Via<'a>) {
        let lo = self.text.len();
        self.text.push_str(s);
        self.pushed(lo, via);
        self.record(lo, via);
        self.span(lo, via);
    }

    /// The run-time piece written from `lo` to the end, recorded when the guard says so.
    #[inline(always)]
    fn record(&mut self, lo: usize, via: Via<'a>) {
        if self.guard.records() && lo < self.text.len() {
            self.pieces.push(Piece {
                range: lo..self.text.len(),
                section: self.section,
                source: via.supplied(self.guard),
            });
        }
    }

    /// A value printed escaped: written escaped, then checked as one piece of run-time
    /// text (when it came `via` somewhere).
    #[inline]
    pub(crate) fn escaped(&mut self, s: &str, escaping: Escaping, via: Option<Via<'a>>) {
        let lo = self.text.len();
        escaping.push(s, &mut self.text);
        if let Some(via) = via {
            self.within = escaping.within();
            self.pushed(lo, via);
            self.record(lo, via);
            self.span(lo, via);
            self.within = Within::Text;
        }
    }

    /// A list value: its own text shipped, each item's field run-time text that came `via`
    /// somewhere (none: all of it shipped).
    pub(crate) fn list(&mut self, list: &dyn Rows, via: Option<Via<'a>>) {
        if let Some(via) = via {
            // Each field recorded, or kept as its own span: a fence line left open in a
            // field inside escaped markup is escaped the markup's way.
            let markup = self.scope.tracks() && self.guard.is_on() && list.prints_markup();
            if self.guard.records() || markup {
                return self.list_spans(list, via);
            }
            let lo = self.text.len();
            self.list_fields(list, via);
            self.span(lo, via);
        } else {
            list.write(&mut self.text);
        }
    }

    /// A list value whose fields are run-time text that came `via` somewhere.
    fn list_fields(&mut self, list: &dyn Rows, via: Via<'a>) {
        if !self.guard.is_on() {
            return list.write(&mut self.text);
        }
        // Nothing to look for: no tags, no heading's mark in a field (the list knows,
        // from measuring itself), nothing left open before it.
        let scope = &self.scope;
        let quiet = self.guard.lines.is_empty()
            && scope.opens().is_none()
            && match scope.full() {
                true => self.guard.tags.is_empty() && !list.may_mark_a_heading(),
                false => !scope.has_closers() && scope.fence().is_none(),
            };
        if quiet && self.pending.is_empty() {
            return list.write(&mut self.text);
        }
        // The walk writes into the text itself; each field is checked where it landed.
        let mut text = std::mem::take(&mut self.text);
        list.write_fields(&mut text, &mut |text, start, printed| {
            let marks = self.may_hold(&text.as_bytes()[start..]);
            if marks || !self.pending.is_empty() {
                std::mem::swap(&mut self.text, text);
                self.within = printed.within();
                self.checked(start, marks, via);
                self.within = Within::Text;
                std::mem::swap(&mut self.text, text);
            }
        });
        self.text = text;
    }

    /// [`Self::list`], each field checked, recorded and kept as a span where it landed.
    fn list_spans(&mut self, list: &dyn Rows, via: Via<'a>) {
        let mut text = std::mem::take(&mut self.text);
        list.write_fields(&mut text, &mut |text, start, printed| {
            std::mem::swap(&mut self.text, text);
            self.within = printed.within();
            self.pushed(start, via);
            self.record(start, via);
            self.span(start, via);
            self.within = Within::Text;
            std::mem::swap(&mut self.text, text);
        });
        self.text = text;
    }

    /// Checks the run-time text written from `lo` to the end.
    #[inline]
    fn pushed(&mut self, lo: usize, via: Via<'a>) {
        // Most run-time text, in most manifests, has nothing to check: one pass over it.
        let marks = self.may_hold(&self.text.as_bytes()[lo..]);
        if self.guard.is_on() && (marks || !self.pending.is_empty()) {
            self.checked(lo, marks, via);
        }
    }

    /// The checks of [`Self::runtime`]: the pieces still open, then this one (`lo..` the
    /// end) when it may hold a boundary's mark.
    fn checked(&mut self, lo: usize, marks: bool, via: Via<'a>) {
        if !self.pending.is_empty() {
            let mut open = std::mem::take(&mut self.pending);
            open.retain_mut(|p| self.check_again(p));
            self.pending = open;
        }
        let hi = self.text.len();
        if marks && hi > lo {
            let p = Pending {
                lo,
                hi,
                checked: lo,
                via,
                within: self.within,
            };
            if self.check(p, false) {
                self.pending.push(Pending { checked: hi, ..p });
            }
        }
    }

    /// Checks a pending piece against the text since; whether it is still open.
    fn check_again(&mut self, p: &mut Pending<'a>) -> bool {
        let open = self.check(*p, false);
        p.checked = self.text.len();
        open
    }

    /// Checks piece `p` for boundaries decided past `p.checked` (the others are
    /// recorded), records each; whether one is not decided yet.
    fn check(&mut self, p: Pending<'a>, closed: bool) -> bool {
        let Guarded {
            text,
            guard,
            separator,
            base,
            section,
            scope,
            escapes,
            ..
        } = self;
        let (base, sep, end) = (*base, separator.len(), text.len());
        let ctx = Ctx {
            before: separator,
            body: &text[base..],
            closed,
        };
        let at = |x: usize| x + sep - base;
        let back = |v: usize| (v + base).saturating_sub(sep);
        piece(
            &ctx,
            (at(p.lo), at(p.hi)),
            at(p.checked),
            (guard, scope),
            |f: Found| {
                let mut first = back(f.first.max(at(p.lo)));
                // A JSON string's opening quote is not its text: the escape goes into it.
                if p.within == Within::Json
                    && first == p.lo
                    && text.as_bytes().get(first) == Some(&b'"')
                {
                    first += 1;
                }
                escapes.push(Raw {
                    at: first,
                    section: *section,
                    boundary: (back(f.start).max(base), back(f.end).min(end)),
                    source: p.via.supplied(guard),
                    within: p.within,
                    width: 1,
                    replaced: None,
                })
            },
        )
    }

    /// The bytes written that the prompt's measure did not count: the closers of what
    /// run-time text left open.
    pub(crate) fn unmeasured(&self) -> usize {
        self.closed.iter().map(|c| c.range.len()).sum()
    }

    /// The text with every escape in place (in its one allocation when there was none),
    /// and the escapes, in order; the run-time pieces and the closers, as written.
    // Inlined: called, what it returns was copied out of the call.
    #[inline(always)]
    pub(crate) fn finish(mut self) -> Finished {
        self.close();
        if self.escapes.is_empty() {
            return (self.text, self.escapes, self.pieces, self.closed);
        }
        let (text, escapes) = escaped(self.text, self.escapes);
        (text, escapes, self.pieces, self.closed)
    }
}

/// What [`Guarded::finish`] gives.
pub(crate) type Finished = (String, Vec<Raw>, Vec<Piece>, Vec<Closed>);

/// `text` with each of `escapes` in place, and the escapes, sorted, each with its width.
#[cold]
fn escaped(text: String, mut escapes: Vec<Raw>) -> (String, Vec<Raw>) {
    escapes.sort_by_key(|e| (e.at, e.section));
    escapes.dedup_by_key(|e| (e.at, e.section));
    let mut out = String::with_capacity(text.len() + escapes.len());
    let mut from = 0;
    for e in &mut escapes {
        // An escape inside a character the one before it rewrote adds nothing (a
        // boundary begins on its own character; this is never expected).
        if e.at < from {
            e.width = 0;
            continue;
        }
        out.push_str(&text[from..e.at]);
        let (written, took) = escape_at(&text[e.at..], e.within, &mut out);
        (e.width, from) = (written - took, e.at + took);
        e.replaced = (took > 0).then(|| text[e.at..].chars().next()).flatten();
    }
    out.push_str(&text[from..]);
    (out, escapes)
}

/// Writes the escape that goes before `rest` into `out`: a `\`. Inside a JSON string, where
/// a `\` may only begin one of JSON's escapes, the character it stands before is written
/// as `\uXXXX` instead (a `/` as `\/`), so the string stays valid JSON and reads back as
/// the value it was; inside escaped markup, as a character reference (`#` as `&#35;`),
/// which no markdown reader takes for the mark it stands for (CommonMark reads structure
/// before references) and an XML or HTML reader reads back as the character. How many
/// bytes were written, and how many of `rest` they stand for.
fn escape_at(rest: &str, within: Within, out: &mut String) -> (usize, usize) {
    let c = rest.chars().next();
    match (within, c) {
        // A boundary that begins on an entity the value's escaping wrote (`&amp;`, only
        // in a manifest's own boundary line) gets the `\`: no reference keeps it whole.
        (Within::Markup, Some(c)) if c != '&' => {
            let before = out.len();
            out.push_str("&#");
            out.push_str(&u32::from(c).to_string());
            out.push(';');
            (out.len() - before, c.len_utf8())
        }
        (Within::Json, Some(c)) if !matches!(c, '/' | '"' | '\\') => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let mut units = [0; 2];
            let units = c.encode_utf16(&mut units);
            for &u in units.iter() {
                out.push_str("\\u");
                for shift in [12, 8, 4, 0] {
                    out.push(char::from(HEX[usize::from((u >> shift) & 0xf)]));
                }
            }
            (6 * units.len(), c.len_utf8())
        }
        // A closing tag's `\/` is one of JSON's escapes; a quote or a backslash is never
        // the first byte of a boundary inside a string.
        _ => {
            out.push('\\');
            (1, 0)
        }
    }
}

/// Where offsets of the text as written land once `escapes` (sorted, from
/// [`Guarded::finish`]) are in: a layer's start moves past the escapes before it, its end
/// past those in it too.
pub(crate) struct Shift<'e> {
    escapes: &'e [Raw],
    /// The bytes the escapes before each one added.
    before: Vec<usize>,
}

impl<'e> Shift<'e> {
    pub(crate) fn new(escapes: &'e [Raw]) -> Self {
        let mut before = Vec::with_capacity(escapes.len() + 1);
        before.push(0);
        for e in escapes {
            before.push(before[before.len() - 1] + e.width);
        }
        Shift { escapes, before }
    }

    /// The bytes the first `n` escapes added.
    fn added(&self, n: usize) -> usize {
        self.before[n]
    }

    /// Offset `x`, the start of something in section `section`.
    pub(crate) fn start(&self, x: usize, section: usize) -> usize {
        x + self.added(
            self.escapes
                .partition_point(|e| (e.at, e.section) < (x, section)),
        )
    }

    /// Offset `x`, the end of something in section `section`.
    pub(crate) fn end(&self, x: usize, section: usize) -> usize {
        x + self.added(
            self.escapes
                .partition_point(|e| (e.at, e.section) <= (x, section)),
        )
    }

    /// The escapes as a prompt reports them.
    pub(crate) fn escapes(&self, layer: impl Fn(usize) -> &'static str) -> Vec<Escape> {
        self.escapes
            .iter()
            .enumerate()
            .map(|(i, e)| Escape {
                at: e.at + self.added(i),
                written: {
                    let at = e.at + self.added(i);
                    at..at + e.width + e.replaced.map_or(0, char::len_utf8)
                },
                replaced: e.replaced,
                boundary: self.start(e.boundary.0, e.section)..self.end(e.boundary.1, e.section),
                layer: layer(e.section),
                source: e.source.clone(),
            })
            .collect()
    }
}
