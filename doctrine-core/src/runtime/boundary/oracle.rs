//! The grammar stated once over a whole text, plainly: what the writer's checks, which see
//! one layer at a time as it is written, must never let run-time text write. Tests and
//! the fuzz target hold every composed prompt to it.

use std::ops::Range;

use super::scan::ends_name;
use super::Guard;

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
