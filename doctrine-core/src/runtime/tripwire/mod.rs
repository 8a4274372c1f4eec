//! A tripwire for instructions that try to loosen a locked layer: each such sentence
//! becomes a [`Notice`] carrying a [`Finding`]. Nothing is edited or dropped, and the
//! locked layers never depend on this: they are compiled in and have no overlay field.
//!
//! [`Tripwire`] is the check, [`scan`] runs one over instructions; the implementations
//! are the `doctrine-claims` crate's: the small built-in `Patterns` (every agent gets it,
//! as `doctrine::tripwire::Patterns`) and the word-rule engine (the facade's `claims`).

mod text;

pub use text::{normalise, sentences, Break, Words};

use super::instruction::Instruction;
use super::notice::{Finding, Notice, NoticeKind};

/// Words one locked layer of a manifest adds (its `claims` key). The generated
/// `safety_claims` passes one per such layer to the tripwire; a finding that one of them
/// matched names [`ClaimWords::layer`]. The generator stores entries [`normalise`]d.
///
/// What each list means is the tripwire's to decide; the built-in `Patterns` read them as the
/// manifest reference says: verbs loosen, objects are what is protected, actions are
/// forbidden unless permitted, phrases are claims wherever they appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClaimWords {
    /// The locked layer that declared the words.
    pub layer: &'static str,
    /// Verbs that loosen what the layer protects ("thaw").
    pub verbs: &'static [&'static str],
    /// What the layer protects ("release freeze").
    pub objects: &'static [&'static str],
    /// Actions the layer forbids ("deploy on a Friday").
    pub actions: &'static [&'static str],
    /// Phrases that are claims wherever they appear ("ops signed off").
    pub phrases: &'static [&'static str],
}

impl ClaimWords {
    /// Layer `layer`'s words, none yet: `ClaimWords::of("deploy").verbs(&["thaw"])`.
    pub const fn of(layer: &'static str) -> Self {
        ClaimWords {
            layer,
            verbs: &[],
            objects: &[],
            actions: &[],
            phrases: &[],
        }
    }

    /// With these verbs.
    pub const fn verbs(self, verbs: &'static [&'static str]) -> Self {
        ClaimWords { verbs, ..self }
    }

    /// With these objects.
    pub const fn objects(self, objects: &'static [&'static str]) -> Self {
        ClaimWords { objects, ..self }
    }

    /// With these actions.
    pub const fn actions(self, actions: &'static [&'static str]) -> Self {
        ClaimWords { actions, ..self }
    }

    /// With these phrases.
    pub const fn phrases(self, phrases: &'static [&'static str]) -> Self {
        ClaimWords { phrases, ..self }
    }

    /// The verbs, objects, actions and phrases, each [`normalise`]d (words written by hand
    /// need not be), without the entries nothing is left of.
    pub fn normalised(&self) -> [Vec<String>; 4] {
        [self.verbs, self.objects, self.actions, self.phrases].map(|list| {
            list.iter()
                .map(|e| normalise(e))
                .filter(|e| !e.is_empty())
                .collect()
        })
    }
}

/// A check over instruction sentences. Given one sentence as written (see [`sentences`])
/// and the manifest's [`ClaimWords`], the first thing in it that tries to loosen a locked
/// layer, if any. `Patterns` is the built-in set; a closure of the same shape is one too.
pub trait Tripwire {
    /// The first claim in `sentence`, if any.
    fn check(&self, sentence: &str, words: &[ClaimWords]) -> Option<Finding>;
}

impl<F: Fn(&str, &[ClaimWords]) -> Option<Finding>> Tripwire for F {
    fn check(&self, sentence: &str, words: &[ClaimWords]) -> Option<Finding> {
        self(sentence, words)
    }
}

/// Every sentence of the instructions that `tripwire` reports, as one [`Notice`] of kind
/// [`NoticeKind::SafetyClaim`] each, in input order: its subject names the instruction's
/// source and scope, [`Notice::sentence`] is the sentence as written and
/// [`Notice::finding`] what fired. The instructions are not modified and not dropped.
///
/// Cost: one pass over the text, plus what `tripwire` spends per sentence.
pub fn scan(
    instructions: &[Instruction<'_>],
    words: &[ClaimWords],
    tripwire: &dyn Tripwire,
) -> Vec<Notice> {
    let mut notices = Vec::new();
    for instruction in instructions {
        for sentence in sentences(instruction.text) {
            let Some(finding) = tripwire.check(sentence, words) else {
                continue;
            };
            let from = match finding.layer {
                Some(layer) => format!(", words locked layer `{layer}` adds"),
                None => String::new(),
            };
            let message = format!(
                "a sentence {} ({}{from}): \"{sentence}\"; it was kept as written, and the \
                 locked layers are unchanged",
                finding.rule, finding.matched
            );
            let subject = format!("{} instruction ({})", instruction.source, instruction.scope);
            notices.push(
                Notice::new(subject, NoticeKind::SafetyClaim, message)
                    .with_claim(sentence, finding),
            );
        }
    }
    notices
}

#[cfg(test)]
mod tests;
