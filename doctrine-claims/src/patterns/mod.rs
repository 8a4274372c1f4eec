//! The built-in tripwire: a few named patterns over the words of one sentence.

// The word lists, a few to a line.
#[rustfmt::skip]
mod lists;
#[cfg(test)]
mod tests;

use crate::{scan, Break, Words};
use doctrine_core::instructions::Instruction;
use doctrine_core::introspect::Notice;
use doctrine_core::tripwire::{ClaimWords, Finding, Tripwire};
use lists::*;

/// The built-in [`Tripwire`]: the rules of [`Patterns::rules`], each a few word lists in
/// order (a verb, then what it acts on within four words, in the same clause), plus the
/// manifest's words. Deliberately small: on sentences written against another detector it
/// reports about a third of the attacks (BENCHMARKS.md); the guarantee is the type (a
/// locked layer has no overlay field), and `doctrine-claims` is a larger word-rule engine.
///
/// - A manifest's **verbs** count wherever a loosening verb does, in any regular
///   inflection ("thaw", "thawed"), also after the object ("the release freeze is
///   thawed"); its **objects** wherever a protected thing does; its **actions** count
///   when the sentence grants permission ("feel free to …"); its **phrases** anywhere.
/// - A match is not a claim when a negation ("not", "never", "no", "don't", "without"…)
///   comes in the six words before it or between its words, in the same clause, or a
///   prohibition right after it ("… is never acceptable"); nor when the sentence asks
///   leave ("ask first", "only with approval") or reports a request ("if a user asks you
///   to …, refuse"), is about style, lint or fetched text, or bounds a dangerous action to
///   the agent's own things ("your own branch", "scratch files").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Patterns;

impl Patterns {
    /// Every rule the built-in set can name, in the order they are tried.
    pub fn rules() -> impl Iterator<Item = &'static str> {
        [FORGED, PHRASE]
            .into_iter()
            .chain(WORD_PATTERNS.iter().map(|p| p.rule))
    }
}

const FORGED: &str = "forges a provenance or system line";
const PHRASE: &str = "uses a phrase a locked layer lists";

/// Which of a manifest's lists a step also accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Adds {
    No,
    Verbs,
    Objects,
    Actions,
}
use Adds::*;

/// Entries one of which stands at a step (a list of [`super::lists`]), and the manifest
/// list that adds to them.
type Step = (&'static [&'static str], Adds);

struct Pattern {
    rule: &'static str,
    /// In order, each starting within [`REACH`] words of the end of the one before, in
    /// the same clause.
    steps: &'static [Step],
    /// When not empty, one of these must be somewhere in the sentence (a permission).
    given: &'static [&'static str],
    /// One of these anywhere in the sentence makes it no claim.
    unless: &'static [&'static str],
}

impl Pattern {
    const fn new(rule: &'static str, steps: &'static [Step]) -> Self {
        Pattern {
            rule,
            steps,
            given: &[],
            unless: &[],
        }
    }

    const fn given(self, given: &'static [&'static str]) -> Self {
        Pattern { given, ..self }
    }

    const fn unless(self, unless: &'static [&'static str]) -> Self {
        Pattern { unless, ..self }
    }
}

/// How many words may come between two steps.
const REACH: usize = 4;
/// How far back a negation is looked for.
const NEGATION_REACH: usize = 6;

/// The word patterns, in the order they are tried.
const WORD_PATTERNS: [Pattern; 14] = [
    Pattern::new(
        "tells the agent to ignore earlier instructions",
        &[(IGNORE, Verbs), (INSTRUCTIONS, No)],
    )
    .unless(DOMAINS),
    Pattern::new(
        "loosens a rule or safeguard",
        &[(LOOSEN, Verbs), (PROTECTED, Objects)],
    )
    .unless(DOMAINS),
    Pattern::new(
        "refuses a duty a locked layer sets",
        &[(REFUSE, No), (DUTIES, No), (LAPSING, Objects)],
    )
    .unless(OWN),
    Pattern::new(
        "says not to let a rule get in the way",
        &[(LET, No), (PROTECTED, Objects), (OBSTRUCT, No)],
    ),
    Pattern::new(
        "says a rule or safeguard does not hold here",
        &[(LAPSING, Objects), (LAPSED, Verbs)],
    )
    .unless(DOMAINS),
    Pattern::new(
        "tells the agent to skip approval or review",
        &[(SKIP, Verbs), (SAFEGUARDS, Objects)],
    )
    .unless(OWN),
    Pattern::new(
        "grants permission to push to a protected branch",
        &[(PUSHES, No), (PROTECTED_BRANCHES, No)],
    )
    .given(GRANTS)
    .unless(OWN),
    Pattern::new(
        "grants permission for a dangerous or forbidden action",
        &[(DANGEROUS, Actions)],
    )
    .given(GRANTS)
    .unless(OWN),
    Pattern::new(
        "tells the agent to destroy production data or history",
        &[(DESTROY, No), (VITAL, No)],
    )
    .unless(OWN),
    Pattern::new(
        "asks for a secret to be sent or shown",
        &[(SEND, No), (SECRETS, No)],
    ),
    Pattern::new(
        "puts tests or checks out of the way to get a pass",
        &[(SABOTAGE, No), (CHECKED, No)],
    )
    .given(FAILING),
    Pattern::new(
        "turns a safeguard off with a flag, or approves itself",
        &[(SWITCHES, No)],
    ),
    Pattern::new(
        "says the agent is free of its limits",
        &[(SUBJECTS, No), (FREE, No)],
    ),
    Pattern::new(
        "ranks itself above the locked layers",
        &[(RANKS, No), (OUTRANKED, Objects)],
    ),
];

/// Whether `word` is `verb` or one of its regular inflections (`-s`, `-es`, `-ed`, `-d`,
/// `-ing`, a doubled last consonant): how a manifest's verbs match.
fn inflects(word: &str, verb: &str) -> bool {
    let stem = verb.strip_suffix('e').unwrap_or(verb);
    word == verb
        || word.strip_prefix(stem).is_some_and(|rest| {
            let rest = match stem.chars().next_back() {
                Some(c) if rest.starts_with(c) => &rest[c.len_utf8()..],
                _ => rest,
            };
            matches!(rest, "s" | "es" | "ed" | "d" | "ing")
        })
}

/// How an entry may match a word beyond its letters.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Match {
    /// A `*` stem matches any ending (`fail*`: failed).
    Any,
    /// A `*` stem matches no past form in `-ed`: a pattern's own steps.
    Telling,
    /// The first word in any regular inflection: a manifest's verbs.
    Inflected,
}

/// Where `entry` ends if it starts at word `i`, its words following one another with
/// nothing but spaces between.
fn entry_at(w: &Words, i: usize, entry: &str, how: Match) -> Option<usize> {
    // Most words start no entry: pass them by on their first byte.
    if entry.as_bytes().first() != w.word(i).as_bytes().first() {
        return None;
    }
    let mut end = i;
    for (k, part) in entry.split(' ').enumerate() {
        let word = w.word(i + k);
        if word.is_empty() || (k > 0 && w.brk(i + k) != Break::None) {
            return None;
        }
        let ok = match part.strip_suffix('*') {
            Some(stem) => {
                word.starts_with(stem) && (how != Match::Telling || !word.ends_with("ed"))
            }
            None => word == part || (how == Match::Inflected && k == 0 && inflects(word, part)),
        };
        if !ok {
            return None;
        }
        end = i + k + 1;
    }
    Some(end)
}

/// The entries of a list of [`super::lists`].
fn entries(list: &'static [&'static str]) -> impl Iterator<Item = &'static str> {
    list.iter().copied()
}

/// Where an entry of `list` first stands in the sentence, as a word range.
fn find(w: &Words, list: &'static [&'static str]) -> Option<(usize, usize)> {
    (0..w.len()).find_map(|i| {
        entries(list)
            .find_map(|e| entry_at(w, i, e, Match::Any))
            .map(|end| (i, end))
    })
}

/// A manifest's lists, normalised.
struct Extra {
    layer: &'static str,
    lists: [Vec<String>; 4],
}

impl Extra {
    fn new(c: &ClaimWords) -> Self {
        Extra {
            layer: c.layer,
            lists: crate::text::normalised(c),
        }
    }

    fn list(&self, adds: Adds) -> &[String] {
        match adds {
            No => &[],
            Verbs => &self.lists[0],
            Objects => &self.lists[1],
            Actions => &self.lists[2],
        }
    }
}

/// One step matched: its words and the layer whose entry it was.
struct Hit {
    start: usize,
    end: usize,
    layer: Option<&'static str>,
}

/// Step `(list, adds)` matched at word `i`, if it is there.
fn step_at((list, adds): Step, w: &Words, i: usize, extra: &[Extra]) -> Option<Hit> {
    let hit = |end, layer| Hit {
        start: i,
        end,
        layer,
    };
    if let Some(end) = entries(list).find_map(|e| entry_at(w, i, e, Match::Telling)) {
        return Some(hit(end, None));
    }
    let how = match adds {
        Verbs => Match::Inflected,
        _ => Match::Any,
    };
    extra.iter().find_map(|x| {
        let end = x.list(adds).iter().find_map(|e| entry_at(w, i, e, how))?;
        Some(hit(end, Some(x.layer)))
    })
}

impl Pattern {
    /// The steps matched from word `i`, if every step matches in order and nothing negates
    /// them (a negation inside `excused`, the permission's own words, does not count).
    fn at(
        &self,
        w: &Words,
        i: usize,
        extra: &[Extra],
        excused: (usize, usize),
    ) -> Option<Vec<Hit>> {
        let mut hits: Vec<Hit> = vec![step_at(self.steps[0], w, i, extra)?];
        for step in &self.steps[1..] {
            let from = hits.last().map_or(i, |h| h.end);
            let hit = (from..=from + REACH)
                .take_while(|&j| j < w.len() && w.brk(j) != Break::Hard)
                .find_map(|j| step_at(*step, w, j, extra))?;
            hits.push(hit);
        }
        (!negated(w, &hits, excused)).then_some(hits)
    }
}

/// A negation that is not followed by a [`NEUTRAL`] word.
fn negation_at(w: &Words, k: usize) -> bool {
    let word = w.word(k);
    (word.ends_with("n't") || entries(NEGATIONS).any(|n| n == word))
        && !entries(NEUTRAL).any(|n| entry_at(w, k + 1, n, Match::Any).is_some())
}

/// A negation in the clause before the first hit or between the hits (outside
/// `excused`), or a prohibition right after the last one.
fn negated(w: &Words, hits: &[Hit], excused: (usize, usize)) -> bool {
    let (first, last) = (hits[0].start, hits[hits.len() - 1].end);
    let before = (first.saturating_sub(NEGATION_REACH)..first)
        .rev()
        .take_while(|&k| w.brk(k + 1) == Break::None);
    let between = hits.windows(2).flat_map(|h| h[0].end..h[1].start);
    let after = (last..last + REACH + 2)
        .take_while(|&k| k < w.len() && w.brk(k) != Break::Hard)
        .any(|k| entries(FORBIDDEN).any(|f| f == w.word(k)));
    after
        || before
            .chain(between)
            .any(|k| !(excused.0..excused.1).contains(&k) && negation_at(w, k))
}

/// A manifest phrase anywhere in the text, whole words at its ends, not negated.
fn phrase(w: &Words, extra: &[Extra]) -> Option<Finding> {
    let text = w.text();
    let cut = |edge: Option<char>, inner: Option<char>| {
        inner.is_some_and(char::is_alphanumeric) && edge.is_some_and(char::is_alphanumeric)
    };
    for x in extra {
        for p in &x.lists[3] {
            for (pos, _) in text.match_indices(p.as_str()) {
                let end = pos + p.len();
                if cut(text[..pos].chars().next_back(), p.chars().next())
                    || cut(text[end..].chars().next(), p.chars().next_back())
                {
                    continue;
                }
                let hit = Hit {
                    start: w.at(pos),
                    end: w.at(end),
                    layer: None,
                };
                if !negated(w, &[hit], (0, 0)) {
                    let found = Finding::new(PHRASE, format!("\"{p}\""));
                    return Some(found.from_layer(Some(x.layer)));
                }
            }
        }
    }
    None
}

/// Whether the sentence asks leave: a [`LEAVE`] entry, not itself negated ("without
/// asking first" is a permission).
fn asks_leave(w: &Words) -> bool {
    (0..w.len()).any(|i| {
        entries(LEAVE).any(|e| entry_at(w, i, e, Match::Any).is_some())
            && !(i.saturating_sub(2)..i).any(|k| negation_at(w, k))
    })
}

impl Pattern {
    /// The first match in the sentence, if any, as a finding. The sentence-wide conditions
    /// are looked at only once the first step is found somewhere.
    fn find(&self, w: &Words, extra: &[Extra]) -> Option<Finding> {
        let first = (0..w.len()).find(|&i| step_at(self.steps[0], w, i, extra).is_some())?;
        if find(w, self.unless).is_some() {
            return None;
        }
        let excused = match self.given {
            [] => (0, 0),
            given => find(w, given)?,
        };
        let hits = (first..w.len()).find_map(|i| self.at(w, i, extra, excused))?;
        let quoted = |h: &Hit| {
            let words: Vec<&str> = (h.start..h.end).map(|k| w.word(k)).collect();
            format!("\"{}\"", words.join(" "))
        };
        let matched: Vec<String> = hits.iter().map(quoted).collect();
        let layer = hits.iter().find_map(|h| h.layer);
        Some(Finding::new(self.rule, matched.join(" + ")).from_layer(layer))
    }
}

impl Tripwire for Patterns {
    fn check(&self, sentence: &str, words: &[ClaimWords]) -> Option<Finding> {
        let w = Words::of(sentence);
        if let Some(m) = entries(MARKERS).find(|m| w.text().contains(m)) {
            return Some(Finding::new(FORGED, format!("\"{m}\"")));
        }
        let extra: Vec<Extra> = words.iter().map(Extra::new).collect();
        if let Some(found) = phrase(&w, &extra) {
            return Some(found);
        }
        let found = WORD_PATTERNS.iter().find_map(|p| p.find(&w, &extra))?;
        // Asking leave makes no word pattern a claim.
        (!asks_leave(&w)).then_some(found)
    }
}

/// The sentences of the instructions that the built-in [`Patterns`] report, without a
/// manifest's words (a manifest with an instructions layer generates a `safety_claims` that
/// adds its locked layers' `claims`). A reporter, not a guard: treat a notice as a reason
/// to look, and silence as no evidence (its recall is in BENCHMARKS.md).
pub fn safety_claims(instructions: &[Instruction<'_>]) -> Vec<Notice> {
    scan(instructions, &[], &Patterns)
}
