//! Containers: a wrapper whose closing text ends what its opening text began (a tag pair,
//! a code fence), so that a model reads the text between them as the container's content
//! and a markdown reader shows it as one. Run-time text inside a container is written as
//! given but for what would close it (the layer's boundary scope): the guard keeps
//! the container whole, and the container keeps its text in its place.

use super::emit::rebuilt;

rebuilt! {
/// What a wrapper encloses: a layer's `wrap`, a message's `wrap`, or (in the tagged
/// formulation) a titled layer's own tag pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Container {
    /// The closing text ends nothing the opening text began (it is empty, or holds no tag
    /// or fence that pairs with the opening's): no container.
    #[default]
    None,
    /// A tag pair: the tag's name, folded as the guard folds names. Run-time text inside
    /// may not write its closing tag, in any spelling the guard reads as it.
    Tag(name: &'static str),
    /// A code fence: its mark (`` ` `` or `~`, as a byte) and its length. Run-time text
    /// inside may not write a line that would close it.
    Fence(mark: u8, len: u32),
}
}

impl Container {
    /// The folded name of a tag pair.
    pub(crate) fn tag(self) -> Option<&'static str> {
        match self {
            Container::Tag(name) => Some(name),
            _ => None,
        }
    }

    /// Whether it is one at all.
    pub fn is_some(self) -> bool {
        self != Container::None
    }
}

rebuilt! {
@new
/// A layer's `wrap`: the texts written around its text when it prints (inside its title's
/// delimiters), and what they make of it.
#[derive(Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Wrap {
    /// Written before the layer's text.
    pub open: &'static str,
    /// Written after it.
    pub close: &'static str,
    /// What the two texts enclose.
    pub container: Container,
}
}

/// A fence line (`` ``` `` or `~~~`, at least three) that begins a container's opening
/// text's last line, and its mark and length; the info string after a backtick fence
/// holds no backtick. Used by the code generator to tell a fence container.
pub fn fence_opening(line: &str) -> Option<(u8, u32)> {
    let body = line.trim_start_matches(' ');
    if line.len() - body.len() > 3 {
        return None;
    }
    let mark = *body.as_bytes().first()?;
    if mark != b'`' && mark != b'~' {
        return None;
    }
    let run = body.len() - body.trim_start_matches(mark as char).len();
    let info = &body[run..];
    let ok = run >= 3 && !(mark == b'`' && info.contains('`'));
    ok.then_some((mark, run as u32))
}

/// Whether `line` closes a fence of `mark` at least `len` long: up to three spaces, the
/// run, then only spaces and tabs.
pub fn fence_closing(line: &str, mark: u8, len: u32) -> bool {
    let body = line.trim_start_matches(' ');
    if line.len() - body.len() > 3 {
        return false;
    }
    let rest = body.trim_start_matches(mark as char);
    let run = body.len() - rest.len();
    run >= len as usize && rest.chars().all(|c| c == ' ' || c == '\t')
}

/// What text inside a tag container left open at its end, which would hide the
/// container's closing text from a markdown reader (and may from a model): a code fence or
/// an HTML comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LeftOpen {
    /// A fence of this mark and length, opened on the line starting at `at`.
    Fence { mark: u8, len: usize, at: usize },
    /// An HTML comment opened at `at`.
    Comment { at: usize },
}

impl LeftOpen {
    /// Whether one closer closes both: the same fence (mark and length), or a comment.
    pub(crate) fn same_closer(self, other: LeftOpen) -> bool {
        match (self, other) {
            (
                LeftOpen::Fence { mark, len, .. },
                LeftOpen::Fence {
                    mark: m, len: l, ..
                },
            ) => mark == m && len == l,
            (LeftOpen::Comment { .. }, LeftOpen::Comment { .. }) => true,
            _ => false,
        }
    }

    /// Where it was opened.
    pub(crate) fn at(self) -> usize {
        match self {
            LeftOpen::Fence { at, .. } | LeftOpen::Comment { at } => at,
        }
    }

    /// What closes it, written after `text` (which it was left open in).
    pub(crate) fn closer(self, text: &str) -> String {
        match self {
            LeftOpen::Fence { mark, len, .. } => {
                let ended = text.ends_with(['\n', '\r']);
                let line = String::from(mark as char).repeat(len);
                if ended {
                    line
                } else {
                    format!("\n{line}")
                }
            }
            LeftOpen::Comment { .. } => "-->".to_string(),
        }
    }

    /// What it is, for a notice.
    pub(crate) fn what(self) -> &'static str {
        match self {
            LeftOpen::Fence { .. } => "a code fence",
            LeftOpen::Comment { .. } => "an HTML comment",
        }
    }
}

/// What `text` leaves open at its end, read line by line as a lenient markdown reader reads
/// fences and comments: a fence line (after indentation, block quote and list markers)
/// opens a code block that only a fence line of its mark, at least as long, closes; outside
/// code, `<!--` (not in a code span, not in an indented line) opens a comment that `-->`
/// closes. The writer also reads it as CommonMark does ([`Reading`]), and a container must
/// close for both.
#[cfg(test)]
pub(crate) fn left_open(text: &str) -> Option<LeftOpen> {
    left_open_but(text, None, Reading::Lenient)
}

/// How a fence line is told: as leniently as any reader might (after blanks, tabs, block
/// quote and list markers), or as CommonMark reads it at the top level (up to three spaces
/// and no tab before the marks). The two disagree on an indented or listed fence line, and
/// a container must close for both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    Lenient,
    CommonMark,
}

impl Reading {
    /// Where a fence line's marks may start in `line`, read so (`None`: no fence line).
    pub(crate) fn fence_text(self, line: &str) -> Option<&str> {
        match self {
            Reading::Lenient => Some(block_text(line).trim_start_matches([' ', '\t'])),
            Reading::CommonMark => {
                let body = line.trim_start_matches(' ');
                (line.len() - body.len() <= 3).then_some(body)
            }
        }
    }
}

/// [`left_open`], read so, where a fence line of mark `inert` opens nothing: the guard
/// escapes it (a header's value before its layer's fenced wrapper), so it will not be one.
pub(crate) fn left_open_but(text: &str, inert: Option<u8>, reading: Reading) -> Option<LeftOpen> {
    let mut open: Option<LeftOpen> = None;
    let mut start = 0;
    for line in text.split_inclusive(['\n', '\r']) {
        let at = start;
        start += line.len();
        let line = line.trim_end_matches(['\n', '\r']);
        match open {
            Some(LeftOpen::Fence { mark, len, .. }) => {
                let text = reading.fence_text(line);
                if text.is_some_and(|t| fence_closing(t, mark, len as u32)) {
                    open = None;
                }
            }
            Some(LeftOpen::Comment { .. }) => {
                if let Some(end) = line.find("-->") {
                    open = comment_in(&line[end + 3..], at + end + 3);
                }
            }
            None => {
                let fence = reading.fence_text(line).and_then(fence_opening);
                if let Some((mark, len)) = fence.filter(|(mark, _)| Some(*mark) != inert) {
                    open = Some(LeftOpen::Fence {
                        mark,
                        len: len as usize,
                        at,
                    });
                } else if !indented(line) {
                    open = comment_in(line, at);
                }
            }
        }
    }
    open
}

/// Where the marks of each line of `text` that is a fence line read leniently stand (its
/// offset in `text`): what the writer escapes where the two readings disagree.
pub(crate) fn fence_lines(text: &str) -> impl Iterator<Item = usize> + '_ {
    let mut start = 0;
    text.split_inclusive(['\n', '\r']).filter_map(move |line| {
        let at = start;
        start += line.len();
        let line = line.trim_end_matches(['\n', '\r']);
        let body = Reading::Lenient.fence_text(line)?;
        let mark = *body.as_bytes().first()?;
        let run = body.len() - body.trim_start_matches(mark as char).len();
        let fence = (mark == b'`' || mark == b'~') && run >= 3;
        fence.then(|| at + line.len() - body.len())
    })
}

/// A line's text after its indentation, block quote markers and one list marker.
fn block_text(line: &str) -> &str {
    let mut rest = line.trim_start_matches([' ', '\t', '>']);
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let marker = match rest.as_bytes().get(digits) {
        Some(b'.' | b')') if digits > 0 => digits + 1,
        Some(b'-' | b'*' | b'+') if digits == 0 => 1,
        _ => 0,
    };
    if marker > 0 && rest[marker..].starts_with([' ', '\t']) {
        rest = &rest[marker..];
    }
    rest
}

/// Four spaces or a tab before a line's text: indented code, where `<!--` is text.
fn indented(line: &str) -> bool {
    line.starts_with('\t') || line.starts_with("    ")
}

/// A comment `line` (at `at`) opens and does not close, outside code spans.
fn comment_in(line: &str, at: usize) -> Option<LeftOpen> {
    let mut i = 0;
    let bytes = line.as_bytes();
    while i < line.len() {
        if bytes[i] == b'`' {
            let run = line[i..].len() - line[i..].trim_start_matches('`').len();
            let fence = &line[i..i + run];
            // A code span runs to the next run of exactly as many backticks.
            let after = i + run;
            let close = line[after..]
                .match_indices(fence)
                .find(|(j, _)| {
                    let end = after + j + run;
                    !line[end..].starts_with('`') && !line[..after + j].ends_with('`')
                })
                .map(|(j, _)| after + j + run);
            i = close.unwrap_or(after);
        } else if line[i..].starts_with("<!--") {
            match line[i + 4..].find("-->") {
                Some(end) => i += 4 + end + 3,
                None => return Some(LeftOpen::Comment { at: at + i }),
            }
        } else {
            i += line[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_open_and_close_as_commonmark_reads_them() {
        assert_eq!(fence_opening("``````"), Some((b'`', 6)));
        assert_eq!(fence_opening("  ~~~ toml"), Some((b'~', 3)));
        assert_eq!(fence_opening("```rust"), Some((b'`', 3)));
        assert_eq!(fence_opening("``` a`b"), None);
        assert_eq!(fence_opening("``"), None);
        assert_eq!(fence_opening("    ```"), None);
        assert!(fence_closing("``````", b'`', 6));
        assert!(fence_closing("   ```````  \t", b'`', 6));
        assert!(!fence_closing("`````", b'`', 6));
        assert!(!fence_closing("``````x", b'`', 6));
        assert!(!fence_closing("    ``````", b'`', 6));
        assert!(!fence_closing("~~~~~~", b'`', 6));
    }

    #[test]
    fn what_a_text_leaves_open() {
        let fence = |len, at| {
            Some(LeftOpen::Fence {
                mark: b'`',
                len,
                at,
            })
        };
        assert_eq!(left_open("# Rules\n```sh\nmake\n"), fence(3, 8));
        assert_eq!(left_open("```sh\nmake\n```\n"), None);
        assert_eq!(left_open("````\n```\n"), fence(4, 0));
        assert_eq!(left_open("- step:\n  ```\n  x\n"), fence(3, 8));
        assert_eq!(
            left_open("> ~~~\n"),
            Some(LeftOpen::Fence {
                mark: b'~',
                len: 3,
                at: 0
            })
        );
        // Blanks and tabs only, as the writer's scan reads them: a vertical tab or another
        // Unicode space before the marks makes no fence line (the messages fuzz target's
        // finding: the two readings parted).
        assert_eq!(left_open("```\nx\n\u{b}\t```\n"), fence(3, 0));
        assert_eq!(left_open("```\nx\n\u{3000}```\n"), fence(3, 0));
        assert_eq!(left_open("```\nx\n \t```\n"), None);
        assert_eq!(left_open("a <!-- b"), Some(LeftOpen::Comment { at: 2 }));
        assert_eq!(left_open("a <!-- b\nc --> d"), None);
        assert_eq!(
            left_open("a <!-- b\nc --> <!-- e"),
            Some(LeftOpen::Comment { at: 15 })
        );
        // In a code span, an indented line or a fence, `<!--` is text.
        assert_eq!(left_open("write `<!--` here"), None);
        assert_eq!(left_open("write ``a`<!--`` here"), None);
        assert_eq!(left_open("    <!-- x"), None);
        assert_eq!(left_open("```\n<!--\n```"), None);
        // An unmatched backtick run is text, and the comment after it counts.
        assert_eq!(left_open("a ` <!-- b"), Some(LeftOpen::Comment { at: 4 }));
        let open = left_open("x\n```").unwrap();
        assert_eq!(open.closer("x\n```"), "\n```");
        assert_eq!(open.closer("x\n```\n"), "```");
        assert_eq!(LeftOpen::Comment { at: 0 }.closer("<!-- a"), "-->");
    }
}
