//! TOML frontmatter, read with the `toml` crate's spanned document.
//!
//! Nesting past [`MAX_DEPTH`] is refused before the crate builds its tree (its own limits
//! let tables nest thousands deep, see `toml_depth`). Spans let us keep numbers, booleans
//! and dates as written (`0x1F`, `1.10`, `1e3`), not as the crate would print them again.

use toml::de::{DeTable, DeValue};

use super::toml_depth::{too_deep, MAX_DEPTH};
use super::FrontmatterError;
use super::{error, not_list, not_scalar, Collector, Field, Key, Value};

/// The fields of `schema` in `matter`, the TOML between the fences (which starts on the
/// file's line 2): one per key, `None` when not given.
pub(crate) fn fields(matter: &str, schema: &[Key]) -> Result<Vec<Option<Field>>, FrontmatterError> {
    // Before the tree is built: deep enough nesting overflows the stack (see `toml_depth`).
    if let Some(span) = too_deep(matter) {
        return Err(error(
            position(matter, span.start),
            format!("frontmatter nests deeper than {MAX_DEPTH} levels"),
        ));
    }
    let table = DeTable::parse(matter).map_err(|e| {
        error(
            position(matter, e.span().map_or(0, |s| s.start)),
            format!("frontmatter is not valid TOML: {}", e.message().trim_end()),
        )
    })?;
    let mut found = Collector::new(schema);
    for (key, value) in table.get_ref() {
        let Some(slot) = found.slot(key.get_ref()) else {
            continue;
        };
        let span = value.span();
        // Problems with a field are reported at its key, as for YAML.
        let at = position(matter, key.span().start);
        let scalar = |v: &DeValue<'_>, span: std::ops::Range<usize>| match v {
            // Quotes removed and escapes resolved, like a quoted YAML scalar.
            DeValue::String(s) => Some(s.to_string()),
            DeValue::Integer(i) => Some(as_written(matter, span, i)),
            DeValue::Float(f) => Some(as_written(matter, span, f)),
            DeValue::Boolean(b) => Some(as_written(matter, span, b)),
            DeValue::Datetime(d) => Some(as_written(matter, span, d)),
            DeValue::Array(_) | DeValue::Table(_) => None,
        };
        let value = match (value.get_ref(), schema[slot].list) {
            (DeValue::Array(items), true) => Value::List(
                items
                    .iter()
                    .map(|i| scalar(i.get_ref(), i.span()))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| not_list(key.get_ref(), at))?,
            ),
            (v, list) => match (scalar(v, span), list) {
                (Some(t), true) => Value::List(vec![t]),
                (Some(t), false) => Value::Text(t),
                (None, true) => return Err(not_list(key.get_ref(), at)),
                (None, false) => return Err(not_scalar(key.get_ref(), at)),
            },
        };
        found.set(slot, key.get_ref(), Some(value), at)?;
    }
    Ok(found.values)
}

/// The value's text in the source; the crate's own rendering should its span ever not
/// fall on the source's character boundaries.
fn as_written(matter: &str, span: std::ops::Range<usize>, value: impl std::fmt::Display) -> String {
    matter
        .get(span)
        .map_or_else(|| value.to_string(), str::to_string)
}

/// The file's 1-based line and column (in characters) of byte `offset` of `matter`.
fn position(matter: &str, offset: usize) -> (usize, usize) {
    let before = matter.get(..offset).unwrap_or(matter);
    let line_start = before.rfind('\n').map_or(0, |nl| nl + 1);
    // +1 for the opening fence line.
    (
        before.matches('\n').count() + 2,
        before[line_start..].chars().count() + 1,
    )
}
