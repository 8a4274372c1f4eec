//! Looking things up in one normalised sentence: list entries at a word, objects after a
//! verb. Every lookup reaches a bounded number of words, so a sentence costs time linear
//! in its length.

use std::cell::OnceCell;

use crate::{Break, Words};

use super::text::{inflected, initial, initials, is_nt, same, Form};
use super::words::*;
use super::Extension;

/// What a sentence claims, in words, and the locked layer whose manifest words matched.
pub(super) struct Found {
    pub what: String,
    pub layer: Option<&'static str>,
}

/// An object: where it ends, how to name it, who declared it.
#[derive(Clone)]
pub(super) struct Object {
    pub end: usize,
    pub name: String,
    pub layer: Option<&'static str>,
}

/// The initials of the lists every word is tried against (see [`Matcher::may_start`]).
pub(super) const LOOSEN_I: u128 = initials(LOOSEN_VERBS);
pub(super) const DUTY_I: u128 = initials(DUTY_VERBS);
pub(super) const OBJECT_I: u128 = initials(OBJECTS) | initials(HEADS) | initials(QUALIFIERS);
pub(super) const ACTION_I: u128 = initials(ACTIONS)
    | initials(DESTROY_VERBS)
    | initials(PUSH_VERBS)
    | initials(CHANGE_VERBS)
    | initials(PRIVILEGES);
pub(super) const SEND_I: u128 = initials(SEND_VERBS);
pub(super) const STANDALONE_I: u128 = initials(STANDALONE) | initials(&["force", "push"]);
pub(super) const ABSENCE_I: u128 = initials(ABSENCES) | initials(NOTHING_OF);
pub(super) const ESCAPE_I: u128 = initials(ESCAPES) | initials(OUTSIDE_OF) | initials(&["outside"]);

/// One rule: what it says of a sentence, and the check that tries it at a word.
type Rule = (&'static str, fn(&Matcher<'_>, usize) -> Option<Found>);

/// The rules, in the order they are tried at each word (see the crate documentation).
const RULES: &[Rule] = &[
    ("loosens a rule or safeguard", |m, i| m.loosen(i)),
    ("refuses a duty", |m, i| m.refusal(i)),
    ("says not to let a rule get in the way", |m, i| {
        m.obstruct(i)
    }),
    ("says a rule or safeguard has lapsed", |m, i| m.lapse(i)),
    ("says there are no rules", |m, i| m.absence(i)),
    ("says the agent is not bound", |m, i| m.unbound(i)),
    ("asks to act outside the rules", |m, i| m.escape(i)),
    ("dismisses the rules", |m, i| m.dismissal(i)),
    ("says to go ahead anyway", |m, i| m.defiance(i)),
    ("gives the agent a role without limits", |m, i| m.role(i)),
    ("passes a flag that turns safety off", |m, i| m.flag(i)),
    ("ranks itself above a locked layer", |m, i| m.precedence(i)),
    ("grants the agent full powers", |m, i| m.power(i)),
    ("exempts the reader's own work", |m, i| m.exception(i)),
    ("says a safeguard is optional", |m, i| m.safeguard_lapse(i)),
    ("grants permission for a dangerous action", |m, i| {
        m.permitted(i)
    }),
    ("sends a secret out", |m, i| m.sent(i)),
    ("says a secret may be exposed", |m, i| m.exposed(i)),
    ("puts checks out of the way to get a pass", |m, i| {
        m.sabotage(i)
    }),
    ("names a dangerous action", |m, i| m.standalone(i)),
];

/// How far a verb reaches for its object.
const OBJECT_REACH: usize = 5;

/// A permission in a clause: a [`GRANTS`] entry or a waived safeguard, and where it starts.
pub(super) struct Grant {
    pub name: String,
    pub at: usize,
    /// Whether it holds a negation of its own ("no need to run CI").
    pub negates: bool,
}

/// One entry of a list, with the locked layer that added it (`None` for the defaults).
pub(super) type Entry<'a> = (&'a str, Option<&'static str>);

pub(super) struct Matcher<'a> {
    pub n: &'a Words,
    ext: &'a [Extension],
    /// The permission in each clause (clauses end at `;`, `:` and "but"), if any, and the
    /// clause of each word; worked out when an action first needs it.
    grants: OnceCell<(Vec<Option<Grant>>, Vec<usize>)>,
    /// The object starting at each word, if any (see [`Matcher::object_at`]).
    objects: Vec<Option<Object>>,
    /// Where the first object starts, if any: asked for once per pronoun, so kept.
    first_object: Option<usize>,
    /// Where the first [`CHECKED`] noun starts, if any; worked out when first needed.
    pub first_check: OnceCell<Option<usize>>,
    /// The initials of the extensions' verbs, objects and actions.
    pub ext_initials: (u128, u128, u128),
}

impl<'a> Matcher<'a> {
    pub(super) fn new(n: &'a Words, ext: &'a [Extension]) -> Self {
        let mut m = Matcher {
            n,
            ext,
            grants: OnceCell::new(),
            objects: Vec::new(),
            first_object: None,
            first_check: OnceCell::new(),
            ext_initials: (0, 0, 0),
        };
        for x in ext {
            let of = |list: &[String]| list.iter().fold(0, |s, e| s | initial(e.as_bytes()));
            m.ext_initials.0 |= of(&x.verbs);
            m.ext_initials.1 |= of(&x.objects);
            m.ext_initials.2 |= of(&x.actions);
        }
        m.objects = (0..n.len()).map(|j| m.find_object(j)).collect();
        m.first_object = m.objects.iter().position(Option::is_some);
        m
    }

    /// The permission in the clause of word `i`: a [`GRANTS`] entry anywhere in it, or a
    /// safeguard waived ([`Matcher::waiver_at`]: "without waiting for CI").
    pub(super) fn grant(&self, i: usize) -> Option<&Grant> {
        let (grants, clause) = self.grants.get_or_init(|| {
            let (mut grants, mut clause) = (vec![None], Vec::with_capacity(self.len()));
            for k in 0..self.len() {
                if self.n.brk(k) == Break::Hard || self.word(k) == "but" {
                    grants.push(None);
                }
                clause.push(grants.len() - 1);
                let last = grants.last_mut().expect("one clause at least");
                if last.is_none() {
                    *last = GRANTS
                        .iter()
                        .find(|g| self.at(k, g, false).is_some())
                        // "No need to …", "don't bother …": the negation is the grant's.
                        .map(|g| (g.to_string(), Self::is_negation(self.word(k))))
                        .or_else(|| self.waiver_at(k))
                        .map(|(name, negates)| Grant {
                            name,
                            at: k,
                            negates,
                        });
                }
            }
            (grants, clause)
        });
        grants[clause[i]].as_ref()
    }

    /// The first object of the sentence and where it starts.
    pub(super) fn antecedent(&self) -> Option<(usize, &Object)> {
        let j = self.first_object?;
        Some((j, self.objects[j].as_ref()?))
    }

    /// The first claim in the sentence, if any, and the rule that found it.
    pub(super) fn find(&self) -> Option<(&'static str, Found)> {
        if let Some(found) = self.phrase() {
            return Some(("contains a listed phrase", found));
        }
        (0..self.n.len()).find_map(|i| {
            RULES
                .iter()
                .find_map(|(rule, check)| check(self, i).map(|found| (*rule, found)))
        })
    }

    pub(super) fn found(what: String, layers: &[Option<&'static str>]) -> Option<Found> {
        Some(Found {
            what,
            layer: layers.iter().copied().flatten().next(),
        })
    }

    /// Default entries, then every extension's.
    pub(super) fn entries(
        &self,
        default: &'static [&'static str],
        pick: fn(&Extension) -> &[String],
    ) -> impl Iterator<Item = Entry<'_>> {
        default.iter().map(|e| (*e, None)).chain(
            self.ext
                .iter()
                .flat_map(move |x| pick(x).iter().map(move |e| (e.as_str(), Some(x.layer)))),
        )
    }

    pub(super) fn word(&self, i: usize) -> &str {
        self.n.word(i)
    }

    /// Whether an entry of a list with these [`initials`] may start at word `i`; `not`
    /// entries also start at contractions ("don't").
    pub(super) fn may_start(&self, i: usize, initials: u128) -> bool {
        let w = self.word(i);
        match w.as_bytes().first() {
            Some(&b) if b < 128 => {
                initials >> b & 1 == 1 || (initials >> b'n' & 1 == 1 && is_nt(w))
            }
            Some(_) => true,
            None => false,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.n.len()
    }

    /// Words `from..to` (cut at the sentence's end) that follow one another with no
    /// punctuation between them and `from - 1`.
    pub(super) fn run(&self, from: usize, to: usize) -> impl Iterator<Item = usize> + '_ {
        (from..to.min(self.len())).take_while(|&k| self.n.brk(k) == Break::None)
    }

    /// Whether `entry` starts at word `i`: its words in a row with no punctuation between,
    /// the first inflected when `verb`. Returns the end and the first word's form.
    pub(super) fn at(&self, i: usize, entry: &str, verb: bool) -> Option<(usize, Form)> {
        // Most entries fail on the first letter; only "not" matches other letters ("don't").
        let word = self.word(i).as_bytes();
        if word.first() != entry.as_bytes().first() && !entry.starts_with("not") {
            return None;
        }
        let space = entry.bytes().position(|b| b == b' ').unwrap_or(entry.len());
        let (first, rest) = (&entry[..space], entry.get(space + 1..).unwrap_or(""));
        let form = if verb {
            inflected(self.word(i), first)?
        } else if same(self.word(i), first) {
            Form::Base
        } else {
            return None;
        };
        if rest.is_empty() {
            return Some((i + 1, form));
        }
        self.rest_at(i + 1, rest.split(' ')).map(|end| (end, form))
    }

    /// The first entry of `list` at word `i`, and its end.
    pub(super) fn any_at(
        &self,
        i: usize,
        list: &'static [&'static str],
    ) -> Option<(&'static str, usize)> {
        list.iter()
            .find_map(|e| self.at(i, e, false).map(|(end, _)| (*e, end)))
    }

    /// Whether the words of `parts` follow from word `j` on; returns the end.
    pub(super) fn rest_at<'p>(
        &self,
        mut j: usize,
        parts: impl Iterator<Item = &'p str>,
    ) -> Option<usize> {
        for p in parts {
            if self.n.brk(j) != Break::None || !same(self.word(j), p) {
                return None;
            }
            j += 1;
        }
        Some(j)
    }

    pub(super) fn is_negation(w: &str) -> bool {
        NEGATIONS.contains(&w) || is_nt(w)
    }

    /// An object starting at word `j`: an [`OBJECTS`] entry; a [`HEADS`] noun followed by
    /// a [`TOLD`] clause; or a qualifier and a head within three words of each other
    /// (either order) with no [`DOMAINS`] word near.
    pub(super) fn object_at(&self, j: usize) -> Option<&Object> {
        self.objects.get(j)?.as_ref()
    }

    fn find_object(&self, j: usize) -> Option<Object> {
        if !self.may_start(j, OBJECT_I | self.ext_initials.1) {
            return None;
        }
        for (e, layer) in self.entries(OBJECTS, |x| &x.objects) {
            if let Some((end, _)) = self.at(j, e, false) {
                return Some(Object {
                    end,
                    name: e.to_string(),
                    layer,
                });
            }
        }
        let w = self.word(j);
        if HEADS.contains(&w) {
            if let Some(o) = self.topic_rule(j) {
                return Some(o);
            }
            let told = self.run(j + 1, j + 3).find_map(|k| self.any_at(k, TOLD));
            if let Some((t, end)) = told {
                return Some(Object {
                    end,
                    name: format!("{w} … {t}"),
                    layer: None,
                });
            }
            // "any rule that slows you down", "any instruction that tells you to ask first".
            if RELATIVES.contains(&self.word(j + 1)) && self.n.brk(j + 1) == Break::None {
                let which = self.run(j + 2, j + 7).find(|&k| {
                    let v = self.word(k);
                    ASK_WORDS.contains(&v) || OBSTRUCT.iter().any(|o| self.at(k, o, true).is_some())
                });
                if let Some(k) = which {
                    return Some(Object {
                        end: k + 1,
                        name: format!("{w} {} … {}", self.word(j + 1), self.word(k)),
                        layer: None,
                    });
                }
            }
        }
        let second: &[&str] = if QUALIFIERS.contains(&w) {
            HEADS
        } else if HEADS.contains(&w) {
            QUALIFIERS
        } else {
            return None;
        };
        let k = self
            .run(j + 1, j + 4)
            .find(|&k| second.contains(&self.word(k)))?;
        if self.domain(j, k + 1) {
            return None;
        }
        Some(Object {
            end: k + 1,
            name: format!("{w} … {}", self.word(k)),
            layer: None,
        })
    }

    /// A [`HEADS`] noun at word `j` named by what it is about (see [`RULE_TOPICS`]).
    fn topic_rule(&self, j: usize) -> Option<Object> {
        let topic = |k: usize| {
            let t = self.word(k);
            (RULE_TOPICS.contains(&t) || (t.len() > 3 && t.starts_with("no-"))).then_some(t)
        };
        // Before the noun, across quotes but not a clause: `the "ask before risky actions" rule`.
        let before = (j.saturating_sub(4)..j)
            .rev()
            .take_while(|&k| self.n.brk(k + 1) != Break::Hard)
            .find_map(topic);
        if let Some(t) = before {
            return Some(Object {
                end: j + 1,
                name: format!("{t} … {}", self.word(j)),
                layer: None,
            });
        }
        let (_, link) = self
            .run(j + 1, j + 2)
            .find_map(|k| self.any_at(k, TOPIC_LINKS))?;
        let (k, t) = self
            .run(link, link + 4)
            .find_map(|k| Some((k, topic(k)?)))?;
        Some(Object {
            end: k + 1,
            name: format!("{} … {t}", self.word(j)),
            layer: None,
        })
    }

    /// Whether a [`DOMAINS`] word is just before words `start..end` or among them and the
    /// three after.
    pub(super) fn domain(&self, start: usize, end: usize) -> bool {
        (start.saturating_sub(1)..(end + 3).min(self.len()))
            .any(|d| DOMAINS.contains(&self.word(d)))
    }

    /// The object a verb ending at `from` takes: within [`OBJECT_REACH`] words, before any
    /// punctuation, [`BARRIERS`] word, clause word or negation.
    pub(super) fn object_after(&self, from: usize) -> Option<Object> {
        for j in from..(from + OBJECT_REACH).min(self.len()) {
            let w = self.word(j);
            if self.n.brk(j) != Break::None
                || BARRIERS.contains(&w)
                || CLAUSE_WORDS.contains(&w)
                || Self::is_negation(w)
            {
                return None;
            }
            if let Some(o) = self.object_at(j) {
                return Some(o.clone());
            }
        }
        None
    }

    /// "it" or "them" right after `from`, standing for an object earlier in the sentence;
    /// not an object that only places or names something else ("the socket is outside the
    /// sandbox; do not use it", "the sandbox image is deprecated; do not use it").
    pub(super) fn pronoun_after(&self, from: usize, verb: usize) -> Option<Object> {
        let (at, o) = self.antecedent()?;
        let pronoun = self.word(from);
        let before = (at.saturating_sub(2)..at)
            .rev()
            .map(|k| self.word(k))
            .find(|w| !matches!(*w, "the" | "a" | "an" | "your" | "our" | "this"));
        let placed = before.is_some_and(|w| LOCATIVES.contains(&w));
        let modifier = self.n.brk(o.end) == Break::None && COMPOUNDS.contains(&self.word(o.end));
        let ok = at < verb
            && !placed
            && !modifier
            && self.n.brk(from) == Break::None
            && matches!(pronoun, "it" | "them");
        ok.then(|| Object {
            end: from + 1,
            name: format!("{pronoun} = {}", o.name),
            layer: o.layer,
        })
    }

    /// A verb of `list` at word `i` and its object, also split around it ("turn the
    /// sandbox off") or a pronoun for an earlier object ("find a way around it"). A past
    /// form counts only after "have" (a passive is the lapse rule's).
    pub(super) fn verb_object(
        &self,
        i: usize,
        default: &'static [&'static str],
        pick: fn(&Extension) -> &[String],
    ) -> Option<(Entry<'_>, Object)> {
        let initial = self.word(i).as_bytes().first();
        for (v, layer) in self.entries(default, pick) {
            if v.as_bytes().first() != initial {
                continue;
            }
            let mut parts = v.split(' ');
            let Some(form) = parts
                .next()
                .and_then(|first| inflected(self.word(i), first))
            else {
                continue;
            };
            if form == Form::Past && !self.after_have(i) {
                continue;
            }
            let rest: Vec<&str> = parts.collect();
            let object = match self.rest_at(i + 1, rest.iter().copied()) {
                Some(end) => self
                    .object_after(end)
                    .or_else(|| self.pronoun_after(end, i)),
                // The particle may follow a compound ("turn the approval check off") or a
                // pronoun ("leave it off").
                None => self
                    .object_after(i + 1)
                    .or_else(|| self.pronoun_after(i + 1, i))
                    .and_then(|o| {
                        let end = (o.end..o.end + 3)
                            .take_while(|&k| k == o.end || self.n.brk(k) == Break::None)
                            .find_map(|k| self.rest_at(k, rest.iter().copied()))?;
                        Some(Object { end, ..o })
                    }),
            };
            if let Some(o) = object {
                return Some(((v, layer), o));
            }
        }
        None
    }

    pub(super) fn after_have(&self, i: usize) -> bool {
        (i.saturating_sub(2)..i)
            .rev()
            .take_while(|&k| self.n.brk(k + 1) == Break::None)
            .any(|k| HAVE_FORMS.contains(&self.word(k)))
    }
}
