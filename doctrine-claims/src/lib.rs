//! The safety-claims tripwires of `doctrine`, each a
//! [`Tripwire`](doctrine_core::tripwire::Tripwire) that reports the
//! instruction sentences that try to loosen a locked layer: [`Patterns`], the small built-in
//! set every agent gets (`doctrine::tripwire::Patterns`, and [`safety_claims`]), and with the
//! `claims` feature `WordRules`, a word-rule engine with higher recall (`doctrine::tripwire::WordRules`):
//! pass `&WordRules` to a manifest's generated `safety_claims_with(&instructions, …)`, or to
//! [`scan`].
//!
//! A crate of its own, beside the runtime (which keeps the `Tripwire` trait, `scan` and
//! how a sentence is read), because the rules are data and decide nothing: a locked layer
//! is safe because it has no overlay field, not because a detector read the instructions.
//! The engine is large (about 3,700 lines, 80 word lists in `words`); on sentences written
//! by authors who had not seen its rules it reported 46–66% of the attacks (BENCHMARKS.md,
//! "safety_claims"), against the built-in set's lower figure, so an agent that wants the
//! extra recall opts in with the facade's `claims` feature.
#![forbid(unsafe_code)]
#![deny(unreachable_pub)]

mod patterns;
mod scan;
mod text;

pub use patterns::{safety_claims, Patterns};
pub use scan::scan;
pub use text::{normalise, sentences, Break, Words};

#[cfg(feature = "claims")]
mod engine;

#[cfg(feature = "claims")]
pub use engine::{words, WordRules};
