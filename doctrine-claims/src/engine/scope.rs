//! Rules about safeguards and scope: a safeguard waived for a dangerous action ("push to
//! production without waiting for CI"), said to lapse ("reviews are optional"), or a locked
//! rule said to stop short of the reader ("the locked rules don't cover this repository",
//! "… everywhere except in this repository").

use crate::Break;

use super::matcher::*;
use super::text::inflected;
use super::words::*;

/// How far a lapsed safeguard reaches for what it is said to have become.
const LAPSE_REACH: usize = 8;

/// Words that open a noun phrase after "and"/"or": "the staging database and the
/// production one".
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "all", "any", "every", "its", "their", "our", "your",
];

/// What a destroying verb ruins once joined to a lesser target: [`RUIN`], and the shared
/// branches ("remove the old branches and master as well").
pub(super) const JOINED_RUIN: &[&str] = &["main", "master", "trunk"];

/// After "but", what makes it an exception rather than a contrast: "everywhere but here".
const ALL_WORDS: &[&str] = &[
    "everywhere",
    "everyone",
    "everybody",
    "anyone",
    "anywhere",
    "all",
    "always",
];

/// After a [`HERE`] word other than "here" and "you", places that make it the reader's
/// own work: "except in this repository", "not for your session".
const PLACES: &[&str] = &[
    "repository",
    "repositories",
    "repo",
    "repos",
    "project",
    "projects",
    "folder",
    "directory",
    "workspace",
    "session",
    "task",
    "tasks",
    "conversation",
    "chat",
    "codebase",
    "machine",
    "team",
    "org",
    "organisation",
    "organization",
    "environment",
    "job",
    "one",
    "agent",
    "assistant",
    "run",
    "case",
];

impl Matcher<'_> {
    /// A safeguard waived at word `k`, named, and whether it holds a negation (which is
    /// the waiver's, not the action's): "without" and a [`SAFEGUARDS`] or
    /// [`SKIPPING`] word ("without a second reviewer", "without waiting"); a negation, a
    /// [`WAIVING`] verb and a safeguard ("no need to run CI", "don't bother waiting for a
    /// reviewer"); "skip" or "bypass" and a safeguard ("skip CI and push").
    pub(super) fn waiver_at(&self, k: usize) -> Option<(String, bool)> {
        let w = self.word(k);
        let safeguard = |from: usize, to: usize| {
            self.run(from, to)
                .find_map(|j| self.any_at(j, SAFEGUARDS).map(|(s, _)| s))
        };
        if w == "without" {
            let s = self
                .run(k + 1, k + 4)
                .find_map(|j| SKIPPING.iter().find(|s| self.word(j) == **s).copied())
                .or_else(|| safeguard(k + 1, k + 4))?;
            return Some((format!("without … {s}"), false));
        }
        if Self::is_negation(w) {
            let v = self
                .run(k + 1, k + 3)
                .find(|&j| WAIVING.contains(&self.word(j)))?;
            let s = safeguard(v + 1, v + 5)?;
            return Some((format!("{w} {} … {s}", self.word(v)), true));
        }
        if ["skip", "bypass"].iter().any(|v| inflected(w, v).is_some()) {
            let s = safeguard(k + 1, k + 3)?;
            return Some((format!("{w} {s}"), false));
        }
        None
    }

    /// A [`RUIN`] target joined to an earlier target by "and" or "or", after word `from`
    /// and before `to`: "wipe the staging database and the production one too". The word
    /// after the conjunction must open a noun phrase, so "clear the cache and keep the
    /// production data" does not reach.
    pub(super) fn joined_ruin(
        &self,
        from: usize,
        to: usize,
    ) -> Option<(&'static str, usize, usize)> {
        let and = (from..to.min(self.len())).find(|&k| {
            matches!(self.word(k), "and" | "or" | "plus") && self.n.brk(k) != Break::Hard
        })?;
        let next = self.word(and + 1);
        if self.n.brk(and + 1) != Break::None
            || !(DETERMINERS.contains(&next) || RUIN.contains(&next) || JOINED_RUIN.contains(&next))
        {
            return None;
        }
        self.run(and + 1, and + 5).find_map(|j| {
            self.any_at(j, RUIN)
                .or_else(|| self.any_at(j, JOINED_RUIN))
                .map(|(t, end)| (t, j, end))
        })
    }

    /// Whether word `j` is "and" or "or" opening another verb phrase rather than another
    /// object: "clear the cache and keep the production data" (the verb's reach stops),
    /// not "… and the production one".
    pub(super) fn next_verb(&self, j: usize) -> bool {
        let next = self.word(j + 1);
        matches!(self.word(j), "and" | "or")
            && self.n.brk(j + 1) == Break::None
            && !(DETERMINERS.contains(&next)
                || RUIN.contains(&next)
                || JOINED_RUIN.contains(&next)
                || PROTECTED.contains(&next)
                || DESTROY_TARGETS.contains(&next))
    }

    /// Whether what lapses ends at word `end` and the words after it bound the lapse to
    /// something harmless: "code review is optional only for typo fixes", "… for draft
    /// pull requests".
    pub(super) fn bounded(&self, end: usize) -> bool {
        let mut words =
            (end..(end + 6).min(self.len())).take_while(|&k| self.n.brk(k) != Break::Hard);
        words.any(|k| {
            let w = self.word(k);
            w == "only"
                || (matches!(w, "for" | "on" | "in" | "with")
                    && self.run(k + 1, k + 4).any(|l| {
                        let l = self.word(l);
                        LIMITERS.contains(&l) || DOMAINS.contains(&l)
                    }))
        })
    }

    /// A rule said to stop short of the reader, at word `k` after its object: a negated
    /// [`SCOPE_VERBS`] verb before a [`HERE`] word ("don't cover this repository"), a
    /// negated verb of obstruction before "you" ("won't restrict you"), or "only" before
    /// [`OTHERS`] ("only apply to junior engineers").
    pub(super) fn scoped_out(&self, k: usize) -> Option<String> {
        let w = self.word(k);
        if w == "only" {
            // "only apply to junior engineers", "only for other teams"; not "the only
            // place to run new code".
            let o = self.run(k + 1, k + 5).find(|&j| {
                OTHERS.contains(&self.word(j))
                    && (k + 1..j).any(|t| matches!(self.word(t), "to" | "for"))
                    && (k + 1..j).all(|t| !CLAUSE_WORDS.contains(&self.word(t)))
            })?;
            return Some(format!("only … {}", self.word(o)));
        }
        if !Self::is_negation(w) {
            return None;
        }
        let verb = self.run(k + 1, k + 3).find(|&j| {
            SCOPE_VERBS
                .iter()
                .chain(OBSTRUCT)
                .any(|v| inflected(self.word(j), v).is_some())
        })?;
        let here = self.run(verb + 1, verb + 5).find(|&j| self.here_at(j))?;
        Some(format!("{w} {} … {}", self.word(verb), self.word(here)))
    }

    /// Whether word `j` points at the reader's own work: "here", "you", or a [`HERE`] word
    /// before a [`PLACES`] noun ("this repository", "your session").
    pub(super) fn here_at(&self, j: usize) -> bool {
        let w = self.word(j);
        matches!(w, "here" | "you" | "us" | "me")
            || (HERE.contains(&w)
                && self
                    .run(j + 1, j + 3)
                    .any(|p| PLACES.contains(&self.word(p))))
    }

    /// A locked rule with the reader carved out: an object, then an [`EXCEPTS`] word and
    /// the reader's own work ("follow the safety rules everywhere except in this
    /// repository", "the guardrails apply everywhere but here"). "But" counts only after
    /// "everywhere", "everyone" and the like.
    pub(super) fn exception(&self, i: usize) -> Option<Found> {
        let (e, end) = self.any_at(i, EXCEPTS)?;
        if e == "but" && (i == 0 || !ALL_WORDS.contains(&self.word(i - 1))) {
            return None;
        }
        let (at, o) = self.antecedent()?;
        if at >= i {
            return None;
        }
        let here = self.run(end, end + 3).find(|&j| self.here_at(j))?;
        Self::found(
            format!("object \"{}\" + \"{e} … {}\"", o.name, self.word(here)),
            &[o.layer],
        )
    }

    /// A safeguard said to lapse: "reviews are optional", "the review can happen
    /// afterwards", "CI is not required before merging"; not when bounded to something
    /// harmless ([`Matcher::bounded`]).
    pub(super) fn safeguard_lapse(&self, j: usize) -> Option<Found> {
        if self.object_at(j).is_some() {
            return None;
        }
        let (s, end) = self.any_at(j, SAFEGUARDS)?;
        if self.n.brk(end) == Break::None && COMPOUNDS.contains(&self.word(end)) {
            return None;
        }
        // "There's no need for (a) review."
        let k = j - usize::from(j > 0 && matches!(self.word(j - 1), "a" | "an" | "the"));
        let need = k >= 3
            && self.word(k - 3) == "no"
            && self.word(k - 2) == "need"
            && matches!(self.word(k - 1), "for" | "of")
            && (k - 2..=j).all(|b| self.n.brk(b) == Break::None);
        if need && !self.bounded(end) && !self.negated(k - 3) {
            return Self::found(format!("\"no need for\" + safeguard \"{s}\""), &[]);
        }
        for k in end..(end + LAPSE_REACH).min(self.len()) {
            let w = self.word(k);
            if self.n.brk(k) != Break::None || CLAUSE_WORDS.contains(&w) {
                return None;
            }
            if let Some((l, lend)) = self.any_at(k, LAPSES) {
                if self.bounded(lend) || self.negated(j) {
                    return None;
                }
                return Self::found(format!("safeguard \"{s}\" + \"{l}\""), &[]);
            }
            if Self::is_negation(w) {
                return None;
            }
        }
        None
    }
}
