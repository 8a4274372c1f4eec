//! The human-readable layer table behind `Prompt::explain()`.

use crate::runtime::shown::Shown;
use std::fmt;

use super::blocks::Blocks;
use super::boundary::Escape;
use super::layer::{Origin, Stability};
use super::list::ListCut;
use super::model::ModelMatch;
use super::sanitize::Cleaned;
use super::section::{Mark, Section, SectionState};
use super::user_content::UserContent;

/// Displays one row per layer of a composed prompt.
#[derive(Clone, Copy, Debug)]
pub struct Explain<'a> {
    sections: &'a [Section],
    text: &'a str,
    marks: &'a [Mark],
    user: &'a [UserContent],
    escapes: &'a [Escape],
    cleaned: &'a [Cleaned],
    stable: usize,
    volatile: usize,
    /// The `[models]` rule the prompt was composed under, for a `model:` line.
    model: Option<&'a ModelMatch>,
    /// The list facts and instructions layers their byte budget cut, a line each.
    cuts: &'a [ListCut],
    /// What run-time text left open inside a container, listed under its layer.
    unclosed: &'a [super::unclosed::Unclosed],
    /// The encoding the tokens column counts in; without one it is bytes / 4.
    #[cfg(feature = "tokens")]
    encoding: Option<crate::tokens::Encoding>,
}

/// Approximate tokens for `bytes` of prompt text: bytes / 4, rounded up. A rough rule for
/// English prose; a model's tokenizer gives the real count.
pub fn approx_tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

impl<'a> Explain<'a> {
    pub(crate) fn new(
        sections: &'a [Section],
        text: &'a str,
        (marks, user, escapes, cleaned): (
            &'a [Mark],
            &'a [UserContent],
            &'a [Escape],
            &'a [Cleaned],
        ),
        (stable, volatile): (usize, usize),
    ) -> Self {
        Explain {
            sections,
            text,
            marks,
            user,
            escapes,
            cleaned,
            stable,
            volatile,
            model: None,
            cuts: &[],
            unclosed: &[],
            #[cfg(feature = "tokens")]
            encoding: None,
        }
    }

    pub(crate) fn model(self, model: Option<&'a ModelMatch>) -> Self {
        Explain { model, ..self }
    }

    pub(crate) fn cuts(self, cuts: &'a [ListCut]) -> Self {
        Explain { cuts, ..self }
    }

    pub(crate) fn unclosed(self, unclosed: &'a [super::unclosed::Unclosed]) -> Self {
        Explain { unclosed, ..self }
    }

    /// The same table with exact token counts in `encoding` (feature `tokens`): the
    /// `~tokens` column becomes `tokens`, each layer's text counted on its own, and the
    /// closing line counts the stable prefix and the volatile suffix whole and names the
    /// encoding. `explain()` alone prints the bytes / 4 estimate.
    #[cfg(feature = "tokens")]
    pub fn tokens(self, encoding: crate::tokens::Encoding) -> Self {
        Explain {
            encoding: Some(encoding),
            ..self
        }
    }

    /// The rows' records: one section per layer, in manifest order.
    pub fn sections(&self) -> &'a [Section] {
        self.sections
    }
}

fn status(section: &Section) -> (usize, String) {
    match section.state {
        SectionState::Included { start, end } => (end - start, "included".to_string()),
        SectionState::Skipped(skip) => (0, format!("skipped: {skip}")),
    }
}

/// The `guard` cell: `locked`, `user` (the layer can carry user-file content), or nothing.
fn guard(section: &Section) -> &'static str {
    match (section.info.locked, section.info.user) {
        (true, _) => "locked",
        (false, true) => "user",
        (false, false) => "",
    }
}

/// A closing line when text a user's file supplied comes before a locked layer in this
/// prompt: legitimate (the author chose the order), never invisible.
fn user_before_locked(sections: &[Section], user: &[UserContent]) -> Option<String> {
    let first = user.first()?;
    let locked: Vec<String> = sections
        .iter()
        .filter(|s| s.info.locked)
        .filter(
            |s| matches!(s.state, SectionState::Included { start, .. } if start >= first.range.end),
        )
        .map(|s| format!("`{}`", s.info.name))
        .collect();
    (!locked.is_empty()).then(|| {
        format!(
            "user-file text (from layer `{}`) comes before locked layer{} {}",
            first.layer,
            if locked.len() > 1 { "s" } else { "" },
            locked.join(", ")
        )
    })
}

/// A closing line with each block's size, for a manifest that declares its tiers (one
/// whose layers all sit in the default `stable`/`volatile` pair gets none, so its table
/// reads as it always did).
fn blocks_line(e: &Explain<'_>) -> Option<String> {
    let default = |s: &Section| match s.info.stability {
        Stability::Stable => (s.info.tier_name, s.info.tier_index) == ("stable", 0),
        Stability::Volatile => (s.info.tier_name, s.info.tier_index) == ("volatile", 1),
    };
    if e.sections.iter().all(default) {
        return None;
    }
    let (tilde, _) = e.counted();
    let blocks: Vec<String> = Blocks::new(e.text, e.sections)
        .map(|b| {
            let mark = if b.breakpoint { ", breakpoint" } else { "" };
            let bytes = b.text.len();
            format!(
                "{} {bytes} bytes ({tilde}{} tokens{mark})",
                b.tier,
                e.count(b.text)
            )
        })
        .collect();
    Some(format!("blocks: {}", blocks.join("; ")))
}

fn provenance(origin: &Origin) -> String {
    match origin {
        Origin::File(src) | Origin::OverlayAppended(Some(src), _) if !src.provenance.is_empty() => {
            src.provenance.to_string()
        }
        _ => String::new(),
    }
}

/// The table's columns; `guard` is left out when no layer is locked or can carry user-file
/// content, so a plain manifest's table stays as narrow as it was.
const HEADER: [&str; 9] = [
    "#",
    "layer",
    "tier",
    "guard",
    "bytes",
    "~tokens",
    "status",
    "source",
    "provenance",
];

/// The tokens column's index in [`HEADER`].
#[cfg(feature = "tokens")]
const TOKENS: usize = 5;

/// Numbers are right-aligned, text left-aligned.
fn right_aligned(column: &str) -> bool {
    matches!(column, "#" | "bytes" | "~tokens" | "tokens")
}

impl Explain<'_> {
    /// The tokens in `text`: exact in the chosen encoding, else bytes / 4.
    fn count(&self, text: &str) -> usize {
        #[cfg(feature = "tokens")]
        if let Some(encoding) = self.encoding {
            return encoding.count(text);
        }
        approx_tokens(text.len())
    }

    /// The header, with the tokens column named for what it holds.
    fn header(&self) -> [&'static str; 9] {
        #[cfg(feature = "tokens")]
        if self.encoding.is_some() {
            let mut header = HEADER;
            header[TOKENS] = "tokens";
            return header;
        }
        HEADER
    }

    /// The closing line's totals: both parts' bytes and tokens, and how tokens were counted.
    fn totals(&self) -> String {
        let stable = &self.text[..self.stable];
        let volatile = &self.text[self.text.len() - self.volatile..];
        let (tilde, how) = self.counted();
        format!(
            "stable {} bytes ({tilde}{} tokens), volatile {} bytes ({tilde}{} tokens); {how}",
            self.stable,
            self.count(stable),
            self.volatile,
            self.count(volatile)
        )
    }

    fn counted(&self) -> (&'static str, String) {
        #[cfg(feature = "tokens")]
        if let Some(encoding) = self.encoding {
            return ("", format!("tokens in {encoding}"));
        }
        ("~", "~tokens = bytes / 4, approximate".to_string())
    }

    fn rows(&self) -> Vec<[String; 9]> {
        self.sections
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (bytes, status) = status(s);
                let tokens = match s.state {
                    SectionState::Included { start, end } => self.count(&self.text[start..end]),
                    SectionState::Skipped(_) => 0,
                };
                [
                    (i + 1).to_string(),
                    s.info.name.to_string(),
                    s.info.tier_name.to_string(),
                    guard(s).to_string(),
                    bytes.to_string(),
                    tokens.to_string(),
                    status,
                    s.origin.to_string(),
                    provenance(&s.origin),
                ]
            })
            .collect()
    }

    /// The lines under row `i`: the manifest's note on the layer, each instruction's
    /// provenance line as written in the prompt, each stretch of user content with where
    /// it came from, and each section boundary escaped in its run-time text.
    fn notes(&self, i: usize) -> Vec<String> {
        let marks = self.marks.iter().filter(|m| m.section == i);
        let info = &self.sections[i].info;
        let (name, note) = (info.name, info.note.map(|n| format!("note: {n}")));
        let user = self.user.iter().filter(|u| u.layer == name);
        let escapes = self.escapes.iter().filter(|e| e.layer == name);
        let unclosed = self.unclosed.iter().filter(|u| u.layer == name);
        note.into_iter()
            .chain(marks.map(|m| self.text[m.start..m.end].to_string()))
            .chain(user.map(|u| {
                format!(
                    "user content, {} bytes at {}..{}: {}",
                    u.range.len(),
                    u.range.start,
                    u.range.end,
                    u.source
                )
            }))
            .chain(escapes.map(|e| {
                let shown = &self.text[e.boundary.clone()];
                format!(
                    "escaped boundary at {}: `{}` from {}",
                    e.at,
                    Shown(shown),
                    e.source
                )
            }))
            .chain(unclosed.map(|u| {
                format!(
                    "closed {} that {} left open, with `{}` at {}",
                    u.what,
                    u.source,
                    Shown(&self.text[u.range.clone()]),
                    u.range.start
                )
            }))
            .collect()
    }
}

impl fmt::Display for Explain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.rows();
        let header = self.header();
        let shown: Vec<usize> = (0..header.len())
            .filter(|&c| header[c] != "guard" || rows.iter().any(|r| !r[c].is_empty()))
            .collect();
        let mut widths = header.map(str::len);
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let line = |f: &mut fmt::Formatter<'_>, cells: [&str; 9]| -> fmt::Result {
            let mut out = String::new();
            for &c in &shown {
                let (cell, w) = (cells[c], widths[c]);
                match right_aligned(header[c]) {
                    true => out.push_str(&format!("{cell:>w$}  ")),
                    false => out.push_str(&format!("{cell:<w$}  ")),
                }
            }
            // No trailing spaces.
            writeln!(f, "{}", out.trim_end())
        };
        line(f, header)?;
        for (i, row) in rows.iter().enumerate() {
            line(f, row.each_ref().map(String::as_str))?;
            for note in self.notes(i) {
                writeln!(f, "{:>w$}  ↳ {note}", "", w = widths[0])?;
            }
        }
        if let Some(note) = user_before_locked(self.sections, self.user) {
            writeln!(f, "{note}")?;
        }
        if !self.escapes.is_empty() {
            let n = self.escapes.len();
            let s = if n == 1 { "y" } else { "ies" };
            writeln!(f, "{n} section boundar{s} in run-time text escaped")?;
        }
        if !self.cleaned.is_empty() {
            let n = self.cleaned.len();
            let s = if n == 1 { "" } else { "s" };
            let total = self
                .cleaned
                .iter()
                .fold(Default::default(), |all, c| c.removed.and(all));
            writeln!(f, "{n} value{s} from outside sanitized: {total}")?;
        }
        for cut in self.cuts {
            writeln!(f, "{cut}")?;
        }
        if let Some(model) = self.model {
            writeln!(f, "model: {model}")?;
        }
        if let Some(line) = blocks_line(self) {
            writeln!(f, "{line}")?;
        }
        writeln!(f, "{}", self.totals())
    }
}
