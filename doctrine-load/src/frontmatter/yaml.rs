//! YAML frontmatter, read as `yaml-rust2` parser events.
//!
//! `YamlLoader` builds a recursive tree: deep nesting overflowed the stack while building,
//! hashing or dropping it, and it expands every alias, so a few lines of anchors ("billion
//! laughs") cost gigabytes. The event parser keeps its state on the heap (the scanner
//! itself refuses flow nesting past 255), so we read its events in a loop: the top level
//! must be a mapping, values under keys we do not read are skipped within [`MAX_DEPTH`],
//! an alias is one event and is never expanded, and the provenance keys must be scalars.

use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use super::FrontmatterError;
use super::{error, not_list, not_scalar, Collector, Field, Key, Value};
use crate::text::shown;

/// The deepest nesting of sequences and mappings accepted, the top-level mapping being
/// depth 1. Provenance sits at depth 1; the rest leaves room for whatever metadata other
/// tools keep beside it.
pub const MAX_DEPTH: usize = 64;

/// The fields of `schema` in `matter`, the YAML between the fences (which starts on the
/// file's line 2): one per key, `None` when not given.
pub(crate) fn fields(matter: &str, schema: &[Key]) -> Result<Vec<Option<Field>>, FrontmatterError> {
    foreign_breaks(matter)?;
    let mut events = Events {
        parser: Parser::new_from_str(matter),
        lines: line_starts(matter),
    };
    let (first, at) = events.next()?;
    if first != Event::StreamStart {
        return Err(error(at, "frontmatter is not a YAML stream".into()));
    }
    match events.next()? {
        // Blank, or only comments.
        (Event::StreamEnd, _) => return Ok(vec![None; schema.len()]),
        (Event::DocumentStart, _) => {}
        (_, at) => return Err(error(at, "frontmatter is not a YAML document".into())),
    }
    let (top, at) = events.next()?;
    if !matches!(top, Event::MappingStart(..)) {
        return Err(error(
            at,
            "frontmatter must be a YAML mapping of `key: value` lines".into(),
        ));
    }
    let mut found = Collector::new(schema);
    let mut keys = std::collections::HashSet::new();
    loop {
        let (key, key_at) = events.next()?;
        let name = match key {
            Event::MappingEnd => break,
            Event::Scalar(name, ..) => name,
            // A complex key (`? [a, b]`) or an alias as key: never a provenance key.
            other => {
                events.skip(other, key_at)?;
                let (value, at) = events.next()?;
                events.skip(value, at)?;
                continue;
            }
        };
        // YAML forbids a key twice; `YamlLoader` refused it, and so do we at the top level.
        if !keys.insert(name.clone()) {
            return Err(error(
                key_at,
                format!("frontmatter gives the key `{}` twice", shown(&name)),
            ));
        }
        let (value, at) = events.next()?;
        let Some(slot) = found.slot(&name) else {
            events.skip(value, at)?;
            continue;
        };
        // Problems with a field are reported at its key: a block collection's own marker
        // sits after its first key rather than where it starts.
        let at = key_at;
        let text = match value {
            Event::Scalar(text, style, _, tag) => {
                let text = (!is_null(&text, style, tag.as_ref())).then_some(text);
                match schema[slot].list {
                    true => text.map(|t| Value::List(vec![t])),
                    false => text.map(Value::Text),
                }
            }
            Event::Alias(_) => return Err(alias(&name, at)),
            Event::SequenceStart(..) if schema[slot].list => {
                let mut items = Vec::new();
                loop {
                    match events.next()?.0 {
                        Event::SequenceEnd => break,
                        // A blank item (`-` alone, `~`) is kept as an empty one, for the
                        // caller to refuse as such rather than call the list malformed.
                        Event::Scalar(text, style, _, tag) => {
                            match is_null(&text, style, tag.as_ref()) {
                                true => items.push(String::new()),
                                false => items.push(text),
                            }
                        }
                        Event::Alias(_) => return Err(alias(&name, at)),
                        _ => return Err(not_list(&name, at)),
                    }
                }
                Some(Value::List(items))
            }
            _ if schema[slot].list => return Err(not_list(&name, at)),
            _ => return Err(not_scalar(&name, at)),
        };
        found.set(slot, &name, text, at)?;
    }
    match events.next()? {
        (Event::DocumentEnd, _) => {}
        (_, at) => return Err(error(at, "frontmatter YAML document does not end".into())),
    }
    match events.next()? {
        (Event::StreamEnd, _) => Ok(found.values),
        (_, at) => Err(error(
            at,
            "frontmatter holds more than one YAML document (a `...` line ends the first)".into(),
        )),
    }
}

/// The line breaks YAML honours besides a line feed: a carriage return alone (a CRLF is
/// normalised to LF before the frontmatter is read), and NEL, LINE SEPARATOR and PARAGRAPH
/// SEPARATOR, which YAML 1.1 readers break lines at.
const FOREIGN_BREAKS: [char; 4] = ['\r', '\u{85}', '\u{2028}', '\u{2029}'];

/// Refuses a line break other than a line feed anywhere in the matter. YAML reads a bare
/// CR as the end of a line, so `when: Use when asked.\r## Safety\rSAFETY OVERRIDE: …`
/// would keep `Use when asked.`, take `## Safety` for a comment and the rest for a key
/// nobody reads: the author's text dropped in silence. Reported at the character, with
/// the file's line and column as the generator counts them (lines end at `\n` only).
fn foreign_breaks(matter: &str) -> Result<(), FrontmatterError> {
    let Some(at) = matter.find(FOREIGN_BREAKS) else {
        return Ok(());
    };
    let before = &matter[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = 2 + before.matches('\n').count();
    let column = before[line_start..].chars().count() + 1;
    let c = matter[at..].chars().next().unwrap_or('\r');
    let name = crate::one_line::breaks(c).unwrap_or("a line break");
    Err(error(
        (line, column),
        format!(
            "frontmatter holds U+{:04X} ({name}), which YAML can read as a line break, so \
             the text after it would not be read as part of its line; end lines with a line \
             feed alone",
            c as u32
        ),
    ))
}

fn alias(name: &str, at: (usize, usize)) -> FrontmatterError {
    error(
        at,
        format!("frontmatter field `{name}` is an alias (`*name`): write the value itself"),
    )
}

/// The null scalar, which means "not given": plain `~`, `null` or nothing, or tagged `!!null`.
/// Anything else is kept as written.
fn is_null(text: &str, style: TScalarStyle, tag: Option<&Tag>) -> bool {
    match tag {
        Some(t) => t.handle == "tag:yaml.org,2002:" && t.suffix == "null",
        None => style == TScalarStyle::Plain && matches!(text, "" | "~" | "null"),
    }
}

struct Events<'a> {
    parser: Parser<std::str::Chars<'a>>,
    /// Where each line of the matter starts, in characters (see [`position`]).
    lines: Vec<usize>,
}

impl Events<'_> {
    /// The next event and the file's 1-based line and column where it starts.
    fn next(&mut self) -> Result<(Event, (usize, usize)), FrontmatterError> {
        match self.parser.next_token() {
            Ok((event, mark)) => Ok((event, position(&self.lines, mark))),
            Err(e) => Err(error(
                position(&self.lines, *e.marker()),
                format!("frontmatter is not valid YAML: {}", e.info()),
            )),
        }
    }

    /// Reads past the node that `first` starts, a child of the top-level mapping.
    fn skip(&mut self, first: Event, at: (usize, usize)) -> Result<(), FrontmatterError> {
        // Collections open around this node; the top-level mapping is one more.
        let mut open = 0usize;
        let (mut event, mut at) = (first, at);
        loop {
            match event {
                Event::SequenceStart(..) | Event::MappingStart(..) => {
                    open += 1;
                    if 1 + open > MAX_DEPTH {
                        return Err(error(
                            at,
                            format!("frontmatter nests deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                }
                Event::SequenceEnd | Event::MappingEnd if open > 0 => open -= 1,
                // An alias is one event: what it names is never copied.
                Event::Scalar(..) | Event::Alias(_) => {}
                // The parser never yields these where a node starts or inside one; stop
                // rather than loop.
                Event::SequenceEnd
                | Event::MappingEnd
                | Event::Nothing
                | Event::StreamStart
                | Event::StreamEnd
                | Event::DocumentStart
                | Event::DocumentEnd => {
                    return Err(error(at, "frontmatter YAML ends inside a value".into()))
                }
            }
            if open == 0 {
                return Ok(());
            }
            (event, at) = self.next()?;
        }
    }
}

/// The character index at which each line of `matter` starts (a line ends at `\n`).
fn line_starts(matter: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            matter
                .chars()
                .enumerate()
                .filter(|&(_, c)| c == '\n')
                .map(|(i, _)| i + 1),
        )
        .collect()
}

/// The file's 1-based line and column (in characters) of a parser mark. Taken from the
/// mark's character index rather than its line, so lines are counted at `\n` alone as
/// everywhere else the generator reports a place, whatever else the parser breaks lines
/// at ([`foreign_breaks`] refuses a lone `\r` before the parser sees it). The matter
/// starts on line 2, after the opening fence.
fn position(lines: &[usize], mark: Marker) -> (usize, usize) {
    let line = lines.partition_point(|&start| start <= mark.index()).max(1);
    (line + 1, mark.index() - lines[line - 1] + 1)
}
