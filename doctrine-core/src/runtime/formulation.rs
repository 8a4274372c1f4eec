//! How a model family likes sections delimited. A formulation changes only the delimiters
//! around a titled layer, never a word of the layer: there is no way to express "add a
//! sentence for this family" here, and that is the point.

use std::fmt;
use std::str::FromStr;

use super::choice::{Choice, ParseChoiceError};
use super::emit::rebuilt;

/// Section delimiters for a model family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    /// `"markdown"`, `"tagged"` or `"bare"`, as in the manifest.
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

rebuilt! {
@new
/// A layer's title, with its delimiters precomputed at compile time for every formulation.
#[derive(Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Title {
    /// The title as the manifest writes it.
    pub text: &'static str,
    /// `## Title\n\n`
    pub heading: &'static str,
    /// `<title>\n`
    pub open: &'static str,
    /// `\n</title>`
    pub close: &'static str,
    /// The tag's name, folded as the guard folds names: in the tagged formulation the
    /// title's tags are a container whose closing tag run-time text inside may not write.
    pub tag: &'static str,
}
}

impl Title {
    /// A title and its delimiters. Used by generated code.
    #[doc(hidden)]
    pub const fn new(
        text: &'static str,
        heading: &'static str,
        open: &'static str,
        close: &'static str,
    ) -> Self {
        Title {
            text,
            heading,
            open,
            close,
            tag: "",
        }
    }

    /// The same title, its tag's name folded as `tag`.
    #[doc(hidden)]
    pub const fn folded(mut self, tag: &'static str) -> Self {
        self.tag = tag;
        self
    }

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

/// The formulation for a model family: the longest key of `families` that is a prefix of
/// it (or, with `exact`, the key equal to it), else `default`. The family is trimmed and
/// compared ignoring ASCII case; the manifest's keys are lowercase. Generated
/// `formulation_for` calls this with the manifest's table.
pub fn for_family(
    family: &str,
    families: &[(&str, Formulation)],
    default: Formulation,
    exact: bool,
) -> Formulation {
    family_key(family, families, exact).map_or(default, |(_, f)| f)
}

/// The entry of `families` that [`for_family`] picks for `family`, if one matches: a tool
/// that must tell a family the table names from one that falls back to the default.
pub fn family_key<'t>(
    family: &str,
    families: &[(&'t str, Formulation)],
    exact: bool,
) -> Option<(&'t str, Formulation)> {
    super::model::best_match(family, families, |(key, _)| key, exact).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: [(&str, Formulation); 2] = [
        ("claude", Formulation::Tagged),
        ("claude-instant", Formulation::Bare),
    ];

    #[test]
    fn longest_prefix_wins_and_unknown_gets_the_default() {
        let prefix = |family| for_family(family, &TABLE, Formulation::Markdown, false);
        assert_eq!(prefix("claude-3-opus"), Formulation::Tagged);
        assert_eq!(prefix("claude-instant-1"), Formulation::Bare);
        assert_eq!(prefix("gpt-4o"), Formulation::Markdown);
        // Trimmed, ASCII case ignored.
        assert_eq!(prefix("  Claude-Instant-1\n"), Formulation::Bare);
        assert_eq!(prefix("CLAUDE"), Formulation::Tagged);
        // A multi-byte character where a key would end does not panic.
        assert_eq!(prefix("claudé"), Formulation::Markdown);
        assert_eq!(prefix(""), Formulation::Markdown);
    }

    #[test]
    fn exact_matching_takes_only_the_whole_name() {
        let exact = |family| for_family(family, &TABLE, Formulation::Markdown, true);
        assert_eq!(exact("claude"), Formulation::Tagged);
        assert_eq!(exact(" Claude-Instant "), Formulation::Bare);
        assert_eq!(exact("claude-3-opus"), Formulation::Markdown);
        assert_eq!("tagged".parse::<Formulation>(), Ok(Formulation::Tagged));
    }
}
