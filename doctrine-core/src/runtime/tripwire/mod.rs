//! A tripwire for instructions that try to loosen a locked layer: each such sentence
//! becomes a [`Notice`] carrying a [`Finding`]. Nothing is edited or dropped, and the
//! locked layers never depend on this: they are compiled in and have no overlay field.
//!
//! [`Tripwire`] is the check and [`ClaimWords`] what generated code hands it; how a
//! sentence is read, `scan` (which runs a tripwire over instructions) and the tripwires
//! themselves are the `doctrine-claims` crate's: the small built-in `Patterns` (every agent
//! gets it, as `doctrine::tripwire::Patterns`) and the word-rule engine (the facade's
//! `claims`).

use super::notice::Finding;

/// Words one locked layer of a manifest adds (its `claims` key). The generated
/// `safety_claims` passes one per such layer to the tripwire; a finding that one of them
/// matched names [`ClaimWords::layer`]. The generator stores entries normalised (as
/// `doctrine::tripwire::normalise` does).
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
}

/// A check over instruction sentences. Given one sentence as written (as
/// `doctrine::tripwire::sentences` splits them)
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
