//! The help under an unknown name: what was meant, if something is close, and what is
//! declared.

use crate::names::closest;

/// Candidates listed in a hint; a manifest with thousands of roles gets the first ones and a count.
const MAX_HINTS_LISTED: usize = 20;

/// `what: a, b, c` (the first of many, and how many more), after `did you mean `x`?` when
/// a candidate is close to `name`; `what: none` without candidates.
pub(super) fn hint<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str> + Clone,
    what: &str,
) -> String {
    let all: Vec<&str> = candidates.clone().collect();
    if all.is_empty() {
        // "declared facts: " with nothing after it reads as a bug.
        return format!("{what}: none");
    }
    let mut list = all
        .iter()
        .take(MAX_HINTS_LISTED)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if all.len() > MAX_HINTS_LISTED {
        list.push_str(&format!(" and {} more", all.len() - MAX_HINTS_LISTED));
    }
    match closest(name, candidates) {
        Some(c) => format!("did you mean `{c}`? {what}: {list}"),
        None => format!("{what}: {list}"),
    }
}
