//! The grammar of a section boundary, checked around one piece of run-time text as a
//! layer is written. A layer is read on its own, as if it started the prompt or followed
//! the separator, and as if anything could follow it: what is unknown is taken at its
//! worst, so
//! a layer's escapes never depend on its neighbours (its bytes stay the same whatever
//! the layers before and after it hold: the stable prefix does not wait for the volatile
//! part, and `finish_volatile()` gives what `finish().volatile()` gives).

use super::Guard;

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
    fn next(&self, v: usize) -> At {
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
    fn prev(&self, v: usize) -> At {
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

/// Line breaks, as CommonMark counts them.
fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\r')
}

/// The guarded names that start with what has been read of a name so far: a range of the
/// sorted names, narrowed byte by byte as the name's folded characters come.
struct Prefix<'g> {
    tags: &'g [&'g str],
    depth: usize,
}

impl<'g> Prefix<'g> {
    fn new(tags: &'g [&'g str]) -> Self {
        Prefix { tags, depth: 0 }
    }

    /// Reads one character of the name, folded as names are.
    fn push(&mut self, c: char) {
        if c.is_ascii() {
            return self.byte(c.to_ascii_lowercase() as u8);
        }
        let mut buf = [0; 4];
        for b in super::super::text::fold(c.encode_utf8(&mut buf)).bytes() {
            self.byte(b);
        }
    }

    fn byte(&mut self, b: u8) {
        let d = self.depth;
        let at = |t: &&str| t.as_bytes().get(d).copied();
        let lo = self.tags.partition_point(|t| at(t).is_none_or(|x| x < b));
        let hi = self.tags.partition_point(|t| at(t).is_none_or(|x| x <= b));
        self.tags = &self.tags[lo..hi];
        self.depth += 1;
    }

    /// Some guarded name starts with what was read.
    fn any(&self) -> bool {
        !self.tags.is_empty()
    }

    /// What was read is a guarded name (the shortest of the range sorts first).
    fn exact(&self) -> bool {
        self.tags.first().is_some_and(|t| t.len() == self.depth)
    }
}

/// A tag at `s` (a `<`): `<` or `</`, then a name up to whitespace, `>` or `/` that folds
/// to a guarded name. A name cut by the unknown counts if it could still be one.
pub(super) fn tag(ctx: &Ctx<'_>, s: usize, guard: &Guard) -> Verdict {
    let mut v = s + 1;
    if ctx.next(v) == At::Char('/') {
        v += 1;
    }
    let mut name = Prefix::new(guard.tags);
    let start = v;
    loop {
        match ctx.next(v) {
            At::Char(c) if !ends_name(c) => {
                name.push(c);
                v += c.len_utf8();
                if !name.any() {
                    return Verdict::No;
                }
            }
            At::Char(c) if v > start && c != '<' && name.exact() => {
                let decided = v + c.len_utf8();
                return Verdict::Yes(Found {
                    start: s,
                    end: v,
                    decided,
                    first: s + 1,
                });
            }
            At::Char(_) => return Verdict::No,
            At::More if name.any() => return Verdict::More,
            At::Unknown if name.any() => {
                return Verdict::Yes(Found {
                    start: s,
                    end: v,
                    decided: v + 1,
                    first: s + 1,
                });
            }
            At::More | At::Unknown => return Verdict::No,
        }
    }
}

/// Where a tag that reaches `lo` would start: the `<` before the name that runs up to
/// `lo`, if there is one within reach; `Err(from)` when the name (or the `/` before it,
/// at `from`) runs back into the unknown, where a `<` may be.
pub(super) fn tag_before(ctx: &Ctx<'_>, lo: usize, guard: &Guard) -> Option<Result<usize, usize>> {
    let reach = 4 * guard.longest() + 2;
    let mut v = lo;
    while lo - v <= reach {
        match ctx.prev(v) {
            At::Char('<') => return Some(Ok(v - 1)),
            At::Char('/') => {
                return match ctx.prev(v - 1) {
                    At::Char('<') => Some(Ok(v - 2)),
                    At::Unknown => Some(Err(v - 1)),
                    _ => None,
                }
            }
            At::Char(c) if !ends_name(c) => v -= c.len_utf8(),
            At::Unknown => return Some(Err(v)),
            _ => return None,
        }
    }
    None
}

/// A tag whose `<` would lie in the unknown: from `from`, a `/` and a guarded name, or the
/// end of one (a `<` and its start may be in the unknown), up to what ends it.
pub(super) fn tag_from_unknown(ctx: &Ctx<'_>, from: usize, guard: &Guard) -> Verdict {
    let slash = ctx.next(from) == At::Char('/');
    let mut name = String::new();
    let mut v = from + usize::from(slash);
    let fits = |name: &str| {
        let folded = super::super::text::fold(name);
        guard.tags.iter().any(|t| {
            if slash {
                *t == folded
            } else {
                t.ends_with(folded.as_str())
            }
        })
    };
    let found = |end, decided| Found {
        start: from,
        end,
        decided,
        first: from,
    };
    loop {
        match ctx.next(v) {
            At::Char(c) if !ends_name(c) => {
                name.push(c);
                v += c.len_utf8();
                if name.len() > 4 * guard.longest() {
                    return Verdict::No;
                }
            }
            At::Char(c) if c != '<' && fits(&name) => {
                return Verdict::Yes(found(v, v + c.len_utf8()));
            }
            At::Char(_) => return Verdict::No,
            At::More => return Verdict::More,
            At::Unknown => {
                return match fits(&name) {
                    true => Verdict::Yes(found(v, v + 1)),
                    false => Verdict::No,
                }
            }
        }
    }
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
        At::Char(_) => return Verdict::No,
        At::More => Verdict::More,
        At::Unknown => found(v + 1),
    };
    match blank_above(ctx, ls) {
        true => Verdict::No,
        false => verdict,
    }
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

/// Every boundary of `ctx` whose marks overlap `lo..hi` (the run-time piece) and that
/// became known past `past`, given to `found`; whether one is not decided yet
/// ([`Verdict::More`]).
pub(super) fn piece(
    ctx: &Ctx<'_>,
    (lo, hi): (usize, usize),
    past: usize,
    guard: &Guard,
    mut found: impl FnMut(Found),
) -> bool {
    let mut more = false;
    let mut take = |v: Verdict| match v {
        Verdict::Yes(f) if f.start < hi && f.end > lo && f.decided > past => found(f),
        Verdict::More => more = true,
        _ => {}
    };
    if !guard.tags.is_empty() {
        match tag_before(ctx, lo, guard) {
            Some(Ok(s)) => take(tag(ctx, s, guard)),
            Some(Err(from)) => take(tag_from_unknown(ctx, from, guard)),
            None => {}
        }
        let b = ctx.base();
        for (i, _) in ctx.body[lo - b..hi - b].match_indices('<') {
            take(tag(ctx, lo + i, guard));
        }
    }
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
    more
}
