//! The human-readable layer table behind `Prompt::explain()`.

use std::fmt;

use super::blocks::Blocks;
use super::layer::{Origin, Tier};
use super::section::{Mark, Section, SectionState};
use super::user_content::UserContent;

/// Displays one row per layer of a composed prompt.
#[derive(Clone, Copy, Debug)]
pub struct Explain<'a> {
    sections: &'a [Section],
    text: &'a str,
    marks: &'a [Mark],
    user: &'a [UserContent],
    stable: usize,
    volatile: usize,
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
        marks: &'a [Mark],
        user: &'a [UserContent],
        (stable, volatile): (usize, usize),
    ) -> Self {
        Explain {
            sections,
            text,
            marks,
            user,
            stable,
            volatile,
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
fn blocks_line(sections: &[Section], text: &str) -> Option<String> {
    let default = |s: &Section| match s.info.tier {
        Tier::Stable => (s.info.tier_name, s.info.tier_index) == ("stable", 0),
        Tier::Volatile => (s.info.tier_name, s.info.tier_index) == ("volatile", 1),
    };
    if sections.iter().all(default) {
        return None;
    }
    let blocks: Vec<String> = Blocks::new(text, sections)
        .map(|b| {
            let mark = if b.breakpoint { ", breakpoint" } else { "" };
            let bytes = b.text.len();
            format!(
                "{} {bytes} bytes (~{} tokens{mark})",
                b.tier,
                approx_tokens(bytes)
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

/// Numbers are right-aligned, text left-aligned.
fn right_aligned(column: &str) -> bool {
    matches!(column, "#" | "bytes" | "~tokens")
}

impl Explain<'_> {
    fn rows(&self) -> Vec<[String; 9]> {
        self.sections
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (bytes, status) = status(s);
                [
                    (i + 1).to_string(),
                    s.info.name.to_string(),
                    s.info.tier_name.to_string(),
                    guard(s).to_string(),
                    bytes.to_string(),
                    approx_tokens(bytes).to_string(),
                    status,
                    s.origin.to_string(),
                    provenance(&s.origin),
                ]
            })
            .collect()
    }

    /// The lines under row `i`: each instruction's provenance line as written in the
    /// prompt, and each stretch of user content with where it came from.
    fn notes(&self, i: usize) -> Vec<String> {
        let marks = self.marks.iter().filter(|m| m.section == i);
        let name = self.sections[i].info.name;
        let user = self.user.iter().filter(|u| u.layer == name);
        marks
            .map(|m| self.text[m.start..m.end].to_string())
            .chain(user.map(|u| {
                format!(
                    "user content, {} bytes at {}..{}: {}",
                    u.range.len(),
                    u.range.start,
                    u.range.end,
                    u.source
                )
            }))
            .collect()
    }
}

impl fmt::Display for Explain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.rows();
        let shown: Vec<usize> = (0..HEADER.len())
            .filter(|&c| HEADER[c] != "guard" || rows.iter().any(|r| !r[c].is_empty()))
            .collect();
        let mut widths = HEADER.map(str::len);
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let line = |f: &mut fmt::Formatter<'_>, cells: [&str; 9]| -> fmt::Result {
            let mut out = String::new();
            for &c in &shown {
                let (cell, w) = (cells[c], widths[c]);
                match right_aligned(HEADER[c]) {
                    true => out.push_str(&format!("{cell:>w$}  ")),
                    false => out.push_str(&format!("{cell:<w$}  ")),
                }
            }
            // No trailing spaces.
            writeln!(f, "{}", out.trim_end())
        };
        line(f, HEADER)?;
        for (i, row) in rows.iter().enumerate() {
            line(f, row.each_ref().map(String::as_str))?;
            for note in self.notes(i) {
                writeln!(f, "{:>w$}  ↳ {note}", "", w = widths[0])?;
            }
        }
        if let Some(note) = user_before_locked(self.sections, self.user) {
            writeln!(f, "{note}")?;
        }
        if let Some(line) = blocks_line(self.sections, self.text) {
            writeln!(f, "{line}")?;
        }
        writeln!(
            f,
            "stable {} bytes (~{} tokens), volatile {} bytes (~{} tokens); ~tokens = bytes / 4, approximate",
            self.stable,
            approx_tokens(self.stable),
            self.volatile,
            approx_tokens(self.volatile)
        )
    }
}
