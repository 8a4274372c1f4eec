//! Descriptions from the manifest reference: each key of its two key tables (the top
//! level's, `[[layer]]`'s) is described by its row, as an editor shows it on hover.

use super::{table_at, Json};

/// The reference's key tables (`doctrine/docs/reference.md`), copied beside this file so
/// the published crate carries them: a crate cannot include a file outside it. The root
/// package's tests fail when the copy differs from [`reference_keys`] of the reference.
const REFERENCE_KEYS: &str = include_str!("reference_keys.md");

/// The headings of the reference's key tables, with where their keys are in the schema.
const KEY_TABLES: [(&str, &[&str]); 2] = [
    ("Top-level keys:", &[]),
    ("Layer keys (`[[layer]]`):", &["layer"]),
];

/// A description shorter than this (in bytes) takes the next sentence too.
const SHORT: usize = 40;

/// Gives each key of the reference's key tables its row's description.
pub(super) fn describe(schema: &mut Json) {
    for (heading, place) in KEY_TABLES {
        let properties = table_at(schema, place).and_then(|t| t.get_mut("properties"));
        let Some(properties) = properties else {
            continue;
        };
        for (keys, text) in rows(REFERENCE_KEYS, heading) {
            for key in keys {
                if let Some(property) = properties.get_mut(&key) {
                    property.set_first("description", text.clone().into());
                }
            }
        }
    }
}

/// The reference's key tables as the copy beside this file holds them: each heading, a blank line
/// and its table, under a line saying where they come from.
pub fn reference_keys(reference: &str) -> String {
    let mut out = String::from(
        "<!-- The key tables of doctrine/docs/reference.md, which the manifest's schema takes \
         its descriptions from. Edit that file, then run \
         `DOCTRINE_BLESS=1 cargo test --test it schema`. -->\n",
    );
    for (heading, _) in KEY_TABLES {
        out.push('\n');
        out.push_str(heading);
        out.push_str("\n\n");
        for line in table(reference, heading) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The lines of the table under `heading`.
fn table<'a>(text: &'a str, heading: &str) -> impl Iterator<Item = &'a str> {
    let rest = text.split_once(heading).map_or("", |(_, rest)| rest);
    rest.lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
}

/// The rows of the key table under `heading`: the keys its first cell names (`` `roles` (or
/// `modes`) ``: both; `` `[facts.NAME]` ``: `facts`; `` `[layer.suffix]` ``: `suffix`) and
/// a short description: the meaning's [`lead`], then the default where the table has a
/// default column.
fn rows(text: &str, heading: &str) -> Vec<(Vec<String>, String)> {
    let mut lines = table(text, heading);
    let header = lines.next().map(cells).unwrap_or_default();
    let default = header.iter().position(|c| c == "default");
    lines
        .skip(1) // |---|---|
        .map(|row| {
            let cells = cells(row);
            let keys = cells.first().map_or_else(Vec::new, |c| keys(c));
            let mut text = lead(cells.last().map_or("", String::as_str)).to_string();
            let default = default.and_then(|i| cells.get(i)).map(String::as_str);
            if let Some(d) = default.filter(|d| !["none", "—", ""].contains(d)) {
                text.push_str(&format!(" Default: {d}."));
            }
            (keys, text.replace("\\|", "|"))
        })
        .collect()
}

/// A table row's cells, trimmed; `\|` (an escaped bar) stays inside its cell.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim();
    let row = row.strip_prefix('|').unwrap_or(row);
    let row = row.strip_suffix('|').unwrap_or(row);
    let mut cells = vec![String::new()];
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        let cell = cells.last_mut().expect("one cell at least");
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push_str("\\|");
                chars.next();
            }
            '|' => cells.push(String::new()),
            c => cell.push(c),
        }
    }
    cells.iter().map(|c| c.trim().to_string()).collect()
}

fn keys(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(|key| {
            let key = key.trim_start_matches('[').trim_end_matches(']');
            let key = key.strip_prefix("layer.").unwrap_or(key);
            key.split('.').next().unwrap_or(key).to_string()
        })
        .collect()
}

/// The first sentence, and the next ones while that is short ("Default `stable`."). A
/// sentence ends at a full stop followed by a space or the end, outside code and
/// parentheses, and not in "e.g." or "i.e.".
fn lead(text: &str) -> &str {
    let (mut code, mut depth) = (false, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '`' => code = !code,
            '(' if !code => depth += 1,
            ')' if !code => depth = depth.saturating_sub(1),
            '.' if !code && depth == 0 => {
                let next = text[i + 1..].chars().next();
                let abbreviation = text[..i].ends_with("e.g") || text[..i].ends_with("i.e");
                if matches!(next, None | Some(' ')) && !abbreviation && i >= SHORT {
                    return &text[..=i];
                }
            }
            _ => {}
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const REFERENCE: &str = "Intro.\n\nTop-level keys:\n\n| key | type | default | meaning |\n|---|---|---|---|\n\
        | `roles` | array | none | The roles of the manifest, declared once (see `a.b`). More. |\n\
        | `[facts.NAME]` | table | `x \\| y` | A value the caller gives, e.g. `v`, per call. Rest. |\n\nAfter.\n\n\
        Layer keys (`[[layer]]`):\n\n| key | type | meaning |\n|---|---|---|\n\
        | `roles` (or `modes`) | array | Scope (not. this) to them |\n\
        | `[layer.suffix]` | table | Default `x`. A line appended to a layer's text. More. |\n";

    #[test]
    fn rows_name_their_keys_and_take_their_lead_and_default() {
        assert_eq!(
            rows(REFERENCE, "Top-level keys:"),
            [
                (
                    vec!["roles".into()],
                    "The roles of the manifest, declared once (see `a.b`).".into()
                ),
                (
                    vec!["facts".into()],
                    "A value the caller gives, e.g. `v`, per call. Default: `x | y`.".into()
                ),
            ]
        );
        assert_eq!(
            rows(REFERENCE, "Layer keys (`[[layer]]`):"),
            [
                (
                    vec!["roles".into(), "modes".into()],
                    "Scope (not. this) to them".into()
                ),
                (
                    vec!["suffix".into()],
                    "Default `x`. A line appended to a layer's text.".into()
                ),
            ]
        );
    }

    #[test]
    fn the_copy_holds_each_heading_and_its_table_only() {
        let copy = reference_keys(REFERENCE);
        assert!(!copy.contains("Intro") && !copy.contains("After"), "{copy}");
        assert_eq!(copy.lines().filter(|l| l.starts_with('|')).count(), 8);
        // The copy reads as the reference does.
        assert_eq!(
            rows(&copy, "Top-level keys:"),
            rows(REFERENCE, "Top-level keys:")
        );
        assert_eq!(reference_keys(&copy), copy);
    }

    #[test]
    fn the_copy_beside_this_file_is_what_it_says() {
        assert_eq!(reference_keys(REFERENCE_KEYS), REFERENCE_KEYS);
        assert!(rows(REFERENCE_KEYS, "Top-level keys:").len() > 10);
        assert!(rows(REFERENCE_KEYS, "Layer keys (`[[layer]]`):").len() > 30);
    }
}
