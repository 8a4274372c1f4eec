//! Compile-time text normalisation: BOM, line endings, frontmatter, trimming.
//!
//! Everything here runs inside the macro, so the embedded bytes are the same on every
//! platform whatever the checkout's line endings.

use yaml_rust2::{Yaml, YamlLoader};

pub use crate::runtime::text::normalise;

/// Frontmatter fields kept as provenance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fields {
    pub source: Option<String>,
    pub version: Option<String>,
    pub licence: Option<String>,
}

/// A problem in a file's frontmatter, with the 1-based line it was found on.
#[derive(Debug, PartialEq, Eq)]
pub struct FrontmatterError {
    pub line: usize,
    pub message: String,
}

/// The body after any YAML (`---`) or TOML (`+++`) frontmatter, and the fields it held.
///
/// The opening fence must be the file's first line and the closing fence a line of its
/// own; the body is every byte after the closing fence's newline, so nothing else in the
/// file moves. (We split here rather than with a frontmatter crate because the ones we
/// tried rebuild the body line by line, losing the final newline and leading blank lines,
/// which breaks byte-for-byte reproduction; the fields themselves are parsed by
/// `yaml-rust2` and `toml`.)
pub fn strip_frontmatter(text: &str) -> Result<(&str, Fields), FrontmatterError> {
    // A fence line is `---` (or `+++`), trailing spaces and tabs allowed.
    let is_fence = |line: &str, fence: &str| line.trim_end_matches(['\n', ' ', '\t']) == fence;
    let first = text.split_inclusive('\n').next().unwrap_or("");
    let fence = if first.ends_with('\n') && is_fence(first, "---") {
        "---"
    } else if first.ends_with('\n') && is_fence(first, "+++") {
        "+++"
    } else {
        return Ok((text, Fields::default()));
    };
    let after_open = &text[first.len()..];
    let mut offset = 0;
    for line in after_open.split_inclusive('\n') {
        if is_fence(line, fence) {
            let matter = &after_open[..offset];
            let body = &after_open[offset + line.len()..];
            let fields = if fence == "---" {
                yaml_fields(matter)?
            } else {
                toml_fields(matter)?
            };
            return Ok((body, fields));
        }
        offset += line.len();
    }
    Err(FrontmatterError {
        line: 1,
        message: format!("frontmatter opened with `{fence}` on line 1 is never closed"),
    })
}

fn not_scalar(key: &str) -> FrontmatterError {
    FrontmatterError {
        line: 2,
        message: format!("frontmatter field `{key}` must be a single value (text or number), to be kept as provenance"),
    }
}

fn yaml_fields(matter: &str) -> Result<Fields, FrontmatterError> {
    let docs = YamlLoader::load_from_str(matter).map_err(|e| FrontmatterError {
        // +1 for the opening fence line; yaml-rust2 counts lines from 1.
        line: e.marker().line() + 1,
        message: format!("frontmatter is not valid YAML: {}", e.info()),
    })?;
    let Some(doc) = docs.into_iter().next() else {
        return Ok(Fields::default());
    };
    let Yaml::Hash(map) = doc else {
        return Err(FrontmatterError {
            line: 2,
            message: "frontmatter must be a YAML mapping of `key: value` lines".into(),
        });
    };
    // Provenance fields are scalars; anything else is refused rather than dropped.
    let get = |key: &str| -> Result<Option<String>, FrontmatterError> {
        match map.get(&Yaml::String(key.into())) {
            None | Some(Yaml::Null) => Ok(None),
            Some(Yaml::String(s) | Yaml::Real(s)) => Ok(Some(s.clone())),
            Some(Yaml::Integer(i)) => Ok(Some(i.to_string())),
            Some(Yaml::Boolean(b)) => Ok(Some(b.to_string())),
            Some(_) => Err(not_scalar(key)),
        }
    };
    Ok(Fields {
        source: get("source")?,
        version: get("version")?,
        licence: get("licence")?.or(get("license")?),
    })
}

fn toml_fields(matter: &str) -> Result<Fields, FrontmatterError> {
    let table: toml::Table = toml::from_str(matter).map_err(|e| FrontmatterError {
        line: 2 + e
            .span()
            .map_or(0, |s| matter[..s.start].matches('\n').count()),
        message: format!("frontmatter is not valid TOML: {}", e.message()),
    })?;
    let get = |key: &str| -> Result<Option<String>, FrontmatterError> {
        match table.get(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(s.clone())),
            Some(
                v @ (toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_)),
            ) => Ok(Some(v.to_string())),
            Some(_) => Err(not_scalar(key)),
        }
    };
    Ok(Fields {
        source: get("source")?,
        version: get("version")?,
        licence: get("licence")?.or(get("license")?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_bom_and_crlf() {
        assert_eq!(normalise("\u{feff}a\r\nb\r\n"), "a\nb\n");
        assert_eq!(normalise("a\rb"), "a\rb");
    }

    #[test]
    fn strips_yaml_frontmatter_exactly() {
        let (body, fields) =
            strip_frontmatter("---\nsource: x\nversion: 0.18.0\nlicense: MIT\n---\n\n# T\n")
                .unwrap();
        assert_eq!(body, "\n# T\n");
        assert_eq!(fields.source.as_deref(), Some("x"));
        assert_eq!(fields.version.as_deref(), Some("0.18.0"));
        assert_eq!(fields.licence.as_deref(), Some("MIT"));
    }

    #[test]
    fn strips_toml_frontmatter() {
        let (body, fields) = strip_frontmatter("+++\nversion = 3\n+++\nbody").unwrap();
        assert_eq!(body, "body");
        assert_eq!(fields.version.as_deref(), Some("3"));
    }

    #[test]
    fn accepts_fences_with_trailing_blanks_and_refuses_list_provenance() {
        let (body, fields) = strip_frontmatter("--- \nversion: 1\n---\t\nbody").unwrap();
        assert_eq!((body, fields.version.as_deref()), ("body", Some("1")));
        let err = strip_frontmatter("---\nsource: [1, 2]\n---\nbody").unwrap_err();
        assert!(
            err.message.contains("`source` must be a single value"),
            "{}",
            err.message
        );
    }

    #[test]
    fn leaves_text_without_frontmatter_alone() {
        let (body, fields) = strip_frontmatter("# T\n---\nx\n").unwrap();
        assert_eq!(body, "# T\n---\nx\n");
        assert_eq!(fields, Fields::default());
    }

    #[test]
    fn reports_unclosed_and_invalid_frontmatter() {
        let err = strip_frontmatter("---\nsource: x\n").unwrap_err();
        assert!(err.message.contains("never closed"), "{}", err.message);
        let err = strip_frontmatter("---\nok: 1\nbad: [\n---\nbody").unwrap_err();
        assert!(err.message.contains("not valid YAML"), "{}", err.message);
        assert!(err.line >= 3, "line {}", err.line);
    }
}
