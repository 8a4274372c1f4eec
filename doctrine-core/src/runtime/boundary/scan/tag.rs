//! Tags: `<` or `</`, then a name that folds to a guarded one, up to what ends it.

use super::{ends_name, At, Ctx, Found, Verdict};

/// The tag names looked for: sorted, folded by `fold`; with `closing`, only a closing tag
/// (`</name`) counts (what would end a container the text sits in).
#[derive(Clone, Copy)]
pub(in crate::runtime::boundary) struct Names<'g> {
    pub(in crate::runtime::boundary) tags: &'g [&'g str],
    pub(in crate::runtime::boundary) fold: fn(&str) -> String,
    /// The longest name, in bytes.
    pub(in crate::runtime::boundary) longest: usize,
    pub(in crate::runtime::boundary) closing: bool,
}

/// The guarded names that start with what has been read of a name so far: a range of the
/// sorted names, narrowed byte by byte as the name's folded characters come.
struct Prefix<'g> {
    tags: &'g [&'g str],
    fold: fn(&str) -> String,
    depth: usize,
}

impl<'g> Prefix<'g> {
    fn new(names: &Names<'g>) -> Self {
        let (tags, fold) = (names.tags, names.fold);
        Prefix {
            tags,
            fold,
            depth: 0,
        }
    }

    /// Reads one character of the name, folded as names are.
    fn push(&mut self, c: char) {
        if c.is_ascii() {
            return self.byte(c.to_ascii_lowercase() as u8);
        }
        let mut buf = [0; 4];
        for b in (self.fold)(c.encode_utf8(&mut buf)).bytes() {
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
pub(super) fn tag(ctx: &Ctx<'_>, s: usize, names: &Names<'_>) -> Verdict {
    let mut v = s + 1;
    match ctx.next(v) {
        At::Char('/') => v += 1,
        At::More if names.closing => return Verdict::More,
        _ if names.closing => return Verdict::No,
        _ => {}
    }
    let mut name = Prefix::new(names);
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
pub(super) fn tag_before(
    ctx: &Ctx<'_>,
    lo: usize,
    names: &Names<'_>,
) -> Option<Result<usize, usize>> {
    let reach = 4 * names.longest + 2;
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
pub(super) fn tag_from_unknown(ctx: &Ctx<'_>, from: usize, names: &Names<'_>) -> Verdict {
    let slash = ctx.next(from) == At::Char('/');
    let mut name = String::new();
    let mut v = from + usize::from(slash);
    let fits = |name: &str| {
        let folded = (names.fold)(name);
        names.tags.iter().any(|t| {
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
                if name.len() > 4 * names.longest {
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
