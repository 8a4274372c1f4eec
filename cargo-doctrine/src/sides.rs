//! The two sides of a comparison (`diff`, `book --diff`/`--rev`), named so a reader tells
//! them apart: both are often `src/doctrine.toml` in their crates, and an old revision's
//! files are named as the working tree's are.

use std::ffi::OsString;

/// How the sides were given: `--rev REV`, or the two manifests as typed.
pub(crate) struct Sides {
    rev: Option<String>,
    given: Vec<String>,
}

impl Sides {
    /// `paths` as given on the command line (OLD, NEW), before they are opened.
    pub(crate) fn new(rev: Option<&str>, paths: &[OsString]) -> Self {
        let given = paths.iter().map(|p| p.to_string_lossy().into_owned());
        Sides {
            rev: rev.map(str::to_string),
            given: given.collect(),
        }
    }

    /// The line heading a side's diagnostics.
    pub(crate) fn heading(&self, old: bool) -> String {
        match (&self.rev, old) {
            (Some(rev), true) => format!(
                "in the OLD side: the crate as git has it at `{rev}` (the files named below \
                 are those of `{rev}`, not of the working tree):"
            ),
            (Some(_), false) => "in the NEW side: the working tree:".to_string(),
            (None, _) => {
                let path = self.given.get(usize::from(!old)).map_or("", String::as_str);
                let side = if old { "OLD" } else { "NEW" };
                format!("in the {side} side, `{path}`:")
            }
        }
    }

    /// The report's names for the sides, from each manifest's name in its crate: the old
    /// one `at REV`, and both as given when they are named alike.
    pub(crate) fn labels(&self, old: String, new: String) -> [String; 2] {
        match &self.rev {
            Some(rev) => [format!("{old} at {rev}"), new],
            None if old == new && self.given.len() == 2 => {
                [self.given[0].clone(), self.given[1].clone()]
            }
            None => [old, new],
        }
    }
}
