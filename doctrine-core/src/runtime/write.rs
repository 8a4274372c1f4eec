//! How one layer's part is written into a prompt's text: shipped pieces as they are,
//! run-time pieces (a slot, an overlay, a selector's file, a fact, an instruction) checked
//! for section boundaries as they land, and the stretches a user's file supplied recorded
//! where they land.

use std::ops::Range;

use super::boundary::{Guarded, Via};
use super::decided::Reading;
use super::escape::Within;
use super::instruction::{for_each_piece, Instruction};
use super::layer::Origin;
use super::part::{
    each_joined, each_kept_piece, each_piece, each_value_read, Body, Joined, Kind, Part, Seg, Trim,
    Value,
};
use super::section::Mark;
use super::user_content::{UserContent, UserFile, UserValue};

/// A prompt being written: its text, and (when `record`) where each instruction's
/// provenance line and each stretch of user content landed.
pub(super) struct Out<'a> {
    pub(super) text: Guarded<'a>,
    pub(super) marks: Vec<Mark>,
    pub(super) user: Vec<UserContent>,
    pub(super) record: bool,
    /// The role composed for: which layers' uncontained run-time text is guarded against
    /// every boundary ([`LayerInfo::guarded_in`](super::layer::LayerInfo::guarded_in)).
    pub(super) role: usize,
    /// The conditions of the layer being written, as the measuring walk decided them.
    pub(super) decided: Reading,
}

/// The run-time source of a layer's main text, by where it came from (none: shipped).
#[inline(always)]
fn head_via(origin: Origin) -> Option<Via<'static>> {
    match origin {
        Origin::Slot => Some(Via::Slot),
        Origin::OverlayReplaced(file) => Some(Via::OverlayFile(file)),
        Origin::Selected(name) => Some(Via::SelectorPath(name)),
        _ => None,
    }
}

/// Writes layer `i`'s part.
#[inline(always)]
pub(super) fn write_part<'a>(
    i: usize,
    part: &Part<'a>,
    (values, user): (&[Value<'_>], &[UserValue<'_>]),
    out: &mut Out<'a>,
) {
    let at = out.text.len();
    let appended = match part.body {
        Body::Skip(_) => None,
        Body::Instructions(list, style, cap) => {
            // Each scope and text is run-time text, checked where it lands; the provenance
            // lines are recorded where they land.
            let (marks, record, text) = (&mut out.marks, out.record, &mut out.text);
            let emit =
                |piece, by: Option<&'a Instruction<'a>>| text.put(piece, by.map(Via::Instruction));
            for_each_piece(list, (style, cap), emit, |start, end| {
                if record {
                    let (start, end) = (at + start, at + end);
                    marks.push(Mark {
                        section: i,
                        start,
                        end,
                    });
                }
            });
            None
        }
        // A layer that carries no user text: its text is shipped or a slot's, its joined
        // pieces shipped.
        Body::Text(head, tail) if !part.info.user => {
            let via = matches!(part.origin, Origin::Slot).then_some(Via::Slot);
            out.text.put(head, via);
            each_joined(head.len(), &tail, |piece, _| out.text.push(piece));
            None
        }
        Body::Text(head, tail) => {
            out.text.put(head, head_via(part.origin));
            write_tail(head.len(), &tail, part.origin, out)
        }
        Body::Template(segs, tail) | Body::TemplateTrimmed(segs, tail, _) => {
            let trim = match part.body {
                Body::TemplateTrimmed(_, _, trim) => trim,
                _ => Trim::No,
            };
            write_template(part, (segs, trim), (values, user), out);
            write_tail(out.text.len() - at, &tail, part.origin, out)
        }
    };
    if out.record && part.info.user {
        record_origin(part, at..out.text.len(), appended, out);
    }
}

/// A template's pieces, each run-time value checked, and (in a layer that can carry user
/// content) each user stretch of a value recorded as far as it is kept.
fn write_template<'a>(
    part: &Part<'a>,
    (segs, trim): (&[Seg], Trim),
    (values, user): (&[Value<'_>], &[UserValue<'_>]),
    out: &mut Out<'a>,
) {
    let record = out.record && part.info.user;
    if trim == Trim::No && !record {
        // Most templates: each value whole, nothing to record; their conditions decided
        // when they were measured.
        let mut decided = std::mem::replace(&mut out.decided, Reading::NONE);
        return write_values(segs, values, &mut decided, out);
    }
    let mut put = |p: &str, kind: Kind, kept: Range<usize>| {
        if let (true, Kind::Text(v) | Kind::Escaped(v, _)) = (record, kind) {
            let base = out.text.len();
            for (range, source) in user.iter().filter(|(u, _)| *u == v).flat_map(|(_, s)| *s) {
                let (from, to) = (range.start.max(kept.start), range.end.min(kept.end));
                if from < to {
                    let shift = |x: usize| base + x - kept.start;
                    push_user(part, &mut out.user, shift(from)..shift(to), source.clone());
                }
            }
        }
        let via = kind.value().and_then(|v| out.text.fact(v));
        match kind.within() {
            Within::Text => out.text.put(&p[kept], via),
            within => out.text.put_within(&p[kept], within, via),
        }
    };
    match trim {
        Trim::No => each_piece(segs, values, |p, kind| put(p, kind, 0..p.len())),
        _ => each_kept_piece(segs, values, trim, &mut put),
    }
}

/// Segments written whole, each value a fact's checked as run-time text, each condition
/// read from `decided` where it was kept: most templates, and a layer's header.
#[inline(always)]
pub(super) fn write_values(
    segs: &[Seg],
    values: &[Value<'_>],
    decided: &mut Reading,
    out: &mut Out<'_>,
) {
    each_value_read(segs, values, decided, |value, v| {
        let via = v.and_then(|v| out.text.fact(v));
        match value {
            Value::Text(t) => out.text.put(t, via),
            Value::List(list) => out.text.list(list, via),
            Value::Escaped(t, e) => out.text.escaped(t, e, via),
        }
    });
}

/// The joined pieces after a head of `head` bytes: the suffix is shipped, an appended
/// overlay run-time text. Returns where the overlay starts, when it was written.
#[inline(always)]
fn write_tail<'a>(
    head: usize,
    tail: &[Joined<'a>; 2],
    origin: Origin,
    out: &mut Out<'a>,
) -> Option<usize> {
    let via = match origin {
        Origin::OverlayAppended(_, file) => Some(Via::OverlayFile(file)),
        _ => None,
    };
    let mut appended = None;
    each_joined(head, tail, |piece, index| {
        if index == Some(1) {
            appended = Some(out.text.len());
        }
        out.text.put(piece, via.filter(|_| index == Some(1)));
    });
    appended
}

/// A replacing overlay or a selected file is the layer's whole text; an appended overlay
/// is its last piece.
fn record_origin(part: &Part<'_>, whole: Range<usize>, appended: Option<usize>, out: &mut Out<'_>) {
    let (range, source) = match (part.origin, appended) {
        (Origin::OverlayReplaced(file), _) => (whole, UserFile::OverlayFile(file)),
        (Origin::Selected(name), _) => (whole, UserFile::SelectorPath(name)),
        (Origin::OverlayAppended(_, file), Some(from)) => {
            (from..whole.end, UserFile::OverlayFile(file))
        }
        _ => return,
    };
    push_user(part, &mut out.user, range, source);
}

fn push_user(part: &Part<'_>, user: &mut Vec<UserContent>, range: Range<usize>, source: UserFile) {
    debug_assert!(
        !part.info.locked,
        "user content in locked layer `{}`",
        part.info.name
    );
    user.push(UserContent {
        range,
        layer: part.info.name,
        source,
    });
}
