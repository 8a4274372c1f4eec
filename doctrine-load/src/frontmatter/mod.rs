//! The fields of a frontmatter block that a schema names (provenance: three scalars; a
//! skill: its name, when-to-use line and triggers), read with bounded nesting.
//!
//! Only the named top-level fields are kept, so neither reader keeps more of the document
//! than it needs: YAML is read as a stream of parser events with our own depth limit and
//! aliases never expanded; TOML through the `toml` crate, after our own depth check.

pub mod skill;
pub(crate) mod toml;
pub mod toml_depth;
pub mod yaml;

/// A top-level key to read: its spellings (one field), and whether its value is a list of
/// single values (a YAML sequence, a TOML array; one value alone is a list of one).
pub struct Key {
    pub names: &'static [&'static str],
    pub list: bool,
}

/// A field as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Text(String),
    List(Vec<String>),
}

/// A field as read, and the file's 1-based line and column of its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub value: Value,
    pub at: (usize, usize),
}

/// The provenance fields.
pub const PROVENANCE: &[Key] = &[
    Key {
        names: &["source"],
        list: false,
    },
    Key {
        names: &["version"],
        list: false,
    },
    Key {
        names: &["licence", "license"],
        list: false,
    },
];

/// Collects the fields of a schema, refusing one given twice (`licence` and `license` are
/// one field) so that no value is silently dropped.
struct Collector<'s> {
    schema: &'s [Key],
    /// One per key; `None`: not given, or given as null.
    values: Vec<Option<Field>>,
    /// Which fields were given (a null counts), for the "given twice" error.
    seen: Vec<bool>,
}

impl<'s> Collector<'s> {
    fn new(schema: &'s [Key]) -> Self {
        Collector {
            schema,
            values: vec![None; schema.len()],
            seen: vec![false; schema.len()],
        }
    }

    /// The slot `key` fills, if the schema reads it.
    fn slot(&self, key: &str) -> Option<usize> {
        self.schema.iter().position(|k| k.names.contains(&key))
    }

    /// Records `value` (None: given as null) for key `key` of slot `slot`.
    fn set(
        &mut self,
        slot: usize,
        key: &str,
        value: Option<Value>,
        at: (usize, usize),
    ) -> Result<(), FrontmatterError> {
        if std::mem::replace(&mut self.seen[slot], true) {
            let names = self.schema[slot].names;
            let what = match names {
                [_, _, ..] => format!("a {} (`{}` are one field)", names[0], names.join("` and `")),
                _ => format!("`{key}`"),
            };
            return Err(error(at, format!("frontmatter gives {what} twice")));
        }
        self.values[slot] = value.map(|value| Field { value, at });
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
        format!("frontmatter field `{key}` must be a single value (text or number)"),
    )
}

fn not_list(key: &str, at: (usize, usize)) -> FrontmatterError {
    error(
        at,
        format!("frontmatter field `{key}` must be a list of single values (or one value)"),
    )
}

/// A problem in a file's frontmatter, at the file's 1-based line and column (in
/// characters; 1 where only the line is known).
#[derive(Debug, PartialEq, Eq)]
// Public through the generator (its `strip_frontmatter` returns it).
pub struct FrontmatterError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The body after any frontmatter, and the fields of `schema` it held (one per key,
/// `None` when not given), read as the generator's `strip_frontmatter` reads provenance.
pub fn read<'t>(
    text: &'t str,
    schema: &[Key],
) -> Result<(&'t str, Vec<Option<Field>>), FrontmatterError> {
    // A fence line is `---` (or `+++`), trailing spaces and tabs allowed.
    let is_fence = |line: &str, fence: &str| line.trim_end_matches(['\n', ' ', '\t']) == fence;
    let first = text.split_inclusive('\n').next().unwrap_or("");
    let fence = if first.ends_with('\n') && is_fence(first, "---") {
        "---"
    } else if first.ends_with('\n') && is_fence(first, "+++") {
        "+++"
    } else {
        return Ok((text, vec![None; schema.len()]));
    };
    let after_open = &text[first.len()..];
    let mut offset = 0;
    for line in after_open.split_inclusive('\n') {
        if is_fence(line, fence) {
            let matter = &after_open[..offset];
            let body = &after_open[offset + line.len()..];
            let fields = if fence == "---" {
                yaml::fields(matter, schema)?
            } else {
                toml::fields(matter, schema)?
            };
            return Ok((body, fields));
        }
        offset += line.len();
    }
    Err(FrontmatterError {
        line: 1,
        column: 1,
        message: format!("frontmatter opened with `{fence}` on line 1 is never closed"),
    })
}
