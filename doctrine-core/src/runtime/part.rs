//! One layer's contribution to a prompt ([`Part`]): its text, or the template and the
//! pieces joined after it, or its instructions, or why it is left out; and how a part
//! measures and writes itself, so composition allocates once.

use super::decided::{Decided, Reading};
use super::emit::rebuilt;
use super::escape::{Escaping, Within};
use super::instruction::{Instruction, Style};
use super::layer::{LayerInfo, Origin, Skip};
use super::list::{Printed, Rows};

/// One layer's contribution, as resolved by generated code for a given role, choices,
/// flags, knobs, facts, overlay and slots.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    pub info: &'static LayerInfo,
    pub origin: Origin,
    pub body: Body<'a>,
}

impl Part<'_> {
    /// A placeholder that composing overwrites before anyone reads it.
    pub(crate) const UNSET: Part<'static> = Part {
        info: super::section::Section::UNSET.info,
        origin: Origin::Unresolved,
        body: Body::Skip(Skip::Empty),
    };
}

/// A piece written after a layer's main text: `(separator, text)`. The separator is written
/// only when the layer has already written something, and nothing at all when `text` is
/// empty, so an empty shipped text never leaves a separator leading its layer.
pub type Joined<'a> = (&'a str, &'a str);

/// Nothing joined.
pub const NO_JOIN: Joined<'static> = ("", "");

/// A layer's text, or the reason it contributes nothing.
#[derive(Clone, Copy, Debug)]
pub enum Body<'a> {
    Skip(Skip),
    /// A text, then a knob suffix and an overlay, each joined as [`Joined`] says. The
    /// suffix belongs to the text: an empty text drops it (the overlay stays).
    Text(&'a str, [Joined<'a>; 2]),
    /// Shipped text with placeholders, then two joined pieces as in `Text`.
    Template(&'static [Seg], [Joined<'a>; 2]),
    /// As `Template`, trimmed once rendered at the ends [`Trim`] says: the layer trims, and
    /// its text can render with whitespace at an end (a value or a section there). A
    /// variant of its own keeps the other templates as fast.
    TemplateTrimmed(&'static [Seg], [Joined<'a>; 2], Trim),
    /// Instructions, written in ascending authority after their provenance lines, in the
    /// layer's style (its provenance template and ranking), as far as the last (the most
    /// bytes of their texts printed: `usize::MAX` for no budget) goes.
    Instructions(&'a [Instruction<'a>], &'static Style, usize),
}

rebuilt! {
/// Which ends of a layer's text are trimmed of whitespace (as `str::trim_start` /
/// `str::trim_end`): `trim = true` is `Both`, `"start"` and `"end"` one end, `false` `No`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Trim {
    #[default]
    No,
    Start,
    End,
    Both,
}
}

impl Trim {
    /// Whether the start is trimmed.
    #[inline(always)]
    pub const fn start(self) -> bool {
        matches!(self, Trim::Start | Trim::Both)
    }

    /// Whether the end is trimmed.
    #[inline(always)]
    pub const fn end(self) -> bool {
        matches!(self, Trim::End | Trim::Both)
    }

    /// `text` with the ends this says trimmed.
    #[inline]
    pub fn apply(self, text: &str) -> &str {
        let text = if self.start() {
            text.trim_start()
        } else {
            text
        };
        if self.end() {
            text.trim_end()
        } else {
            text
        }
    }
}

use super::seg::holds;
pub use super::seg::{Check, Seg};

/// What a placeholder prints: a text, or a list fact, printed where it stands piece by
/// piece (so it needs no text of its own). Used by generated code.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    Text(&'a str),
    List(&'a dyn Rows),
    /// A text printed escaped (`escape = "json"` or `"xml"`): measured and written
    /// escaped, tested by sections as the value given.
    Escaped(&'a str, Escaping),
}

impl Value<'_> {
    /// How many bytes it prints.
    #[inline(always)]
    pub fn len(&self) -> usize {
        match *self {
            Value::Text(t) => t.len(),
            Value::List(list) => list.printed_len(),
            Value::Escaped(t, e) => e.len(t),
        }
    }

    /// Whether it is absent (a fact not given, a flag off, a list with no item kept):
    /// what its sections and a `when` on it read. An escaped value is read as given, so a
    /// JSON value not given is absent though it prints `""`.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        match *self {
            Value::Text(t) | Value::Escaped(t, _) => t.is_empty(),
            Value::List(list) => list.items() == 0,
        }
    }

    /// It printed escaped as `e` says: a text as an escaped value (one already escaped, or
    /// a list, which the code generator never escapes this way, as it is).
    #[inline(always)]
    pub(super) fn escaped(self, e: Escaping) -> Self {
        match self {
            Value::Text(t) => Value::Escaped(t, e),
            other => other,
        }
    }

    /// Whether it holds exactly one item, or (`many`) two or more.
    pub(super) fn counts(&self, many: bool) -> bool {
        let items = self.items();
        match many {
            true => items > 1,
            false => items == 1,
        }
    }

    /// Whether it is a text equal to `text`.
    pub(super) fn is(&self, text: &str) -> bool {
        matches!(*self, Value::Text(t) | Value::Escaped(t, _) if t == text)
    }

    /// Whether it is a list holding an item equal to `text`.
    pub(super) fn has(&self, text: &str) -> bool {
        matches!(*self, Value::List(list) if list.holds(text))
    }

    /// How many items it holds: a list's kept items; a text is one, or none when empty.
    #[inline]
    pub(super) fn items(&self) -> usize {
        match *self {
            Value::Text(t) | Value::Escaped(t, _) => usize::from(!t.is_empty()),
            Value::List(list) => list.items(),
        }
    }
}

/// What a template's segments print, in order, with sections decided: each literal as a
/// text value, and each value with its index.
#[inline(always)]
pub(super) fn each_value<'v>(
    segs: &[Seg],
    values: &[Value<'v>],
    value: impl FnMut(Value<'v>, Option<usize>),
) {
    let mut none = Reading::NONE;
    each_value_read(segs, values, &mut none, value)
}

/// Whether a section's condition ([`Seg::When`]) holds of `values`.
#[inline(always)]
fn decide(checks: &[Check], values: &[Value<'_>]) -> bool {
    // Each test matched once, its value read where it is known: through `Check::value`
    // and `Value::test` a test was matched twice, in a call.
    holds(checks, |c| match c {
        Check::Given(v) => !values[v].is_empty(),
        Check::Count(v, many) => values[v].counts(many),
        Check::Is(v, text) => values[v].is(text),
        Check::Has(v, text) => values[v].has(text),
        Check::Not | Check::And | Check::Or => false,
    })
}

/// [`each_value`], each condition read from `decided` where the measuring walk kept it.
#[inline(always)]
pub(super) fn each_value_read<'v>(
    segs: &[Seg],
    values: &[Value<'v>],
    decided: &mut Reading,
    mut value: impl FnMut(Value<'v>, Option<usize>),
) {
    let mut i = 0;
    while let Some(seg) = segs.get(i) {
        match *seg {
            Seg::Lit(t) => value(Value::Text(t), None),
            Seg::Value(v) => value(values[v], Some(v)),
            Seg::Escaped(v, e) => value(values[v].escaped(e), Some(v)),
            Seg::If(v, negated, len) => {
                if values[v].is_empty() != negated {
                    i += len;
                }
            }
            Seg::Count(v, many, negated, len) => {
                let items = values[v].items();
                let on = if many { items > 1 } else { items == 1 };
                if on == negated {
                    i += len;
                }
            }
            Seg::When(checks, len) => {
                if !decided.next().unwrap_or_else(|| decide(checks, values)) {
                    i += len;
                }
            }
        }
        i += 1;
    }
}

/// The length of what an untrimmed template renders to, as [`each_value`] walks it, each
/// condition decided recorded in `decided` for the walk that writes it. A loop of its
/// own: the pieces' kinds are not needed to count them.
#[inline(always)]
fn measured_template(segs: &[Seg], values: &[Value<'_>], decided: &mut Decided) -> usize {
    let (mut len, mut i) = (0, 0);
    while let Some(seg) = segs.get(i) {
        match *seg {
            Seg::Lit(t) => len += t.len(),
            Seg::Value(v) => len += values[v].len(),
            Seg::Escaped(v, e) => len += values[v].escaped(e).len(),
            Seg::If(v, negated, skip) => {
                if values[v].is_empty() != negated {
                    i += skip;
                }
            }
            Seg::Count(v, many, negated, skip) => {
                if values[v].counts(many) == negated {
                    i += skip;
                }
            }
            Seg::When(checks, skip) => {
                if !decided.record(decide(checks, values)) {
                    i += skip;
                }
            }
        }
        i += 1;
    }
    len
}

/// What a piece of a rendered template is: the template's own text, a text value (its
/// index), or a piece of a list value (its index, and whether the piece is an item's field
/// rather than the list's own text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Lit,
    Text(usize),
    List(usize, Printed),
    /// A value escaped `json`, `xml` or `html`: a boundary in it is escaped that way.
    Escaped(usize, Within),
}

impl Kind {
    /// The value whose caller-given text this piece is, if it is.
    pub(super) fn value(self) -> Option<usize> {
        match self {
            Kind::Text(v) | Kind::Escaped(v, _) => Some(v),
            Kind::List(v, p) => p.is_field().then_some(v),
            Kind::Lit => None,
        }
    }

    /// What the piece is written inside (a value or field escaped or not).
    pub(super) fn within(self) -> Within {
        match self {
            Kind::Escaped(_, within) => within,
            Kind::List(_, printed) => printed.within(),
            Kind::Lit | Kind::Text(_) => Within::Text,
        }
    }
}

/// The pieces of text a template's segments print, in order, with sections decided, each
/// with what it is.
#[inline(always)]
pub(super) fn each_piece(segs: &[Seg], values: &[Value<'_>], mut piece: impl FnMut(&str, Kind)) {
    each_value(segs, values, |value, v| match (value, v) {
        (Value::Text(t), None) => piece(t, Kind::Lit),
        (Value::Text(t), Some(v)) => piece(t, Kind::Text(v)),
        (Value::List(list), v) => {
            let v = v.unwrap_or_default();
            list.each_piece(&mut |p, field| piece(p, Kind::List(v, field)))
        }
        // Every piece of an escaped value is the caller's text, its quotes included.
        (Value::Escaped(t, e), v) => {
            let kind = match (v, e) {
                (None, _) => Kind::Lit,
                (Some(v), e) => Kind::Escaped(v, e.within()),
            };
            e.each_piece(t, &mut |p| piece(p, kind))
        }
    });
}

/// The length of what a template renders to, trimmed of surrounding whitespace (as
/// `str::trim_start` / `str::trim_end`) at the ends `trim` says: a section left out must
/// not leave its line breaks at a trimmed end.
#[inline(always)]
fn template_len(segs: &[Seg], values: &[Value<'_>], trim: Trim) -> usize {
    let mut len = 0;
    if trim == Trim::No {
        each_value(segs, values, |v, _| len += v.len());
        return len;
    }
    let (mut started, mut trailing) = (!trim.start(), 0);
    each_piece(segs, values, |p, _| {
        let p = if started { p } else { trim_start(p) };
        started |= !p.is_empty();
        len += p.len();
        let kept = trim_end(p).len();
        // A blank piece lengthens the trailing whitespace; any other ends it anew.
        trailing = if kept == 0 {
            trailing + p.len()
        } else {
            p.len() - kept
        };
    });
    if trim.end() {
        len - trailing
    } else {
        len
    }
}

/// The length of what segments without trimming render to: a layer's header.
#[inline(always)]
pub(super) fn rendered_len(segs: &[Seg], values: &[Value<'_>]) -> usize {
    template_len(segs, values, Trim::No)
}

/// Whether `b` starts or ends a text that `str::trim` leaves alone: an ASCII byte that is
/// not whitespace. Most pieces are, and the check costs less than the call it saves.
#[inline(always)]
fn plain(b: Option<&u8>) -> bool {
    matches!(b, Some(b) if b.is_ascii() && !matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' '))
}

#[inline(always)]
fn trim_start(p: &str) -> &str {
    if plain(p.as_bytes().first()) {
        p
    } else {
        p.trim_start()
    }
}

#[inline(always)]
fn trim_end(p: &str) -> &str {
    if plain(p.as_bytes().last()) {
        p
    } else {
        p.trim_end()
    }
}

/// The pieces of a trimmed template, each with what it is (as [`each_piece`]) and the
/// part of it that is kept (leading whitespace of the text cut from the first, trailing
/// from the last), for a writer that also needs to know where within a piece its kept
/// part starts.
#[inline(always)]
pub(super) fn each_kept_piece(
    segs: &[Seg],
    values: &[Value<'_>],
    trim: Trim,
    mut piece: impl FnMut(&str, Kind, std::ops::Range<usize>),
) {
    // Trailing whitespace is cut by length, so nothing past the measured text is written
    // (the prompt's one allocation has no room for it). The cut falls between characters:
    // whitespace is whole characters.
    let (mut left, mut started) = (template_len(segs, values, trim), !trim.start());
    each_piece(segs, values, |p, v| {
        let from = if started {
            0
        } else {
            p.len() - trim_start(p).len()
        };
        started |= from < p.len();
        let take = (p.len() - from).min(left);
        piece(p, v, from..from + take);
        left -= take;
    });
}

/// The length of a head of `head` bytes followed by the joined pieces. The first piece
/// (a layer's suffix) is written only after a non-empty head.
#[inline(always)]
fn joined_len(head: usize, tail: &[Joined<'_>; 2]) -> usize {
    let mut len = head;
    for (i, (sep, text)) in tail.iter().enumerate() {
        if !text.is_empty() && (i > 0 || head > 0) {
            if len > 0 {
                len += sep.len();
            }
            len += text.len();
        }
    }
    len
}

/// Hands the joined pieces after a head that wrote `head` bytes to `put`, in order, each
/// with its index in `tail` (`None` for a separator).
#[inline(always)]
pub(super) fn each_joined<'t>(
    head: usize,
    tail: &[Joined<'t>; 2],
    mut put: impl FnMut(&'t str, Option<usize>),
) {
    let mut written = head > 0;
    for (i, &(sep, text)) in tail.iter().enumerate() {
        if !text.is_empty() && (i > 0 || head > 0) {
            if written {
                put(sep, None);
            }
            put(text, Some(i));
            written = true;
        }
    }
}

/// The text a head and its joined pieces make, for code that needs it as one string (the
/// code generator's compile-time prefixes use this, so they cannot disagree with
/// [`compose`](super::compose::compose)).
pub fn joined(head: &str, tail: &[Joined<'_>; 2]) -> String {
    let mut out = String::with_capacity(joined_len(head.len(), tail));
    out.push_str(head);
    each_joined(head.len(), tail, |p, _| out.push_str(p));
    out
}

impl Body<'_> {
    /// [`Self::len`], an untrimmed template's conditions recorded in `decided` (from
    /// `decided.len()` on) as they are decided.
    #[inline(always)]
    pub(super) fn measure(&self, values: &[Value<'_>], decided: &mut Decided) -> usize {
        match self {
            Body::Template(segs, tail) => {
                joined_len(measured_template(segs, values, decided), tail)
            }
            _ => self.len(values),
        }
    }

    #[inline(always)]
    pub(super) fn len(&self, values: &[Value<'_>]) -> usize {
        match self {
            Body::Skip(_) => 0,
            Body::Text(text, tail) => joined_len(text.len(), tail),
            Body::Template(segs, tail) => joined_len(template_len(segs, values, Trim::No), tail),
            Body::TemplateTrimmed(segs, tail, trim) => {
                joined_len(template_len(segs, values, *trim), tail)
            }
            Body::Instructions(instructions, style, cap) => {
                style.rendered_len_within(instructions, *cap)
            }
        }
    }
}
