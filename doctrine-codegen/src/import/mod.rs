//! `cargo doctrine import jinja`: Jinja templates turned into a manifest and markdown for
//! the subset doctrine expresses (feature `jinja`). Each template becomes a layer with
//! `whitespace = "jinja"`, its tags translated one for one, so its text keeps Jinja's
//! layout; the facts and list fields are inferred from how the template uses them. What
//! is outside the subset is reported at its `line:col` and kept in the markdown as written
//! (literal text), for the author to translate.

#[cfg(feature = "handlebars")]
mod hbs;
mod infer;
#[cfg(feature = "jinja")]
mod space;
#[cfg(feature = "jinja")]
mod walk;
mod write;

#[cfg(feature = "handlebars")]
pub use hbs::handlebars;
#[cfg(feature = "jinja")]
use minijinja::machinery::{self, ast};
#[cfg(feature = "jinja")]
use minijinja::syntax::SyntaxConfig;

/// One template: the file name it is reported by and its text.
pub struct Template {
    pub name: String,
    pub source: String,
}

/// What an import wrote, and what it left for the author.
#[derive(Debug)]
pub struct Imported {
    /// `doctrine.toml`.
    pub manifest: String,
    /// `(file name, markdown)`, one per template, beside the manifest.
    pub files: Vec<(String, String)>,
    /// Everything not imported, in template order.
    pub problems: Vec<Problem>,
    /// What the import did that the author should know of, nothing left to fix: a layer
    /// named apart from its file's stem, each as `TEMPLATE: what`.
    pub notes: Vec<String>,
}

/// Something a template holds that doctrine does not express (or a template that does
/// not parse), where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub template: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Problem {
            template,
            line,
            col,
            message,
        } = self;
        write!(f, "{template}:{line}:{col}: {message}")
    }
}

/// The most bytes of one template: a prompt template is a few kilobytes, and the parser's
/// work and the markdown grow with it.
pub const MAX_TEMPLATE_BYTES: usize = 1 << 20;

/// minijinja counts columns in a `u16` (saturating) and, reporting a syntax error at the
/// last one, adds one to it, which overflows (a panic in a debug build, as `cargo run`
/// makes the tool): a template with a line of this many characters or more is refused
/// before it is parsed. Columns count every character but the `\n` that ends the line,
/// so a line of `MAX_LINE_CHARS - 1` characters is the longest read.
pub const MAX_LINE_CHARS: usize = u16::MAX as usize;

/// The byte offset of the first line of `source` with `MAX_LINE_CHARS` characters or
/// more, its line break not counted.
#[cfg(feature = "jinja")]
fn overlong_line(source: &str) -> Option<usize> {
    let mut start = 0;
    for line in source.split_inclusive('\n') {
        let text = line.strip_suffix('\n').unwrap_or(line);
        if text.len() >= MAX_LINE_CHARS && text.chars().count() >= MAX_LINE_CHARS {
            return Some(start);
        }
        start += line.len();
    }
    None
}

/// Imports `templates`, each a layer in the order given.
#[cfg(feature = "jinja")]
pub fn jinja(templates: &[Template]) -> Imported {
    let mut uses = infer::Uses::default();
    let mut files = Vec::new();
    let mut layers = Vec::new();
    let mut problems = Vec::new();
    let mut notes = Vec::new();
    let files_named: Vec<&str> = templates.iter().map(|t| t.name.as_str()).collect();
    for (t, named) in templates.iter().zip(write::layer_names(&files_named)) {
        let Some((stem, note)) = importable(t, named, &mut problems) else {
            continue;
        };
        // `(byte offset, message)`, located once all are known.
        let mut found: Vec<(usize, String)> = Vec::new();
        if let Some(offset) = overlong_line(&t.source) {
            let message = format!(
                "a line of {MAX_LINE_CHARS} characters or more (its line break not counted), \
                 which the Jinja parser cannot locate errors in: break the line (nothing \
                 imported from this template)"
            );
            problems.extend(located(&t.name, &t.source, vec![(offset, message)]));
            continue;
        }
        for (offset, written) in unsupported_markers(&t.source) {
            found.push((offset, format!("`{written}` turns Jinja's whitespace rule off for one tag, which `whitespace = \"jinja\"` does not: move the text instead")));
        }
        let parsed = machinery::parse(&t.source, &t.name, syntax());
        let tree = match parsed {
            Ok(ast::Stmt::Template(tree)) => tree,
            Ok(_) => continue,
            Err(e) => {
                let offset = e.range().map_or(0, |r| r.start);
                let what = e
                    .detail()
                    .unwrap_or("the template does not parse")
                    .to_string();
                found.push((
                    offset,
                    format!("{what} (nothing imported from this template)"),
                ));
                problems.extend(located(&t.name, &t.source, found));
                continue;
            }
        };
        let mut walker = walk::Walker::new(&t.source, &mut uses);
        walker.body(&tree.children);
        found.extend(walker.problems);
        problems.extend(located(&t.name, &t.source, found));
        let tail = &t.source[jinja_end(&t.source)..];
        let mut markdown = write::markdown(&walker.out, tail);
        // A loop printing nothing of an empty list beside words that still print: an
        // empty branch after it says so, as the generator asks (Jinja prints the same).
        for (list, at) in empty_branches(&markdown) {
            markdown.insert_str(at, &format!("{{?!{list}}}{{/{list}}}"));
            notes.push(format!(
                "{}: the loop over `{list}` prints nothing when the list is empty, and the text around it still prints; `{{?!{list}}}{{/{list}}}` after it says so (fill it in to say what no {list} means)",
                t.name
            ));
        }
        files.push((format!("{stem}.md"), markdown));
        notes.extend(note.map(|n| format!("{}: {n}", t.name)));
        layers.push(stem);
    }
    Imported {
        manifest: write::manifest(&uses, &layers, write::Language::Jinja),
        files,
        problems,
        notes,
    }
}

#[cfg(feature = "jinja")]
/// Where an empty branch goes in `markdown` (read as the generator reads the layer): after
/// the close of each loop the generator would refuse without one, last first.
fn empty_branches(markdown: &str) -> Vec<(String, usize)> {
    use doctrine_load::__internals::template::{jinja, placeholders, ungated_loops};
    let Ok(pieces) = placeholders(markdown, crate::names::snake_ident_problem) else {
        return Vec::new();
    };
    let mut at: Vec<(String, usize)> = ungated_loops(&jinja(pieces))
        .into_iter()
        .map(|u| {
            let end = u.close + u.list.len() + 3;
            (u.list, end)
        })
        .collect();
    at.sort_by_key(|(_, a)| std::cmp::Reverse(*a));
    at
}

#[cfg(feature = "jinja")]
/// How templates are read: Jinja's tags, and no whitespace rule but the `-` markers, so the
/// markdown keeps every byte `whitespace = "jinja"` then treats as Jinja does. The last
/// line break is left out as Jinja leaves it out, so that the whitespace of a comment at
/// the end is taken as Jinja takes it; the markdown gets it back (`write::markdown`).
fn syntax() -> SyntaxConfig {
    SyntaxConfig::default()
}

#[cfg(feature = "jinja")]
/// Where Jinja's reading of `source` ends: before one last `\n`, then one `\r`.
fn jinja_end(source: &str) -> usize {
    let kept = source.strip_suffix('\n').unwrap_or(source);
    kept.strip_suffix('\r').unwrap_or(kept).len()
}

#[cfg(feature = "jinja")]
/// `{%+`, `+%}` and the like, with where each is: Jinja's per-tag switches.
fn unsupported_markers(source: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for written in ["{%+", "+%}", "{#+", "+#}"] {
        found.extend(source.match_indices(written).map(|(at, _)| (at, written)));
    }
    found.sort_unstable();
    found
}

/// Template `t`'s layer name and the note on it, when it has one and is not too large to
/// import; else why not, pushed to `problems`.
fn importable(
    t: &Template,
    named: Result<(String, Option<String>), String>,
    problems: &mut Vec<Problem>,
) -> Option<(String, Option<String>)> {
    let refused = match named {
        Err(message) => message,
        Ok(_) if t.source.len() > MAX_TEMPLATE_BYTES => format!(
            "the template has {} bytes; at most {MAX_TEMPLATE_BYTES} are imported",
            t.source.len()
        ),
        Ok(named) => return Some(named),
    };
    problems.extend(located(&t.name, &t.source, vec![(0, refused)]));
    None
}

/// The most problems listed per template; the rest are counted in one more line. A
/// template of thousands of unsupported tags is not one to fix line by line.
pub const MAX_PROBLEMS: usize = 100;

/// `found` in template order, each at its 1-based line and column (in characters), the
/// first [`MAX_PROBLEMS`] of them and a count of the rest.
fn located(template: &str, source: &str, mut found: Vec<(usize, String)>) -> Vec<Problem> {
    found.sort_by_key(|(offset, _)| *offset);
    let rest = found.len().saturating_sub(MAX_PROBLEMS);
    found.truncate(MAX_PROBLEMS);
    if rest > 0 {
        let last = found.last().map_or(0, |(offset, _)| *offset);
        found.push((
            last,
            format!("and {rest} more things not imported after this one"),
        ));
    }
    // One walk through the text for all of them, in order.
    let (mut line, mut line_start, mut scanned) = (1, 0, 0);
    found
        .into_iter()
        .map(|(offset, message)| {
            let mut offset = offset.min(source.len());
            while !source.is_char_boundary(offset) {
                offset -= 1;
            }
            for (i, b) in source.as_bytes()[scanned..offset.max(scanned)]
                .iter()
                .enumerate()
            {
                if *b == b'\n' {
                    line += 1;
                    line_start = scanned + i + 1;
                }
            }
            scanned = scanned.max(offset);
            let col = source[line_start..offset.max(line_start)].chars().count() + 1;
            Problem {
                template: template.to_string(),
                line,
                col,
                message,
            }
        })
        .collect()
}

#[cfg(all(test, feature = "jinja"))]
mod tests {
    use super::*;

    /// The limit is minijinja's own: a syntax error at the end of a line one character
    /// longer than the longest read overflows its column (with overflow checks on, as in
    /// a debug build).
    #[test]
    fn the_line_limit_is_where_minijinjas_column_overflows() {
        // An unclosed comment: the lexer reports it at the end, its column `chars`.
        let line = |chars: usize| "x".repeat(chars - 2) + "{#";
        let parses = |source: String| {
            std::panic::catch_unwind(move || machinery::parse(&source, "t", syntax()).is_err())
        };
        assert_eq!(parses(line(MAX_LINE_CHARS - 1)).ok(), Some(true));
        if cfg!(debug_assertions) {
            assert!(
                parses(line(MAX_LINE_CHARS)).is_err(),
                "minijinja no longer overflows"
            );
        }
        assert_eq!(overlong_line(&(line(MAX_LINE_CHARS - 1) + "\n")), None);
        assert_eq!(
            overlong_line(&format!("a\n{}", line(MAX_LINE_CHARS))),
            Some(2)
        );
    }
}
