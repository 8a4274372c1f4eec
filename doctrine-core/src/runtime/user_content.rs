//! Which bytes of a composed prompt came from a user's files: an overlay, a selector's file,
//! a user skill's index line. The composer records them as it writes, so an agent can log
//! or audit exactly what a user contributed to a prompt ([`Prompt::user_content`]).
//!
//! [`Prompt::user_content`]: crate::Prompt::user_content

use std::fmt;
use std::ops::Range;
use std::path::PathBuf;

/// A stretch of a composed prompt whose bytes a user's file supplied.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UserContent {
    /// Where it sits in [`Prompt::as_str`](crate::Prompt::as_str).
    pub range: Range<usize>,
    /// The layer it is part of (never a locked one).
    pub layer: &'static str,
    /// The file it came from.
    pub source: UserFile,
}

/// The user's file a [`UserContent`] came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UserFile {
    /// The file of this name in the user's overlay directory: an overlay that replaced or
    /// was appended to the shipped text, or a selector layer's user copy (`on`).
    OverlayFile(&'static str),
    /// The file named by path through the selector of this name (its path is in the
    /// selectors' `doctor()` report).
    SelectorPath(&'static str),
    /// A user skill's line of the skill index: the skill's name and its file.
    UserSkill { name: String, file: PathBuf },
}

impl fmt::Display for UserFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UserFile::OverlayFile(file) => write!(f, "overlay file {file}"),
            UserFile::SelectorPath(name) => write!(f, "the file selector `{name}` names"),
            UserFile::UserSkill { name, file } => {
                write!(f, "user skill `{name}` ({})", file.display())
            }
        }
    }
}

/// The skill index as rendered, with the stretches of it that came from user files (its
/// user skills' lines). Used by generated code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    /// Ranges into `text`, in order.
    pub user: Vec<(Range<usize>, UserFile)>,
}

/// A placeholder value's user stretches, for the composer: the index of the value among
/// the template values, and the stretches of it (relative to the value's start).
pub type UserValue<'a> = (usize, &'a [(Range<usize>, UserFile)]);
