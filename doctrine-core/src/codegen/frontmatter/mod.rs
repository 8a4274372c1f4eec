//! The provenance fields of a frontmatter block, read with bounded nesting.
//!
//! Only three top-level scalars are kept, so neither reader keeps more of the document
//! than it needs: YAML is read as a stream of parser events with our own depth limit and
//! aliases never expanded; TOML through the `toml` crate, after our own depth check.

pub(super) mod toml;
pub(super) mod yaml;

use super::text::{Fields, FrontmatterError};

/// Collects the provenance fields, refusing one given twice (`licence` and `license` are
/// one field) so that no value is silently dropped.
#[derive(Default)]
struct Collector {
    fields: Fields,
    /// Which fields were given (a null counts), for the "given twice" error.
    seen: [bool; 3],
}

impl Collector {
    /// The slot `key` fills, if it is a provenance key.
    fn slot(key: &str) -> Option<usize> {
        match key {
            "source" => Some(0),
            "version" => Some(1),
            "licence" | "license" => Some(2),
            _ => None,
        }
    }

    /// Records `value` (None: given as null) for the provenance key `key`.
    fn set(
        &mut self,
        slot: usize,
        key: &str,
        value: Option<String>,
        at: (usize, usize),
    ) -> Result<(), FrontmatterError> {
        if std::mem::replace(&mut self.seen[slot], true) {
            let what = if slot == 2 {
                "a licence (`licence` and `license` are one field)".to_string()
            } else {
                format!("`{key}`")
            };
            return Err(error(at, format!("frontmatter gives {what} twice")));
        }
        let field = match slot {
            0 => &mut self.fields.source,
            1 => &mut self.fields.version,
            _ => &mut self.fields.licence,
        };
        *field = value;
        Ok(())
    }
}

fn error((line, column): (usize, usize), message: String) -> FrontmatterError {
    FrontmatterError {
        line,
        column,
        message,
    }
}

fn not_scalar(key: &str, at: (usize, usize)) -> FrontmatterError {
    error(
        at,
        format!("frontmatter field `{key}` must be a single value (text or number), to be kept as provenance"),
    )
}
