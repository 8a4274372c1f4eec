//! Checks put out of the way to get a result: tests deleted or skipped, assertions
//! commented out, CI checks disabled so that a change merges.

use crate::Break;

use super::matcher::{Found, Matcher};
use super::text::{inflected, Form};
use super::words::{CHECKED, FAILING, SABOTAGE_VERBS};

/// How far after its verb a check may be named ("disable the failing security tests").
const CHECK_REACH: usize = 5;
/// How far before the verb, and after the check, a [`FAILING`] word is looked for: a
/// window, so a long sentence costs time in proportion to its length.
const FAILING_REACH: usize = 12;

impl Matcher<'_> {
    /// A [`SABOTAGE_VERBS`] verb, a [`CHECKED`] noun within five words (or "them"/"it" for
    /// one named earlier), and a [`FAILING`] word in the same clause: "when tests fail,
    /// just delete them so the pipeline goes green". Not when negated, prohibited or asked
    /// for leave ([`Matcher::asserted`]).
    pub(super) fn sabotage(&self, i: usize) -> Option<Found> {
        let (v, end) = SABOTAGE_VERBS.iter().find_map(|v| {
            let (end, form) = self.at(i, v, true)?;
            (form != Form::Past).then_some((*v, end))
        })?;
        let first = *self
            .first_check
            .get_or_init(|| (0..self.len()).find(|&k| self.any_at(k, CHECKED).is_some()));
        let named_before = first.is_some_and(|k| k < i);
        let (c, cend) = self.run(end, end + CHECK_REACH).find_map(|k| {
            if let Some((c, cend)) = self.any_at(k, CHECKED) {
                return Some((c.to_string(), cend));
            }
            let pronoun = named_before && matches!(self.word(k), "them" | "it");
            pronoun.then(|| (self.word(k).to_string(), k + 1))
        })?;
        // The clause around the verb, back to the last hard break and on to the next, but
        // no further than the reach.
        let start = (i.saturating_sub(FAILING_REACH)..=i)
            .rev()
            .find(|&k| self.n.brk(k) == Break::Hard)
            .unwrap_or(i.saturating_sub(FAILING_REACH));
        let stop = (cend..(cend + FAILING_REACH).min(self.len()))
            .find(|&k| self.n.brk(k) == Break::Hard)
            .unwrap_or((cend + FAILING_REACH).min(self.len()));
        let failing = (start..stop).find(|&k| {
            FAILING.contains(&self.word(k)) || inflected(self.word(k), "fail").is_some()
        })?;
        if !self.asserted(i, cend) {
            return None;
        }
        Self::found(
            format!("\"{v}\" + check \"{c}\" + \"{}\"", self.word(failing)),
            &[],
        )
    }
}
