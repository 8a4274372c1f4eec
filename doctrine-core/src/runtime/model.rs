//! Model names against a manifest's tables: the one matching routine `[formulation]
//! families` and `[models]` share, and the record of which `[models]` rule a prompt was
//! composed under, for `explain()`.

use std::fmt;

/// The entry of `table` whose key (`key` reads it) matches `name`: the longest key that is
/// a prefix of it (with `exact`, the key equal to it). The name is trimmed and compared
/// ignoring ASCII case; the manifest's keys are lowercase. A name of any length or with
/// any characters is only compared, never indexed inside a character: at worst nothing
/// matches.
pub fn best_match<'t, T>(
    name: &str,
    table: &'t [T],
    key: impl Fn(&T) -> &str,
    exact: bool,
) -> Option<&'t T> {
    let name = name.trim();
    table
        .iter()
        .filter(|entry| {
            let key = key(entry);
            let head = match exact {
                true => (name.len() == key.len()).then_some(name),
                false => name.get(..key.len()),
            };
            head.is_some_and(|h| h.eq_ignore_ascii_case(key))
        })
        .max_by_key(|entry| key(entry).len())
}

/// The most characters of a model name [`ModelMatch`] keeps for display.
pub const MAX_SHOWN_MODEL_CHARS: usize = 80;

/// Which `[models]` rule a prompt was composed under ([`Prompt::model`](crate::Prompt::model)),
/// as `explain()` prints it: `model: big-2-mini matched "big-2"`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ModelMatch {
    /// The model name as given, trimmed, for display: control characters escaped and cut
    /// after [`MAX_SHOWN_MODEL_CHARS`] characters (with the full length said).
    pub shown: String,
    /// The key of the rule that matched, or `None`: no rule did, and the manifest's
    /// `default` applied.
    pub rule: Option<String>,
}

impl ModelMatch {
    /// The record for `model` matched by `rule`.
    pub fn new(model: &str, rule: Option<&str>) -> Self {
        ModelMatch {
            shown: shown(model.trim()),
            rule: rule.map(str::to_string),
        }
    }
}

/// `model` escaped (`\n`, `\u{7}`…) and cut to its first characters, so a hostile name
/// cannot break the table's lines or flood it.
fn shown(model: &str) -> String {
    let count = model.chars().count();
    let head: String = model.chars().take(MAX_SHOWN_MODEL_CHARS).collect();
    let mut out: String = head.escape_debug().collect();
    if count > MAX_SHOWN_MODEL_CHARS {
        out.push_str(&format!("… ({} bytes)", model.len()));
    }
    out
}

impl fmt::Display for ModelMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.rule {
            // The manifest's key, escaped as the name is: a manifest from someone else's
            // repository may hold control characters a terminal would act on.
            Some(rule) => write!(f, "{} matched \"{}\"", self.shown, rule.escape_debug()),
            None => write!(f, "{} matched no rule: the default applies", self.shown),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: [&str; 3] = ["big", "big-2", "small-1"];

    fn key<'a>(k: &'a &str) -> &'a str {
        k
    }

    #[test]
    fn the_longest_prefix_wins_or_the_whole_name_with_exact() {
        let prefix = |m| best_match(m, &KEYS, key, false).copied();
        assert_eq!(prefix("big-2-mini"), Some("big-2"));
        assert_eq!(prefix(" BIG-3\n"), Some("big"));
        assert_eq!(prefix("small"), None);
        assert_eq!(prefix("bïg-2"), None);
        let exact = |m| best_match(m, &KEYS, key, true).copied();
        assert_eq!(exact("big-2"), Some("big-2"));
        assert_eq!(exact("big-2-mini"), None);
    }

    #[test]
    fn hostile_names_match_nothing_and_display_short() {
        let long = "x".repeat(100_000);
        assert_eq!(best_match(&long, &KEYS, key, false), None);
        let m = ModelMatch::new(&long, None);
        assert!(m.shown.ends_with("… (100000 bytes)"), "{}", m.shown);
        assert!(m.to_string().len() < 200);
        let m = ModelMatch::new("big-2\u{7}\u{1b}[2J\nx", Some("big-2"));
        assert_eq!(m.to_string(), "big-2\\u{7}\\u{1b}[2J\\nx matched \"big-2\"");
        let m = ModelMatch::new("big", Some("big\u{1b}[2J"));
        assert_eq!(m.to_string(), "big matched \"big\\u{1b}[2J\"");
    }
}
