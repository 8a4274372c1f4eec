//! The grammar stated once over a whole text, plainly: what the writer's checks, which see
//! one layer at a time as it is written, must never let run-time text write. Tests and
//! the fuzz target hold every composed prompt to it.

use std::ops::Range;

use super::scan::ends_name;
use super::Guard;
use crate::runtime::container::{fence_closing, left_open_but, Container, Reading};
use crate::runtime::formulation::Formulation;
use crate::runtime::message::messages;
use crate::runtime::section::{Section, SectionState};

/// Every section boundary in `text`, by its marks: each tag (its `<`, `/` and name) whose
/// name folds (by the guard's fold) to one of the guard's tags, and each heading line at
/// level 1 or 2 (its `#`s, or its underline's run of `=` or `-`), and each line that reads
/// as one the manifest writes between layers (its text, blanks around it aside). Used by
/// tests.
pub fn boundaries(text: &str, guard: &Guard) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = text
        .match_indices('<')
        .filter_map(|(i, _)| tag_at(text, i, guard))
        .collect();
    let mut above: Option<&str> = None;
    for (start, line) in lines(text) {
        out.extend(heading(start, line, above));
        out.extend(guarded(start, line, guard));
        above = Some(line);
    }
    out.sort_by_key(|r| (r.start, r.end));
    out
}

fn tag_at(text: &str, i: usize, guard: &Guard) -> Option<Range<usize>> {
    let rest = &text[i + 1..];
    let rest = rest.strip_prefix('/').unwrap_or(rest);
    let from = text.len() - rest.len();
    let len = rest.find(ends_name)?;
    rest[len..].chars().next().filter(|&c| c != '<')?;
    let name = (guard.fold)(&rest[..len]);
    (len > 0 && guard.tags.contains(&name.as_str())).then(|| i..from + len)
}

/// Each line: where it starts, and its text; `\r\n` is one break.
fn lines(text: &str) -> Vec<(usize, &str)> {
    let (mut out, mut start) = (Vec::new(), 0);
    loop {
        let rest = &text[start..];
        let Some(n) = rest.find(['\n', '\r']) else {
            out.push((start, rest));
            return out;
        };
        out.push((start, &rest[..n]));
        start += n + if rest[n..].starts_with("\r\n") { 2 } else { 1 };
    }
}

/// A heading line at `start`: `#` or `##` then a space, a tab or the line's end; or an
/// underline of `=` or `-` under a line that is not blank.
fn heading(start: usize, line: &str, above: Option<&str>) -> Option<Range<usize>> {
    let body = line.trim_start_matches(' ');
    let indent = line.len() - body.len();
    if indent > 3 {
        return None;
    }
    let mark = start + indent;
    let hashes = body.len() - body.trim_start_matches('#').len();
    let after = body[hashes..].chars().next();
    if (1..=2).contains(&hashes) && after.is_none_or(|c| c == ' ' || c == '\t') {
        return Some(mark..mark + hashes);
    }
    let run = body.chars().next().filter(|c| matches!(c, '=' | '-'))?;
    let blank = |l: &str| l.chars().all(|c| c == ' ' || c == '\t');
    let rest = body.trim_start_matches(run);
    let underline = blank(rest) && above.is_some_and(|a| !blank(a));
    underline.then(|| mark..mark + body.len() - rest.len())
}

/// A line at `start` that reads as one of the guard's lines, blanks around it aside.
fn guarded(start: usize, line: &str, guard: &Guard) -> Option<Range<usize>> {
    let blank = |c: char| c == ' ' || c == '\t';
    let text = line.trim_matches(blank);
    let at = start + line.len() - line.trim_start_matches(blank).len();
    guard.lines.contains(&text).then(|| at..at + text.len())
}

/// The texts of `ranges` in `text`, sorted: boundaries compared by what they write, not
/// where (a prompt with harmless values against the same prompt with hostile ones). Used
/// by tests and the fuzz targets.
pub fn marks(text: &str, ranges: Vec<Range<usize>>) -> Vec<&str> {
    let mut marks: Vec<&str> = ranges.into_iter().map(|r| &text[r]).collect();
    marks.sort_unstable();
    marks
}

/// The guard's promise over a whole composed prompt, stated plainly: every section boundary
/// a model could read as one where a locked layer can be reached, and every way a
/// container fails to hold. With harmless inputs it is the manifest's own boundaries; the
/// writer must keep it so whatever run-time text holds.
///
/// Counted: each boundary of [`boundaries`] outside every container's content and outside
/// the layers `strict` says are not guarded (their message holds no locked layer); each
/// boundary in a layer's header, wherever it stands (it is a wrapper's text, before the
/// layer's container), each line of it that would open a code fence of its layer's fenced
/// wrapper, and an empty range at its end when it leaves a fence or a comment open; each
/// line that reads as a join, anywhere; inside each container's
/// content (a message's wrapper, a layer's, a titled layer's tags in the tagged
/// formulation), each closing tag of it or of a container around it, each line that would
/// close a code fence around it, and an empty range at the content's end when a tag
/// container's content leaves a fence or a comment open. Used by tests and the fuzz
/// targets.
pub fn in_reach(
    text: &str,
    sections: &[Section],
    formulation: Formulation,
    guard: &Guard,
    strict: &dyn Fn(&Section) -> bool,
) -> Vec<Range<usize>> {
    let contents = contents(text, sections, formulation);
    let loose: Vec<Range<usize>> = sections
        .iter()
        .filter(|s| !strict(s))
        .filter_map(|s| s.state.range())
        .collect();
    let inside = |r: &Range<usize>, of: &[Range<usize>]| {
        of.iter().any(|c| c.start <= r.start && r.end <= c.end)
    };
    let regions: Vec<Range<usize>> = contents.iter().map(|c| c.range.clone()).collect();
    let headers: Vec<Range<usize>> = sections.iter().filter_map(Section::header).collect();
    let in_header = |b: &Range<usize>| headers.iter().any(|h| b.start < h.end && h.start < b.end);
    let mut out: Vec<Range<usize>> = boundaries(text, guard)
        .into_iter()
        .filter(|b| {
            guard.lines.contains(&&text[b.clone()])
                || in_header(b)
                || !(inside(b, &regions) || inside(b, &loose))
        })
        .collect();
    out.extend(sections.iter().flat_map(|s| fence_openers(text, s)));
    // Open for a reader, lenient or CommonMark's: the container may not close for it.
    let left_open = |t: &str| {
        let read = |r| left_open_but(t, None, r).is_some();
        read(Reading::Lenient) || read(Reading::CommonMark)
    };
    for h in &headers {
        if left_open(&text[h.clone()]) {
            out.push(h.end..h.end);
        }
    }
    // An uncontained layer guarded against every boundary: what it leaves open would hide
    // the layers after it from a markdown reader.
    for s in sections
        .iter()
        .filter(|s| strict(s) && uncontained(s, formulation))
    {
        if let Some(r) = s.state.range() {
            let from = s.header().map_or(r.start, |h| h.end);
            if left_open(&text[from..r.end]) {
                out.push(r.end..r.end);
            }
        }
    }
    for c in &contents {
        let body = &text[c.range.clone()];
        for (i, _) in body.match_indices("</") {
            let rest = &body[i + 2..];
            let len = rest.find(ends_name).unwrap_or(rest.len());
            let ended = rest[len..].chars().next().is_none_or(|e| e != '<');
            let name = (guard.fold)(&rest[..len]);
            if len > 0 && ended && c.names.contains(&name.as_str()) {
                out.push(c.range.start + i..c.range.start + i + 2 + len);
            }
        }
        if let Some((mark, len)) = c.fence {
            for (start, line) in lines(body) {
                let closes = Reading::Lenient.fence_text(line);
                if closes.is_some_and(|t| fence_closing(t, mark, len)) {
                    out.push(c.range.start + start..c.range.start + start + line.len());
                }
            }
        } else if left_open(body) {
            out.push(c.range.end..c.range.end);
        }
    }
    out.sort_by_key(|r| (r.start, r.end));
    out.dedup();
    out
}

/// Whether section `s`, composed in `formulation`, stands in no container of its own (no
/// tagged title, no wrapper that pairs).
fn uncontained(s: &Section, formulation: Formulation) -> bool {
    let tagged =
        formulation == Formulation::Tagged && s.info.title.is_some_and(|t| !t.tag.is_empty());
    !tagged && !s.info.wrap.is_some_and(|w| w.container.is_some())
}

/// Each line of section `s`'s header that would open a code fence of its fenced wrapper's
/// mark, read leniently (blanks, block quote and list markers, then three of the mark): the wrapper's own fence would close
/// it, and what follows would stand outside the fence.
fn fence_openers(text: &str, s: &Section) -> Vec<Range<usize>> {
    let (Some(h), Some(Container::Fence(mark, _))) = (s.header(), s.info.wrap.map(|w| w.container))
    else {
        return Vec::new();
    };
    let run = String::from(mark as char).repeat(3);
    lines(text)
        .into_iter()
        .filter_map(|(start, line)| {
            let body = Reading::Lenient.fence_text(line)?;
            let at = start + line.len() - body.len();
            let opens = body.starts_with(&run);
            (opens && h.start <= at && at < h.end).then(|| at..at + 3)
        })
        .collect()
}

/// A container's content: where it is, the folded names of the tags whose closing tag
/// would end it or one around it, and its fence.
struct Content {
    range: Range<usize>,
    names: Vec<&'static str>,
    fence: Option<(u8, u32)>,
}

/// Every container's content in a prompt composed from `sections` in `formulation`.
fn contents(text: &str, sections: &[Section], formulation: Formulation) -> Vec<Content> {
    let mut out = Vec::new();
    for m in messages(text, sections) {
        let Some(info) = sections.iter().find_map(|s| {
            let r = s.state.range()?;
            let m_info = s.info.message?;
            (m.range.start <= r.start && r.end <= m.range.end).then_some(m_info)
        }) else {
            continue;
        };
        if let Container::Tag(name) = info.container {
            let range = m.range.start + info.open.len()..m.range.end - info.close.len();
            out.push(Content {
                range,
                names: vec![name],
                fence: None,
            });
        }
    }
    for s in sections {
        let SectionState::Included { start, end } = s.state else {
            continue;
        };
        let mut names: Vec<&'static str> = s
            .info
            .message
            .and_then(|m| m.container.tag())
            .into_iter()
            .collect();
        let (mut start, mut end) = (start, end);
        if let Some(t) = s.info.title.filter(|_| formulation == Formulation::Tagged) {
            (start, end) = (start + t.open.len(), end - t.close.len());
            names.push(t.tag);
            out.push(Content {
                range: start..end,
                names: names.clone(),
                fence: None,
            });
        }
        if let Some(w) = s.info.wrap.filter(|w| w.container.is_some()) {
            // The wrapper opens after the header, where there is one.
            let start = s.header().map_or(start, |h| h.end);
            let (start, end) = (start + w.open.len(), end - w.close.len());
            let fence = match w.container {
                Container::Fence(mark, len) => Some((mark, len)),
                _ => None,
            };
            names.extend(w.container.tag());
            out.push(Content {
                range: start..end,
                names,
                fence,
            });
        }
    }
    out
}
