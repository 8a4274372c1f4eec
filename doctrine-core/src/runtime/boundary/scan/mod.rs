//! The grammar of a section boundary, checked around one piece of run-time text as a
//! layer is written: tags (`tag.rs`) and heading lines (`line.rs`). A layer is read on its
//! own, as if it started the prompt or followed the separator, and as if anything could
//! follow it: what is unknown is taken at its worst, so a layer's escapes never depend on
//! its neighbours (its bytes stay the same whatever the layers before and after it hold:
//! the stable prefix does not wait for the volatile part, and `finish_volatile()` gives
//! what `finish().volatile()` gives).

mod line;
mod tag;

use super::{Guard, Scope};
use line::{
    any_line_start, atx, fence_close, fence_open, guarded, line_start, line_starts, underline,
};
use tag::{tag, tag_before, tag_from_unknown, Names};

/// A character of a layer's context, or what lies past what is known of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum At {
    Char(char),
    /// The layer is still being written: the next character is not known yet.
    More,
    /// Past the separators: anything may be there.
    Unknown,
}

/// A layer's text as the scanner reads it, in positions of its own: the separator before
/// it (`0..before.len()`), then the text written so far; past that, what is still to come
/// or (once the layer is done) anything: the separator or the prompt's end.
pub(super) struct Ctx<'t> {
    pub(super) before: &'t str,
    pub(super) body: &'t str,
    pub(super) closed: bool,
}

impl Ctx<'_> {
    /// Where the body starts.
    pub(super) fn base(&self) -> usize {
        self.before.len()
    }

    /// The character at `v`.
    pub(super) fn next(&self, v: usize) -> At {
        let (b, l) = (self.before.len(), self.body.len());
        let first = |s: &str| s.chars().next().map_or(At::Unknown, At::Char);
        if v < b {
            first(&self.before[v..])
        } else if v < b + l {
            first(&self.body[v - b..])
        } else if self.closed {
            At::Unknown
        } else {
            At::More
        }
    }

    /// The character that ends at `v` (within the separator and the body).
    pub(super) fn prev(&self, v: usize) -> At {
        let b = self.before.len();
        let last = |s: &str| s.chars().next_back().map_or(At::Unknown, At::Char);
        if v <= b {
            last(&self.before[..v])
        } else {
            last(&self.body[..v - b])
        }
    }
}

/// A boundary: its marks `start..end` (a tag's `<`, `/` and name; a heading's `#`s; an
/// underline's run of `=` or `-`), where it became known (`decided`: past the character
/// after the marks, or the line's end, or one past the known text when it runs into the
/// unknown), and the first place an escape may split it (after a tag's `<`, before a
/// heading's mark).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Found {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) decided: usize,
    pub(super) first: usize,
}

/// What a candidate turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    No,
    Yes(Found),
    /// Not known until more of the layer is written.
    More,
}

/// Whether `c` ends a tag's name.
pub(super) fn ends_name(c: char) -> bool {
    c.is_whitespace() || matches!(c, '>' | '/' | '<')
}

/// Every boundary of `ctx` whose marks overlap `lo..hi` (the run-time piece) and that
/// became known past `past`, given to `found`; whether one is not decided yet
/// ([`Verdict::More`]). What counts is the layer's `scope`: every boundary, or what would
/// close a container around it, and a line that would open the fence a header stands
/// before; a line that reads as a join counts in every scope.
pub(super) fn piece(
    ctx: &Ctx<'_>,
    (lo, hi): (usize, usize),
    past: usize,
    (guard, scope): (&Guard, &Scope),
    mut found: impl FnMut(Found),
) -> bool {
    let mut more = false;
    let mut take = |v: Verdict| match v {
        Verdict::Yes(f) if f.start < hi && f.end > lo && f.decided > past => found(f),
        Verdict::More => more = true,
        _ => {}
    };
    let full = scope.full();
    let (closers, n) = match full {
        true => ([""; 3], 0),
        false => scope.closers(),
    };
    let names = match full {
        true => Names {
            tags: guard.tags,
            fold: guard.fold,
            longest: guard.longest(),
            closing: false,
        },
        false => Names {
            tags: &closers[..n],
            fold: guard.fold,
            longest: closers.iter().map(|c| c.len()).max().unwrap_or(0),
            closing: true,
        },
    };
    if !names.tags.is_empty() {
        tags(ctx, (lo, hi), &names, &mut take);
    }
    if full {
        headings(ctx, (lo, hi), &mut take);
    }
    // What may stand between a line's start and a fence's marks (`line::block_start`).
    let reach = |mark: u8| {
        let mut chars = [' '; 20];
        let lead = " \t>-*+.)0123456789";
        for (slot, c) in chars.iter_mut().zip(lead.chars().chain([mark as char])) {
            *slot = c;
        }
        chars
    };
    if let Some((mark, len)) = scope.fence() {
        let reach = reach(mark);
        if let (Some(ls), _) = line_start(ctx, lo, &reach, None) {
            take(fence_close(ctx, ls, (mark, len)));
        }
        for ls in line_starts(ctx, lo, hi) {
            take(fence_close(ctx, ls, (mark, len)));
        }
    }
    if let Some(mark) = scope.opens() {
        let reach = reach(mark);
        if let (Some(ls), _) = line_start(ctx, lo, &reach, None) {
            take(fence_open(ctx, ls, mark));
        }
        for ls in line_starts(ctx, lo, hi) {
            take(fence_open(ctx, ls, mark));
        }
    }
    if !guard.lines.is_empty() {
        lines(ctx, (lo, hi), guard, &mut take);
    }
    more
}

/// The tags of `names` that the piece `lo..hi` is part of.
fn tags(
    ctx: &Ctx<'_>,
    (lo, hi): (usize, usize),
    names: &Names<'_>,
    take: &mut impl FnMut(Verdict),
) {
    match tag_before(ctx, lo, names) {
        Some(Ok(s)) => take(tag(ctx, s, names)),
        Some(Err(from)) => take(tag_from_unknown(ctx, from, names)),
        None => {}
    }
    let b = ctx.base();
    for (i, _) in ctx.body[lo - b..hi - b].match_indices('<') {
        take(tag(ctx, lo + i, names));
    }
}

/// The heading lines (level 1 or 2) that the piece `lo..hi` is part of.
fn headings(ctx: &Ctx<'_>, (lo, hi): (usize, usize), take: &mut impl FnMut(Verdict)) {
    // First in its prompt, a layer starts a line; after the separator, maybe not.
    let (ls, first) = line_start(ctx, lo, &[' ', '#'], Some(6));
    if first && ls != Some(ctx.base()) {
        take(atx(ctx, ctx.base()));
    }
    if let Some(ls) = ls {
        take(atx(ctx, ls));
    }
    // An underline needs a line above: none when the layer is first.
    if let (Some(ls), _) = line_start(ctx, lo, &[' ', '\t', '=', '-'], None) {
        take(underline(ctx, ls));
    }
    for ls in line_starts(ctx, lo, hi) {
        take(atx(ctx, ls));
        take(underline(ctx, ls));
    }
}

/// The lines between layers (`join_before`) that the piece `lo..hi` is part of.
fn lines(ctx: &Ctx<'_>, (lo, hi): (usize, usize), guard: &Guard, take: &mut impl FnMut(Verdict)) {
    // Blanks may stand before the line: a few more bytes back than the longest.
    let ls = any_line_start(ctx, lo, guard.longest_line() + 64);
    // First in its prompt, a layer starts a line; after the separator, maybe not.
    if ls.is_some_and(|l| l < ctx.base()) {
        take(guarded(ctx, ctx.base(), guard));
    }
    if let Some(ls) = ls {
        take(guarded(ctx, ls, guard));
    }
    for ls in line_starts(ctx, lo, hi) {
        take(guarded(ctx, ls, guard));
    }
}
