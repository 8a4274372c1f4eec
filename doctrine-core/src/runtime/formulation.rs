//! How a model family likes sections delimited. A formulation changes only the delimiters
//! around a titled layer, never a word of the layer: there is no way to express "add a
//! sentence for this family" here, and that is the point.

use std::fmt;
use std::str::FromStr;

use super::choice::{Choice, ParseChoiceError};

/// Section delimiters for a model family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Formulation {
    /// `## Title` before the section.
    #[default]
    Markdown,
    /// `<snake_case_title>` … `</snake_case_title>` around the section.
    Tagged,
    /// No headings at all.
    Bare,
}

impl Formulation {
    pub const fn as_str(self) -> &'static str {
        match self {
            Formulation::Markdown => "markdown",
            Formulation::Tagged => "tagged",
            Formulation::Bare => "bare",
        }
    }
}

impl Choice for Formulation {
    const KIND: &'static str = "formulation";
    const ALL: &'static [Self] = &[
        Formulation::Markdown,
        Formulation::Tagged,
        Formulation::Bare,
    ];
    const NAMES: &'static [&'static str] = &["markdown", "tagged", "bare"];
    fn as_str(self) -> &'static str {
        Formulation::as_str(self)
    }
}

impl FromStr for Formulation {
    type Err = ParseChoiceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        <Self as Choice>::parse(s)
    }
}

impl fmt::Display for Formulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A layer's title, with its delimiters precomputed at compile time for every formulation.
#[derive(Debug, PartialEq, Eq)]
pub struct Title {
    pub text: &'static str,
    /// `## Title\n\n`
    pub heading: &'static str,
    /// `<title>\n`
    pub open: &'static str,
    /// `\n</title>`
    pub close: &'static str,
}

impl Title {
    /// What goes before and after the section's text.
    #[inline]
    pub fn delimiters(&self, formulation: Formulation) -> (&'static str, &'static str) {
        match formulation {
            Formulation::Markdown => (self.heading, ""),
            Formulation::Tagged => (self.open, self.close),
            Formulation::Bare => ("", ""),
        }
    }
}

/// The formulation for a model family: the longest matching prefix in `families`, else
/// `default`. Generated `formulation_for` calls this with the manifest's table.
pub fn for_family(
    family: &str,
    families: &[(&str, Formulation)],
    default: Formulation,
) -> Formulation {
    families
        .iter()
        .filter(|(prefix, _)| family.starts_with(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map_or(default, |(_, f)| *f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_prefix_wins_and_unknown_gets_the_default() {
        let table = [
            ("claude", Formulation::Tagged),
            ("claude-instant", Formulation::Bare),
        ];
        assert_eq!(
            for_family("claude-3-opus", &table, Formulation::Markdown),
            Formulation::Tagged
        );
        assert_eq!(
            for_family("claude-instant-1", &table, Formulation::Markdown),
            Formulation::Bare
        );
        assert_eq!(
            for_family("gpt-4o", &table, Formulation::Markdown),
            Formulation::Markdown
        );
        assert_eq!("tagged".parse::<Formulation>(), Ok(Formulation::Tagged));
    }
}
