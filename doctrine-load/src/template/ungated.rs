//! Loops that would print nothing of their list while the text around them prints: a loop
//! outside every section that needs its list given, in a text with words outside its loops
//! and sections, and no empty branch for the list (`{?!list}…{/list}`, which handlebars'
//! `{{else}}` and Jinja's `for … else` become). Where such a list is optional, an empty
//! one leaves "You can call these tools:" with nothing after it.

use super::{Cond, Piece};

/// A loop over `list` at byte `at`, closed by the tag at `close`, with the first words
/// `text` prints outside its loops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UngatedLoop {
    pub list: String,
    pub at: usize,
    pub close: usize,
    pub text: String,
}

/// The loops of `pieces` (a text's, as read) that print nothing of their list around
/// words that still print.
pub fn ungated_loops(pieces: &[Piece]) -> Vec<UngatedLoop> {
    let mut text: Option<String> = None;
    let mut empty_branch: Vec<&str> = Vec::new();
    // Each open section or loop, with the names it needs given.
    let mut open: Vec<Vec<&str>> = Vec::new();
    // Each loop found, and the depth it opened at (to find its close).
    let mut loops: Vec<(&str, usize, usize)> = Vec::new();
    let mut closes: Vec<(usize, usize)> = Vec::new();
    for p in pieces {
        match p {
            Piece::Lit(s) if open.is_empty() && text.is_none() && !s.trim().is_empty() => {
                let words = s.trim();
                let cut: String = words.chars().take(40).collect();
                let more = if cut.len() < words.len() { "…" } else { "" };
                text = Some(format!("{cut}{more}"));
            }
            Piece::Open(n, negated, _) => {
                if *negated {
                    empty_branch.push(n);
                }
                open.push(if *negated {
                    Vec::new()
                } else {
                    vec![n.as_str()]
                });
            }
            Piece::Count(n, _, negated, _) => {
                open.push(if *negated {
                    Vec::new()
                } else {
                    vec![n.as_str()]
                });
            }
            Piece::When(c, _, _) => {
                if let Cond::Not(inner) = c {
                    if let Cond::Given(n) = inner.as_ref() {
                        empty_branch.push(n);
                    }
                }
                open.push(c.implies_given());
            }
            Piece::Loop(n, at) => {
                if !open.iter().flatten().any(|g| g == n) {
                    loops.push((n, *at, open.len()));
                }
                open.push(Vec::new());
            }
            Piece::Close(_, at) => {
                open.pop();
                closes.push((open.len(), *at));
            }
            Piece::Lit(_) | Piece::Name(..) | Piece::Html(..) => {}
        }
    }
    let Some(text) = text else {
        return Vec::new();
    };
    loops
        .into_iter()
        .filter(|(n, ..)| !empty_branch.contains(n))
        .map(|(n, at, depth)| UngatedLoop {
            list: n.to_string(),
            at,
            // The first close at its depth after it.
            close: (closes.iter())
                .find(|(d, c)| *d == depth && *c > at)
                .map_or(at, |(_, c)| *c),
            text: text.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{placeholders, shaped};
    use super::*;

    fn lists(text: &str) -> Vec<String> {
        let pieces = placeholders(text, shaped).unwrap();
        ungated_loops(&pieces).into_iter().map(|u| u.list).collect()
    }

    #[test]
    fn a_loop_around_words_with_no_gate_and_no_empty_branch_is_found() {
        assert_eq!(lists("Tools: {#tools}{.} {/tools}"), ["tools"]);
        // Alone in its text, inside a section on the list, inside a count, inside a
        // condition that needs it, or with an empty branch: nothing to say.
        for text in [
            "{#tools}{.} {/tools}",
            "{?tools}Tools: {#tools}{.} {/tools}{/tools}",
            "Hi.{?tools:many}Tools: {#tools}{.} {/tools}{/tools}",
            "Hi.{?tools and user}Tools: {#tools}{.} {/tools}{/tools and user}",
            "Tools: {#tools}{.} {/tools}{?!tools}none{/tools}",
        ] {
            assert_eq!(lists(text), Vec::<String>::new(), "{text}");
        }
        // A condition the list is not needed for does not gate it.
        assert_eq!(
            lists("Hi.{?tools or user}{#tools}{.}{/tools}{/tools or user}"),
            ["tools"]
        );
    }
}
