//! The human-readable layer table behind `Prompt::explain()`.

use std::fmt;

use super::layer::Origin;
use super::prompt::{Mark, Section, SectionState};

/// Displays one row per layer of a composed prompt.
#[derive(Clone, Copy, Debug)]
pub struct Explain<'a> {
    sections: &'a [Section],
    text: &'a str,
    marks: &'a [Mark],
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
        stable: usize,
        volatile: usize,
    ) -> Self {
        Explain {
            sections,
            text,
            marks,
            stable,
            volatile,
        }
    }

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

fn provenance(origin: &Origin) -> String {
    match origin {
        Origin::File(src) | Origin::OverlayAppended(Some(src), _) if !src.provenance.is_empty() => {
            src.provenance.to_string()
        }
        _ => String::new(),
    }
}

impl fmt::Display for Explain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<[String; 8]> = self
            .sections
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (bytes, status) = status(s);
                [
                    (i + 1).to_string(),
                    s.info.name.to_string(),
                    s.info.tier.to_string(),
                    bytes.to_string(),
                    approx_tokens(bytes).to_string(),
                    status,
                    s.origin.to_string(),
                    provenance(&s.origin),
                ]
            })
            .collect();
        let header = [
            "#",
            "layer",
            "tier",
            "bytes",
            "~tokens",
            "status",
            "source",
            "provenance",
        ];
        let mut widths = header.map(str::len);
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let line = |f: &mut fmt::Formatter<'_>, cells: [&str; 8]| -> fmt::Result {
            let mut out = String::new();
            for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
                // Numbers right-aligned, text left-aligned; no trailing spaces.
                let cell = if i == 0 || i == 3 || i == 4 {
                    format!("{cell:>w$}")
                } else {
                    format!("{cell:<w$}")
                };
                out.push_str(&cell);
                out.push_str("  ");
            }
            writeln!(f, "{}", out.trim_end())
        };
        line(f, header)?;
        for (i, row) in rows.iter().enumerate() {
            line(f, row.each_ref().map(String::as_str))?;
            // Each instruction's provenance line, as written in the prompt.
            for mark in self.marks.iter().filter(|m| m.section == i) {
                writeln!(
                    f,
                    "{:>w$}  ↳ {}",
                    "",
                    &self.text[mark.start..mark.end],
                    w = widths[0]
                )?;
            }
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
