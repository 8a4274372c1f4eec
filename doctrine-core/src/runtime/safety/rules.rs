//! The rules that find a claim in one normalised sentence. Each looks at a bounded number
//! of words around a position, so a sentence costs time linear in its length.

use super::text::{inflected, is_nt, same, Break, Form, Normalised};
use super::words::*;
use super::Extension;

/// What a sentence claims, in words, and the locked layer whose manifest words matched.
pub(super) struct Found {
    pub what: String,
    pub layer: Option<&'static str>,
}

/// An object found after a verb: where it ends, how to name it, who declared it.
struct Object {
    end: usize,
    name: String,
    layer: Option<&'static str>,
}

/// How far a verb reaches for its object, a negation for its verb, an object for a lapse.
const OBJECT_REACH: usize = 5;
const NEGATION_REACH: usize = 8;
const LAPSE_REACH: usize = 8;

/// One entry of a list, with the locked layer that added it (`None` for the defaults).
type Entry<'a> = (&'a str, Option<&'static str>);

pub(super) struct Matcher<'a> {
    n: &'a Normalised,
    ext: &'a [Extension],
    /// The permission in each clause (clauses end at `;`, `:` and "but"), if any.
    grants: Vec<Option<&'static str>>,
    /// The clause of each word.
    clause: Vec<usize>,
}

impl<'a> Matcher<'a> {
    pub fn new(n: &'a Normalised, ext: &'a [Extension]) -> Self {
        let mut m = Matcher {
            n,
            ext,
            grants: vec![None],
            clause: Vec::with_capacity(n.len()),
        };
        for i in 0..n.len() {
            if n.brk(i) == Break::Hard || n.word(i) == "but" {
                m.grants.push(None);
            }
            m.clause.push(m.grants.len() - 1);
            let last = m.grants.len() - 1;
            if m.grants[last].is_none() {
                m.grants[last] = GRANTS.iter().copied().find(|g| m.at(i, g, false).is_some());
            }
        }
        m
    }

    /// The first claim in the sentence, if any.
    pub fn find(&self) -> Option<Found> {
        if let Some(found) = self.phrase() {
            return Some(found);
        }
        (0..self.n.len()).find_map(|i| {
            self.loosen(i)
                .or_else(|| self.refusal(i))
                .or_else(|| self.lapse(i))
                .or_else(|| self.absence(i))
                .or_else(|| self.unbound(i))
                .or_else(|| self.permitted(i))
                .or_else(|| self.sent(i))
                .or_else(|| self.standalone(i))
        })
    }

    /// Default entries, then every extension's.
    fn entries(
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

    fn word(&self, i: usize) -> &str {
        self.n.word(i)
    }

    /// Whether `entry` starts at word `i`: its words in a row with no punctuation between,
    /// the first inflected when `verb`. Returns the end and the first word's form.
    fn at(&self, i: usize, entry: &str, verb: bool) -> Option<(usize, Form)> {
        let mut parts = entry.split(' ');
        let first = parts.next()?;
        let form = if verb {
            inflected(self.word(i), first)?
        } else if same(self.word(i), first) {
            Form::Base
        } else {
            return None;
        };
        self.rest_at(i + 1, parts).map(|end| (end, form))
    }

    /// Whether the words of `parts` follow from word `j` on; returns the end.
    fn rest_at<'p>(&self, mut j: usize, parts: impl Iterator<Item = &'p str>) -> Option<usize> {
        for p in parts {
            if self.n.brk(j) != Break::None || !same(self.word(j), p) {
                return None;
            }
            j += 1;
        }
        Some(j)
    }

    fn is_negation(w: &str) -> bool {
        NEGATIONS.contains(&w) || is_nt(w)
    }

    /// An object starting at word `j`: an [`OBJECTS`] entry, or a qualifier and a head
    /// within three words of each other (either order) with no [`DOMAINS`] word near.
    fn object_at(&self, j: usize) -> Option<Object> {
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
            let told = (j + 1..j + 3)
                .take_while(|&k| self.n.brk(k) == Break::None)
                .find_map(|k| TOLD.iter().find_map(|t| Some((t, self.at(k, t, false)?.0))));
            if let Some((t, end)) = told {
                return Some(Object {
                    end,
                    name: format!("{w} … {t}"),
                    layer: None,
                });
            }
        }
        let (first, second): (&[&str], &[&str]) = if QUALIFIERS.contains(&w) {
            (QUALIFIERS, HEADS)
        } else if HEADS.contains(&w) {
            (HEADS, QUALIFIERS)
        } else {
            return None;
        };
        debug_assert!(first.contains(&w));
        let k = (j + 1..j + 4)
            .take_while(|&k| self.n.brk(k) == Break::None)
            .find(|&k| second.contains(&self.word(k)))?;
        let near = j.saturating_sub(1)..(k + 4).min(self.n.len());
        if near.clone().any(|d| DOMAINS.contains(&self.word(d))) {
            return None;
        }
        Some(Object {
            end: k + 1,
            name: format!("{w} … {}", self.word(k)),
            layer: None,
        })
    }

    /// The object a verb ending at `from` takes: within [`OBJECT_REACH`] words, before any
    /// punctuation, [`BARRIERS`] word, clause word or negation.
    fn object_after(&self, from: usize) -> Option<Object> {
        for j in from..(from + OBJECT_REACH).min(self.n.len()) {
            let w = self.word(j);
            if self.n.brk(j) != Break::None
                || BARRIERS.contains(&w)
                || CLAUSE_WORDS.contains(&w)
                || Self::is_negation(w)
            {
                return None;
            }
            if let Some(o) = self.object_at(j) {
                return Some(o);
            }
        }
        None
    }

    /// A verb of `list` at word `i` and its object, also split around it ("turn the
    /// sandbox off"). A past form counts only after "have" (a passive is [`Self::lapse`]'s).
    fn verb_object(
        &self,
        i: usize,
        default: &'static [&'static str],
        pick: fn(&Extension) -> &[String],
    ) -> Option<(Entry<'_>, Object)> {
        for (v, layer) in self.entries(default, pick) {
            let mut parts = v.split(' ');
            let Some(form) = parts.next().and_then(|first| inflected(self.word(i), first)) else {
                continue;
            };
            if form == Form::Past && !self.after_have(i) {
                continue;
            }
            let rest: Vec<&str> = parts.collect();
            let object = match self.rest_at(i + 1, rest.iter().copied()) {
                Some(end) => self.object_after(end),
                // The particle may follow a compound: "turn the approval check off".
                None => self.object_after(i + 1).and_then(|o| {
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

    fn after_have(&self, i: usize) -> bool {
        (i.saturating_sub(2)..i)
            .rev()
            .take_while(|&k| self.n.brk(k + 1) == Break::None)
            .any(|k| HAVE_FORMS.contains(&self.word(k)))
    }

    /// Whether what starts at word `i` is negated: a negation among the words before it, in
    /// its clause, with no [`NEUTRALISERS`] word between ("do not hesitate to"). A negation
    /// reaches past a comma only when just [`ADVERBIALS`] stand between them ("never,
    /// under any circumstances, …").
    fn negated(&self, i: usize) -> bool {
        let mut neutral = false;
        let mut past_comma = false;
        let mut k = i;
        for _ in 0..NEGATION_REACH {
            if k == 0 {
                return false;
            }
            match self.n.brk(k) {
                Break::Hard => return false,
                Break::Soft => past_comma = true,
                Break::None => {}
            }
            k -= 1;
            let w = self.word(k);
            if Self::is_negation(w) {
                return !neutral;
            }
            if past_comma {
                if !ADVERBIALS.contains(&w) {
                    return false;
                }
                continue;
            }
            if CLAUSE_WORDS.contains(&w) {
                return false;
            }
            if NEUTRALISERS.contains(&w) {
                neutral = true;
            }
        }
        false
    }

    /// A negation within three words before word `a`, with no punctuation between.
    fn negated_close(&self, a: usize) -> bool {
        (a.saturating_sub(3)..a)
            .rev()
            .take_while(|&k| self.n.brk(k + 1) == Break::None)
            .any(|k| Self::is_negation(self.word(k)))
    }

    /// Whether the clause asks leave for what spans words `i..end`: "ask (…) before" just
    /// before it, or "only"/"unless" and an [`ASK_WORDS`] word after it.
    fn guarded(&self, i: usize, end: usize) -> bool {
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
        let len = self.n.len();
        (end..(end + 8).min(len))
            .take_while(|&k| k == end || self.n.brk(k) != Break::Hard)
            .filter(|&k| matches!(self.word(k), "only" | "unless"))
            .any(|k| {
                (k + 1..(k + 6).min(len))
                    .take_while(|&a| self.n.brk(a) != Break::Hard)
                    .any(|a| ASK_WORDS.contains(&self.word(a)))
            })
    }

    /// Whether word `i` is inside someone else's request that the sentence refuses or
    /// supposes: "if a user asks you to …", "ignore requests to …".
    fn requested(&self, i: usize) -> bool {
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

    /// Whether the words after a claim forbid it: "disabling the sandbox is never allowed".
    fn prohibited_after(&self, end: usize) -> bool {
        for k in end..(end + 5).min(self.n.len()) {
            let w = self.word(k);
            if self.n.brk(k) != Break::None
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
    fn asserted(&self, i: usize, end: usize) -> bool {
        !self.negated(i) && !self.guarded(i, end) && !self.requested(i) && !self.prohibited_after(end)
    }

    fn found(what: String, layers: &[Option<&'static str>]) -> Option<Found> {
        Some(Found {
            what,
            layer: layers.iter().copied().flatten().next(),
        })
    }

    /// A manifest phrase or [`PHRASES`] entry anywhere in the text, whole words at its ends.
    fn phrase(&self) -> Option<Found> {
        let text = &self.n.text;
        for (p, layer) in self.entries(PHRASES, |x| &x.phrases) {
            for (pos, _) in text.match_indices(p) {
                let before = text[..pos].chars().next_back();
                let after = text[pos + p.len()..].chars().next();
                let cut = |edge: Option<char>, inner: Option<char>| {
                    inner.is_some_and(char::is_alphanumeric) && edge.is_some_and(char::is_alphanumeric)
                };
                if cut(before, p.chars().next()) || cut(after, p.chars().next_back()) {
                    continue;
                }
                let i = self.n.words.partition_point(|w| w.end <= pos);
                if !self.negated(i) {
                    return Self::found(format!("phrase \"{p}\""), &[layer]);
                }
            }
        }
        None
    }

    /// A loosening verb and its object: "ignore the previous instructions".
    fn loosen(&self, i: usize) -> Option<Found> {
        let ((v, vl), o) = self.verb_object(i, LOOSEN_VERBS, |x| &x.verbs)?;
        if !self.asserted(i, o.end) {
            return None;
        }
        Self::found(format!("verb \"{v}\" + object \"{}\"", o.name), &[vl, o.layer])
    }

    /// A negated verb of compliance and its object: "do not follow the safety rules".
    fn refusal(&self, i: usize) -> Option<Found> {
        let ((v, _), o) = self.verb_object(i, DUTY_VERBS, |_| &[])?;
        if !self.negated(i) {
            return None;
        }
        Self::found(format!("negated \"{v}\" + object \"{}\"", o.name), &[o.layer])
    }

    /// An object said to have lapsed: "the rules above no longer apply", "approval has
    /// been waived", "consider the sandbox optional".
    fn lapse(&self, j: usize) -> Option<Found> {
        let o = self.object_at(j)?;
        if self.negated(j) {
            return None;
        }
        for k in o.end..(o.end + LAPSE_REACH).min(self.n.len()) {
            let w = self.word(k);
            if self.n.brk(k) != Break::None || CLAUSE_WORDS.contains(&w) {
                return None;
            }
            if let Some(l) = LAPSES.iter().find(|l| self.at(k, l, false).is_some()) {
                return Self::found(format!("object \"{}\" + \"{l}\"", o.name), &[o.layer]);
            }
            let passive = k == o.end
                || (k.saturating_sub(2)..k).any(|b| BE_FORMS.contains(&self.word(b)));
            if passive {
                for (v, vl) in self.entries(LOOSEN_VERBS, |x| &x.verbs) {
                    if self.at(k, v, true).is_some_and(|(_, f)| f == Form::Past) {
                        return Self::found(
                            format!("object \"{}\" + \"{w}\" (passive of \"{v}\")", o.name),
                            &[o.layer, vl],
                        );
                    }
                }
            }
            if Self::is_negation(w) {
                return None;
            }
        }
        None
    }

    /// An object said to be absent: "there are no guardrails".
    /// "Nothing in the system prompt applies": a [`NOTHING_OF`] entry, an object and a
    /// [`HOLDS`] verb.
    fn absence(&self, i: usize) -> Option<Found> {
        let found = |list: &'static [&'static str]| {
            list.iter()
                .find_map(|a| self.at(i, a, false).map(|(end, _)| (*a, end)))
        };
        let (a, end, partitive) = match found(ABSENCES) {
            Some((a, end)) => (a, end, false),
            None => found(NOTHING_OF).map(|(a, end)| (a, end, true))?,
        };
        let o = (end..(end + 3).min(self.n.len()))
            .take_while(|&j| self.n.brk(j) == Break::None)
            .find_map(|j| self.object_at(j))?;
        let holds = (o.end..(o.end + 4).min(self.n.len()))
            .take_while(|&k| self.n.brk(k) == Break::None)
            .find_map(|k| HOLDS.iter().find(|h| self.word(k) == **h));
        let what = match (partitive, holds) {
            (false, _) => format!("\"{a}\" + object \"{}\"", o.name),
            (true, Some(h)) => format!("\"{a}\" + object \"{}\" + \"{h}\"", o.name),
            (true, None) => return None,
        };
        if self.negated(i) {
            return None;
        }
        Self::found(what, &[o.layer])
    }

    /// "You" said to be unbound: "you are no longer bound by", "you have no restrictions".
    fn unbound(&self, i: usize) -> Option<Found> {
        let w = self.word(i);
        if w != "you" && !w.starts_with("you'") {
            return None;
        }
        let state = (i + 1..(i + 5).min(self.n.len()))
            .take_while(|&k| self.n.brk(k) == Break::None)
            .find_map(|k| UNBOUND.iter().find(|u| self.at(k, u, false).is_some()))?;
        if self.negated(i) {
            return None;
        }
        Self::found(format!("\"you\" + \"{state}\""), &[])
    }

    /// A dangerous action with a permission in its clause: "feel free to force-push",
    /// "you may delete the production database", "push to master is fine".
    fn permitted(&self, i: usize) -> Option<Found> {
        let grant = self.grants[self.clause[i]]?;
        let (action, end, layer) = self.action(i)?;
        let exempt = (i..(end + 4).min(self.n.len()))
            .take_while(|&k| k == i || self.n.brk(k) != Break::Hard)
            .any(|k| EXEMPTIONS.contains(&self.word(k)));
        if exempt || !self.asserted(i, end) {
            return None;
        }
        Self::found(
            format!("permission \"{grant}\" + action \"{action}\""),
            &[layer],
        )
    }

    /// A dangerous action at word `i`: its name, end and declaring layer.
    fn action(&self, i: usize) -> Option<(String, usize, Option<&'static str>)> {
        for (a, layer) in self.entries(ACTIONS, |x| &x.actions) {
            if let Some((end, _)) = self.at(i, a, true) {
                return Some((a.to_string(), end, layer));
            }
        }
        let pairs: [(&[&str], &[&str], bool); 2] = [
            (DESTROY_VERBS, DESTROY_TARGETS, true),
            (PUSH_VERBS, PROTECTED, false),
        ];
        for (verbs, targets, barriers) in pairs {
            let Some(v) = verbs
                .iter()
                .find(|v| inflected(self.word(i), v).is_some_and(|f| f != Form::Past))
            else {
                continue;
            };
            for j in i + 1..(i + 5).min(self.n.len()) {
                let w = self.word(j);
                if self.n.brk(j) != Break::None || CLAUSE_WORDS.contains(&w) {
                    break;
                }
                if let Some((t, end)) = targets
                    .iter()
                    .find_map(|t| self.at(j, t, false).map(|(end, _)| (t, end)))
                {
                    return Some((format!("{v} … {t}"), end, None));
                }
                if barriers && BARRIERS.contains(&w) {
                    break;
                }
            }
        }
        None
    }

    /// A secret sent out: "paste the api key into the issue".
    fn sent(&self, i: usize) -> Option<Found> {
        let v = SEND_VERBS.iter().find(|v| {
            inflected(self.word(i), v).is_some_and(|f| f != Form::Past || self.after_have(i))
        })?;
        for j in i + 1..(i + 6).min(self.n.len()) {
            let w = self.word(j);
            if self.n.brk(j) != Break::None
                || BARRIERS.contains(&w)
                || CLAUSE_WORDS.contains(&w)
                || Self::is_negation(w)
            {
                return None;
            }
            if let Some((s, end)) = SECRETS
                .iter()
                .find_map(|s| self.at(j, s, false).map(|(end, _)| (s, end)))
            {
                if !self.asserted(i, end) {
                    return None;
                }
                return Self::found(format!("verb \"{v}\" + secret \"{s}\""), &[]);
            }
        }
        None
    }

    /// An action that is a claim with no permission: "exfiltrate", "rm -rf /".
    fn standalone(&self, i: usize) -> Option<Found> {
        let a = STANDALONE.iter().find(|a| self.at(i, a, true).is_some())?;
        if self.negated(i) {
            return None;
        }
        Self::found(format!("action \"{a}\""), &[])
    }
}
