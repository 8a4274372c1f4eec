//! What around a match turns a claim into a rule: a negation before it, a prohibition
//! after it, a request for leave, someone else's request.

use crate::Break;

use super::matcher::Matcher;
use super::text::is_nt;
use super::words::*;

/// How far back a negation reaches.
const NEGATION_REACH: usize = 8;

impl Matcher<'_> {
    /// Whether what starts at word `i` is negated: a negation among the words before it, in
    /// its clause, with no [`NEUTRALISERS`] word between ("do not hesitate to"). Past a
    /// comma it reaches only over [`ADVERBIALS`] ("never, under any circumstances, …") or
    /// one aside between two commas ("nobody, including the user, may …"). "Stop",
    /// "quit" and "cease" negate only an `-ing` form ("stop obeying", not "stop and ask");
    /// "instead of" and "rather than" negate too.
    pub(super) fn negated(&self, i: usize) -> bool {
        self.negation_at(i).is_some()
    }

    /// The word that negates what starts at word `i`, if any (see [`Matcher::negated`]).
    pub(super) fn negation_at(&self, i: usize) -> Option<usize> {
        let mut neutral = false;
        let mut past_comma = false;
        let mut in_aside = false;
        let mut aside_done = false;
        let mut k = i;
        for _ in 0..NEGATION_REACH {
            if k == 0 {
                return None;
            }
            match self.n.brk(k) {
                Break::Hard => return None,
                Break::Soft if in_aside => {
                    in_aside = false;
                    aside_done = true;
                }
                Break::Soft => past_comma = true,
                Break::None => {}
            }
            k -= 1;
            let w = self.word(k);
            if in_aside {
                continue;
            }
            let stops = matches!(w, "stop" | "quit" | "cease");
            let next = self.word(k + 1);
            let instead = (w == "instead" && next == "of") || (w == "rather" && next == "than");
            if instead || (Self::is_negation(w) && (!stops || next.ends_with("ing"))) {
                return (!neutral).then_some(k);
            }
            if past_comma {
                if ADVERBIALS.contains(&w) {
                    continue;
                }
                if !aside_done {
                    in_aside = true;
                    continue;
                }
                return None;
            }
            if CLAUSE_WORDS.contains(&w) {
                return None;
            }
            if NEUTRALISERS.contains(&w) {
                neutral = true;
            }
        }
        None
    }

    /// A negation within three words before word `a`, with no punctuation between.
    pub(super) fn negated_close(&self, a: usize) -> bool {
        (a.saturating_sub(3)..a)
            .rev()
            .take_while(|&k| self.n.brk(k + 1) == Break::None)
            .any(|k| Self::is_negation(self.word(k)))
    }

    /// Whether the clause asks leave for what spans words `i..end`: "ask (…) before" just
    /// before it, "only" and an [`AUTHORITIES`] word before it ("only an administrator
    /// can …"), or "only"/"unless" and an [`ASK_WORDS`] word after it.
    pub(super) fn guarded(&self, i: usize, end: usize) -> bool {
        let only_authority = (i.saturating_sub(8)..i)
            .rev()
            .take_while(|&k| self.n.brk(k + 1) == Break::None)
            .any(|k| {
                self.word(k) == "only"
                    && self
                        .run(k + 1, k + 4)
                        .any(|a| AUTHORITIES.contains(&self.word(a)))
            });
        if only_authority {
            return true;
        }
        let mut k = i;
        for _ in 0..6 {
            if k == 0 || self.n.brk(k) != Break::None {
                break;
            }
            k -= 1;
            if self.word(k) == "before" {
                let asked = (k.saturating_sub(4)..k)
                    .rev()
                    .take_while(|&a| self.n.brk(a + 1) == Break::None)
                    .any(|a| ASK_WORDS.contains(&self.word(a)) && !self.negated_close(a));
                if asked {
                    return true;
                }
            }
            if CLAUSE_WORDS.contains(&self.word(k)) {
                break;
            }
        }
        let len = self.len();
        (end..(end + 8).min(len))
            .take_while(|&k| k == end || self.n.brk(k) != Break::Hard)
            .filter(|&k| matches!(self.word(k), "only" | "unless"))
            .any(|k| {
                (k + 1..(k + 6).min(len))
                    .take_while(|&a| self.n.brk(a) != Break::Hard)
                    .any(|a| ASK_WORDS.contains(&self.word(a)))
            })
    }

    /// Whether word `i` is inside someone else's request or attempt, or a condition,
    /// which the sentence refuses or supposes: "if a user asks you to …", "report any
    /// attempt to …", "if the user has disabled confirmations, ask them …" (a
    /// [`CONDITIONS`] word before it in its clause, and a comma after it).
    pub(super) fn requested(&self, i: usize) -> bool {
        if i >= 2 && self.word(i - 1) == "to" && NOMINALS.contains(&self.word(i - 2)) {
            return true;
        }
        let condition = (i.saturating_sub(NEGATION_REACH)..i)
            .rev()
            .take_while(|&k| self.n.brk(k + 1) == Break::None)
            .any(|k| CONDITIONS.contains(&self.word(k)));
        if condition {
            let closed = (i + 1..self.len())
                .map(|k| self.n.brk(k))
                .take_while(|b| *b != Break::Hard)
                .any(|b| b == Break::Soft);
            if closed {
                return true;
            }
        }
        let mut k = i;
        for _ in 0..NEGATION_REACH {
            if k == 0 || self.n.brk(k) != Break::None {
                return false;
            }
            k -= 1;
            if REQUESTS.contains(&self.word(k)) {
                return (k.saturating_sub(5)..k)
                    .rev()
                    .take_while(|&h| self.n.brk(h + 1) == Break::None)
                    .any(|h| HYPOTHETICALS.contains(&self.word(h)));
            }
        }
        false
    }

    /// Whether the words after a claim forbid it: "disabling the sandbox is never allowed",
    /// also past one short aside: "committing credentials, even briefly, is not allowed".
    pub(super) fn prohibited_after(&self, end: usize) -> bool {
        let mut from = end;
        if self.n.brk(end) == Break::Soft {
            // The aside's closing comma: within four words, before any other break.
            match (end + 1..(end + 5).min(self.len())).find(|&k| self.n.brk(k) != Break::None) {
                Some(close) if self.n.brk(close) == Break::Soft => from = close,
                _ => return false,
            }
        }
        for k in from..(from + 5).min(self.len()) {
            let w = self.word(k);
            if (k > from && self.n.brk(k) != Break::None)
                || (k == from && self.n.brk(k) == Break::Hard)
                || CLAUSE_WORDS.contains(&w)
                || matches!(w, "and" | "or")
            {
                return false;
            }
            if w == "not" || w == "never" || is_nt(w) || PROHIBITIONS.contains(&w) {
                return true;
            }
        }
        false
    }

    /// Whether nothing around words `i..end` turns a claim into a rule.
    pub(super) fn asserted(&self, i: usize, end: usize) -> bool {
        self.asserted_waiving(i, end, None)
    }

    /// [`Matcher::asserted`], but a negation at or after word `waiver` is part of a waiver
    /// of a safeguard, not of the claim: in "no need to run CI before pushing to master"
    /// the "no" waives CI; it does not forbid the push.
    pub(super) fn asserted_waiving(&self, i: usize, end: usize, waiver: Option<usize>) -> bool {
        let negated = self
            .negation_at(i)
            .is_some_and(|k| waiver.is_none_or(|w| k < w));
        !negated && !self.guarded(i, end) && !self.requested(i) && !self.prohibited_after(end)
    }
}
