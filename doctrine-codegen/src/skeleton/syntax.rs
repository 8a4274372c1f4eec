//! A manifest with TOML syntax errors, made readable. Past an error the parser's recovery
//! may drop the rest of the document without a word (a key with no `=` ends it), so each
//! line an error is on is blanked instead (with spaces, so every offset stays) until the
//! text parses, and what that line may have declared counts as reshaped.

use toml::de::DeTable;

use super::shape::reshapes;
use super::tree::{section_at, Step};
use crate::expand::Part;

/// How many lines may be blanked: an array never closed takes line after line, and such a
/// manifest is not read.
const MAX_LINES: usize = 8;

/// `source` with each line a syntax error is on blanked, and the parts those lines may
/// have shaped added to `reshaped`; `None` when it does not parse even so, or a blanked
/// line is a table header (what follows it would land in the table before).
pub(super) fn readable(source: &str, reshaped: &mut Vec<Part>) -> Option<String> {
    let mut text = source.to_string();
    for _ in 0..MAX_LINES {
        let (doc, errors) = DeTable::parse_recoverable(&text);
        if errors.is_empty() {
            return Some(text);
        }
        let at = errors
            .iter()
            .filter_map(|e| e.span())
            .map(|s| s.start)
            .min()
            .filter(|&at| text.is_char_boundary(at))?;
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line = text[start..end].trim_start();
        if line.starts_with('[') {
            return None;
        }
        // The line's key, if it has one, in the table the line is in.
        let key = line.split_once('=').map_or("", |(k, _)| k.trim());
        let key = key.split('.').next().unwrap_or_default().trim_matches('"');
        let mut path = section_at(doc.get_ref(), &text, start);
        path.push(Step::Key(key.to_string()));
        reshaped.extend(reshapes(doc.get_ref(), &path));
        text.replace_range(start..end, &" ".repeat(end - start));
    }
    None
}
