//! One layer's contribution to a prompt ([`Part`]): its text, or the template and the
//! pieces joined after it, or its instructions, or why it is left out; and how a part
//! measures and writes itself, so composition allocates once.

use super::instruction::{Instruction, InstructionStyle};
use super::layer::{LayerInfo, Origin, Skip};
use super::list::Rows;

/// One layer's contribution, as resolved by generated code for a given role, choices,
/// flags, knobs, facts, overlay and slots.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    pub info: &'static LayerInfo,
    pub origin: Origin,
    pub body: Body<'a>,
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
    /// As `Template`, trimmed once rendered: the layer trims, and its text can render
    /// with whitespace at an end (a value or a section there). A variant of its own keeps
    /// `Body` as small as it was, and the other templates as fast.
    TemplateTrimmed(&'static [Seg], [Joined<'a>; 2]),
    /// Instructions, written in ascending authority after their provenance lines, in the
    /// layer's style (its provenance template and ranking).
    Instructions(&'a [Instruction<'a>], &'static InstructionStyle),
}

/// A segment of a text with placeholders: literal text, or the [`Value`] at an index of the
/// `values` given to [`compose`](super::compose::compose) (facts, then knobs, then flags, in
/// manifest order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    Lit(&'static str),
    Value(usize),
    /// `{?name}…{/name}`: when value `.0` is empty (a fact not given, a flag off), or with
    /// `.1` (negated) when it is not, the next `.2` segments are left out.
    If(usize, bool, usize),
}

/// What a placeholder prints: a text, or a list fact, printed where it stands piece by
/// piece (so it needs no text of its own). Used by generated code.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    Text(&'a str),
    List(&'a dyn Rows),
}

impl Value<'_> {
    /// How many bytes it prints.
    #[inline(always)]
    fn len(&self) -> usize {
        match *self {
            Value::Text(t) => t.len(),
            Value::List(list) => list.printed_len(),
        }
    }

    /// Whether it prints nothing (a fact not given, a flag off, a list with no item kept):
    /// what its sections and a `when` on it read.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline(always)]
    fn write(&self, out: &mut String) {
        match *self {
            Value::Text(t) => out.push_str(t),
            Value::List(list) => list.write(out),
        }
    }
}

/// What a template's segments print, in order, with sections decided: each literal as a
/// text value, and each value with its index.
#[inline(always)]
fn each_value<'v>(
    segs: &[Seg],
    values: &[Value<'v>],
    mut value: impl FnMut(Value<'v>, Option<usize>),
) {
    let mut i = 0;
    while let Some(seg) = segs.get(i) {
        match *seg {
            Seg::Lit(t) => value(Value::Text(t), None),
            Seg::Value(v) => value(values[v], Some(v)),
            Seg::If(v, negated, len) => {
                if values[v].is_empty() != negated {
                    i += len;
                }
            }
        }
        i += 1;
    }
}

/// The pieces of text a template's segments print, in order, with sections decided; a
/// text value's piece comes with the value's index (a list's pieces, its items and joins,
/// come with none: no user stretch is recorded against them).
#[inline(always)]
pub(super) fn each_piece(
    segs: &[Seg],
    values: &[Value<'_>],
    mut piece: impl FnMut(&str, Option<usize>),
) {
    each_value(segs, values, |value, v| match value {
        Value::Text(t) => piece(t, v),
        Value::List(list) => list.each_piece(&mut |p| piece(p, None)),
    });
}

/// The length of what a template renders to, trimmed of surrounding whitespace (as
/// `str::trim`) when `trim`: a section left out must not leave its line breaks at an end.
#[inline(always)]
fn template_len(segs: &[Seg], values: &[Value<'_>], trim: bool) -> usize {
    let mut len = 0;
    if !trim {
        each_value(segs, values, |v, _| len += v.len());
        return len;
    }
    let (mut started, mut trailing) = (false, 0);
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
    len - trailing
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

/// Writes what a template renders to, trimmed as [`template_len`] measures it.
#[inline(always)]
fn write_template(segs: &[Seg], values: &[Value<'_>], trim: bool, out: &mut String) {
    if !trim {
        return each_value(segs, values, |v, _| v.write(out));
    }
    each_kept_piece(segs, values, |p, _, kept| out.push_str(&p[kept]));
}

/// The pieces of a trimmed template, each with its value's index (as [`each_piece`]) and
/// the part of it that is kept (leading whitespace of the text cut from the first,
/// trailing from the last), for a writer that also needs to know where within a piece its
/// kept part starts.
#[inline(always)]
pub(super) fn each_kept_piece(
    segs: &[Seg],
    values: &[Value<'_>],
    mut piece: impl FnMut(&str, Option<usize>, std::ops::Range<usize>),
) {
    // Trailing whitespace is cut by length, so nothing past the measured text is written
    // (the prompt's one allocation has no room for it). The cut falls between characters:
    // whitespace is whole characters.
    let (mut left, mut started) = (template_len(segs, values, true), false);
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

/// Writes the joined pieces after a head that wrote `head` bytes; returns where the last
/// piece (a layer's appended overlay) starts, when it was written.
#[inline(always)]
pub(super) fn write_joined(head: usize, tail: &[Joined<'_>; 2], out: &mut String) -> Option<usize> {
    let mut written = head > 0;
    let mut last = None;
    for (i, (sep, text)) in tail.iter().enumerate() {
        if !text.is_empty() && (i > 0 || head > 0) {
            if written {
                out.push_str(sep);
            }
            last = (i == 1).then_some(out.len());
            out.push_str(text);
            written = true;
        }
    }
    last
}

/// The text a head and its joined pieces make, for code that needs it as one string (the
/// code generator's compile-time prefixes use this, so they cannot disagree with
/// [`compose`](super::compose::compose)).
pub fn joined(head: &str, tail: &[Joined<'_>; 2]) -> String {
    let mut out = String::with_capacity(joined_len(head.len(), tail));
    out.push_str(head);
    write_joined(head.len(), tail, &mut out);
    out
}

impl Body<'_> {
    #[inline(always)]
    pub(super) fn len(&self, values: &[Value<'_>]) -> usize {
        match self {
            Body::Skip(_) => 0,
            Body::Text(text, tail) => joined_len(text.len(), tail),
            Body::Template(segs, tail) => joined_len(template_len(segs, values, false), tail),
            Body::TemplateTrimmed(segs, tail) => joined_len(template_len(segs, values, true), tail),
            Body::Instructions(instructions, style) => style.rendered_len(instructions),
        }
    }

    #[inline(always)]
    pub(super) fn write(&self, values: &[Value<'_>], out: &mut String) {
        match self {
            Body::Skip(_) => {}
            Body::Text(text, tail) => {
                out.push_str(text);
                write_joined(text.len(), tail, out);
            }
            Body::Template(segs, tail) | Body::TemplateTrimmed(segs, tail) => {
                let trim = matches!(self, Body::TemplateTrimmed(..));
                let start = out.len();
                write_template(segs, values, trim, out);
                write_joined(out.len() - start, tail, out);
            }
            Body::Instructions(instructions, style) => style.render(instructions, out),
        }
    }
}
