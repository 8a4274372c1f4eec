//! Heading lines at level 1 or 2, as CommonMark reads them: `#` or `##`, or an underline;
//! and the lines the manifest writes between layers (`join_before`).

use super::{At, Ctx, Found, Verdict};
use crate::runtime::boundary::Guard;

/// Line breaks, as CommonMark counts them.
fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\r')
}

/// A heading at level 1 or 2 on the line starting at `ls`: up to three spaces, `#` or
/// `##`, then a space, a tab, a line break or the end.
pub(super) fn atx(ctx: &Ctx<'_>, ls: usize) -> Verdict {
    let v = indent(ctx, ls);
    let Some(v) = v else { return Verdict::No };
    let mut n = 0;
    loop {
        match ctx.next(v + n) {
            At::Char('#') if n < 2 => n += 1,
            At::Char(' ' | '\t' | '\n' | '\r') if n > 0 => {
                return Verdict::Yes(Found {
                    start: v,
                    end: v + n,
                    decided: v + n + 1,
                    first: v,
                });
            }
            At::Char(_) => return Verdict::No,
            At::More if n > 0 => return Verdict::More,
            At::Unknown if n > 0 => {
                return Verdict::Yes(Found {
                    start: v,
                    end: v + n,
                    decided: v + n + 1,
                    first: v,
                });
            }
            At::More | At::Unknown => return Verdict::No,
        }
    }
}

/// A setext underline on the line starting at `ls`: up to three spaces, a run of `=` or of
/// `-`, spaces or tabs, then the line's end, under a line that is not blank. It makes the
/// line above a heading of level 1 or 2.
pub(super) fn underline(ctx: &Ctx<'_>, ls: usize) -> Verdict {
    let Some(start) = indent(ctx, ls) else {
        return Verdict::No;
    };
    let mark = match ctx.next(start) {
        At::Char(c @ ('=' | '-')) => c,
        _ => return Verdict::No,
    };
    let (_, verdict) = run_alone(ctx, start, mark);
    if verdict == Verdict::No {
        return Verdict::No;
    }
    match blank_above(ctx, ls) {
        true => Verdict::No,
        false => verdict,
    }
}

/// A line starting at `ls` that would close a code fence of `mark`, at least `len` long:
/// blanks and markers as [`block_start`] reads them, the run, spaces or tabs, then the
/// line's end. Its marks are the run;
/// an escape goes before it (a `\` makes the line text inside the fence).
pub(super) fn fence_close(ctx: &Ctx<'_>, ls: usize, (mark, len): (u8, u32)) -> Verdict {
    let start = match block_start(ctx, ls) {
        Ok(start) => start,
        Err(verdict) => return verdict,
    };
    let (end, verdict) = run_alone(ctx, start, mark as char);
    if end - start < len as usize {
        // A run cut short by what is still to come may yet be long enough.
        return match ctx.next(end) {
            At::More if end > start => Verdict::More,
            _ => Verdict::No,
        };
    }
    verdict
}

/// A line starting at `ls` that would open a code fence of `mark`: blanks and markers as
/// [`block_start`] reads them, then three of the mark, whatever follows (an info string, or more of the mark). Its marks
/// are those three; an escape goes before them (a `\` makes the line text).
pub(super) fn fence_open(ctx: &Ctx<'_>, ls: usize, mark: u8) -> Verdict {
    let start = match block_start(ctx, ls) {
        Ok(start) => start,
        Err(verdict) => return verdict,
    };
    for n in 0..3 {
        match ctx.next(start + n) {
            At::Char(c) if c == mark as char => {}
            At::More if n > 0 => return Verdict::More,
            At::Char(_) | At::More | At::Unknown => return Verdict::No,
        }
    }
    Verdict::Yes(Found {
        start,
        end: start + 3,
        decided: start + 3,
        first: start,
    })
}

/// Where a fence line's marks may start, read as leniently as any reader might (what
/// `container::left_open` reads too): after spaces, tabs and block quote markers, one
/// list marker and the blanks after it. CommonMark counts four spaces or a tab as
/// indented code and a marker as a list item's, where a model may not: a line any reader
/// could take for a fence is one run-time text may not write inside a fence.
fn block_start(ctx: &Ctx<'_>, ls: usize) -> Result<usize, Verdict> {
    let mut v = ls;
    let skip = |v: &mut usize, what: &dyn Fn(char) -> bool| -> Result<(), Verdict> {
        loop {
            match ctx.next(*v) {
                At::Char(c) if what(c) => *v += c.len_utf8(),
                At::More => return Err(Verdict::More),
                _ => return Ok(()),
            }
        }
    };
    skip(&mut v, &|c| matches!(c, ' ' | '\t' | '>'))?;
    let at = v;
    skip(&mut v, &|c| c.is_ascii_digit())?;
    let digits = v - at;
    let marker = match ctx.next(v) {
        At::Char('.' | ')') if digits > 0 => Some(v + 1),
        At::Char('-' | '*' | '+') if digits == 0 => Some(v + 1),
        At::More => return Err(Verdict::More),
        _ => None,
    };
    match marker.map(|m| (m, ctx.next(m))) {
        Some((m, At::Char(' ' | '\t'))) => {
            v = m;
            skip(&mut v, &|c| matches!(c, ' ' | '\t'))?;
            Ok(v)
        }
        Some((_, At::More)) => Err(Verdict::More),
        _ => Ok(at),
    }
}

/// A run of `mark` from `start`, then spaces or tabs to the line's end: where the run
/// ends, and the line as a boundary made of the run, decided past the line's end.
fn run_alone(ctx: &Ctx<'_>, start: usize, mark: char) -> (usize, Verdict) {
    let mut v = start;
    while ctx.next(v) == At::Char(mark) {
        v += 1;
    }
    let end = v;
    while matches!(ctx.next(v), At::Char(' ' | '\t')) {
        v += 1;
    }
    let found = |decided| {
        Verdict::Yes(Found {
            start,
            end,
            decided,
            first: start,
        })
    };
    let verdict = match ctx.next(v) {
        At::Char(c) if is_break(c) => found(v + 1),
        At::Char(_) => Verdict::No,
        At::More => Verdict::More,
        At::Unknown => found(v + 1),
    };
    (end, verdict)
}

/// Where a line's text starts after up to three spaces of indentation (four make code).
fn indent(ctx: &Ctx<'_>, ls: usize) -> Option<usize> {
    let mut v = ls;
    while ctx.next(v) == At::Char(' ') {
        if v - ls == 3 {
            return None;
        }
        v += 1;
    }
    Some(v)
}

/// Whether the line above the one starting at `ls` is blank (only spaces or tabs, as
/// CommonMark has it), or there is none. A line that runs into the unknown may hold
/// anything: not blank.
fn blank_above(ctx: &Ctx<'_>, ls: usize) -> bool {
    let mut v = ls;
    // The break that ends the line above: `\r\n` is one.
    match ctx.prev(v) {
        At::Char('\n') => {
            v -= 1;
            if ctx.prev(v) == At::Char('\r') {
                v -= 1;
            }
        }
        At::Char('\r') => v -= 1,
        _ => return false,
    }
    loop {
        match ctx.prev(v) {
            At::Char(c) if is_break(c) => return true,
            At::Char(' ' | '\t') => v -= 1,
            _ => return false,
        }
    }
}

/// Where the line holding `lo` may start, if everything between there and `lo` is one of
/// `chars` (and at most `reach` bytes, when given): after a line break, or in the unknown
/// before the separator; and whether that stretch reaches back to the layer's start, which
/// is a line start too when the layer is the first of its prompt.
pub(super) fn line_start(
    ctx: &Ctx<'_>,
    lo: usize,
    chars: &[char],
    reach: Option<usize>,
) -> (Option<usize>, bool) {
    let mut v = lo;
    loop {
        let first = v <= ctx.base();
        if reach.is_some_and(|r| lo - v > r) {
            return (None, first);
        }
        match ctx.prev(v) {
            At::Char(c) if is_break(c) => return (Some(v), first),
            At::Char(c) if chars.contains(&c) => v -= c.len_utf8(),
            At::Unknown => return (Some(v), first),
            _ => return (None, first),
        }
    }
}

/// Every line start after a line break in `lo..hi` (before `hi`).
pub(super) fn line_starts<'c>(
    ctx: &'c Ctx<'_>,
    lo: usize,
    hi: usize,
) -> impl Iterator<Item = usize> + 'c {
    let b = ctx.base();
    ctx.body[lo - b..hi - b]
        .match_indices(['\n', '\r'])
        .map(move |(i, _)| lo + i + 1)
        .filter(move |&ls| ls < hi)
}

/// A line the manifest writes between layers (one of the guard's `lines`) on the line
/// starting at `ls`: spaces and tabs, the line, spaces and tabs, then a line break or the
/// end. Its marks are the line's text; an escape goes before it.
pub(super) fn guarded(ctx: &Ctx<'_>, ls: usize, guard: &Guard) -> Verdict {
    let mut v = ls;
    while matches!(ctx.next(v), At::Char(' ' | '\t')) {
        v += 1;
    }
    let start = v;
    let mut text = String::new();
    let decided = loop {
        match ctx.next(v) {
            At::Char(c) if is_break(c) => break v + 1,
            At::Char(c) => {
                text.push(c);
                v += c.len_utf8();
                // Blanks after the line may run on; anything longer is no guarded line.
                if text.trim_end().len() > guard.longest_line() {
                    return Verdict::No;
                }
            }
            At::More => {
                let so_far = text.trim_end();
                let may = guard.lines.iter().any(|l| l.starts_with(so_far));
                return if may { Verdict::More } else { Verdict::No };
            }
            At::Unknown => {
                // What follows may be anything (the separator, the next layer): a line
                // this text could begin is taken at its worst.
                let begun = !text.trim().is_empty()
                    && guard.lines.iter().any(|l| l.starts_with(text.as_str()));
                if begun {
                    let end = start + text.trim_end().len();
                    let found = Found {
                        start,
                        end,
                        decided: v + 1,
                        first: start,
                    };
                    return Verdict::Yes(found);
                }
                break v + 1;
            }
        }
    };
    let line = text.trim_end();
    match guard.lines.contains(&line) {
        true => Verdict::Yes(Found {
            start,
            end: start + line.len(),
            decided,
            first: start,
        }),
        false => Verdict::No,
    }
}

/// Where the line holding `lo` starts, whatever stands between (at most `reach` bytes back):
/// after a line break, or in the unknown before the separator.
pub(super) fn any_line_start(ctx: &Ctx<'_>, lo: usize, reach: usize) -> Option<usize> {
    let mut v = lo;
    loop {
        if lo - v > reach {
            return None;
        }
        match ctx.prev(v) {
            At::Char(c) if is_break(c) => return Some(v),
            At::Char(c) => v -= c.len_utf8(),
            At::Unknown | At::More => return Some(v),
        }
    }
}
