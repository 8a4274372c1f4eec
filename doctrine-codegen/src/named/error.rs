//! Why named inputs do not make a composition: each message names what was given and
//! lists what would have been valid, as generated code's own errors do.

use std::fmt;
use std::path::PathBuf;

/// Why [`resolve`](super::resolve) refused the inputs it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputError {
    /// A name not in its set: `kind` says which set (`role`, `flag`, `knob`, `value of knob
    /// \`intensity\``, `choice layer`, `variant of choice \`team\``, `fact`, `slot`,
    /// `family`, `field of list fact \`guides\``, `instructions layer`, `instruction
    /// source`, `selector`, `list fact with a byte budget`), `valid` what it holds.
    Unknown {
        kind: String,
        name: String,
        valid: Vec<String>,
    },
    /// Something compiled code cannot be called without (the role, a required choice's
    /// variant, a required slot) was not given; `valid` lists what may be.
    Missing { kind: String, valid: Vec<String> },
    /// A fact the role requires was not given (generated `FactError::Missing`).
    MissingFact { role: String, fact: String },
    /// A fact the role does not take (generated `FactError::NotTaken`).
    NotTaken {
        role: String,
        fact: String,
        takes: Vec<String>,
    },
    /// The same name given twice where it takes one value.
    Repeated { kind: &'static str, name: String },
    /// Something compiled code takes that cannot be given by name (yet): says what and why.
    Unsupported(String),
    /// A file named for an input could not be read.
    Read {
        what: String,
        path: PathBuf,
        message: String,
    },
}

/// `a, b, c`, or `none` for no names.
fn listed(names: &[String]) -> String {
    match names.is_empty() {
        true => "none".to_string(),
        false => names.join(", "),
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Unknown { kind, name, valid } if valid.is_empty() => {
                write!(f, "unknown {kind}: `{name}` (the manifest has none)")
            }
            InputError::Unknown { kind, name, valid } => {
                write!(f, "unknown {kind}: `{name}`; valid: {}", listed(valid))
            }
            InputError::Missing { kind, valid } if valid.is_empty() => write!(f, "no {kind} given"),
            InputError::Missing { kind, valid } => {
                write!(f, "no {kind} given; valid: {}", listed(valid))
            }
            InputError::MissingFact { role, fact } => write!(f, "`{role}` requires fact `{fact}`"),
            InputError::NotTaken { role, fact, takes } => write!(
                f,
                "`{role}` does not take fact `{fact}`; it takes: {}",
                listed(takes)
            ),
            InputError::Repeated { kind, name } => write!(f, "{kind} `{name}` is given twice"),
            InputError::Unsupported(what) => f.write_str(what),
            InputError::Read {
                what,
                path,
                message,
            } => write!(f, "cannot read {what} from {}: {message}", path.display()),
        }
    }
}

impl std::error::Error for InputError {}

/// The index of `name` among `names`, or an [`InputError::Unknown`] of `kind` listing them.
pub(super) fn find<'n>(
    kind: impl Into<String>,
    name: &str,
    names: impl Iterator<Item = &'n str> + Clone,
) -> Result<usize, InputError> {
    names
        .clone()
        .position(|n| n == name)
        .ok_or_else(|| InputError::Unknown {
            kind: kind.into(),
            name: name.to_string(),
            valid: names.map(str::to_string).collect(),
        })
}
