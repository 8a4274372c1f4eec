//! Runtime types and composition for `doctrine`, plus (behind the default `codegen`
//! feature) the manifest model, its validation and the code generation that the
//! `doctrine!` macro calls.
//!
//! The runtime half depends only on `rustix` (on unix, to open overlay files beneath their
//! directory without following links out or blocking): an agent binary links little more
//! than what it composes with.
#![forbid(unsafe_code)]

mod runtime;

pub use runtime::build;
pub use runtime::choice::{Choice, ParseChoiceError};
pub use runtime::compose::{
    compose, compose_boxed, fingerprint, join, joined, Body, Joined, Part, Seg, INLINE_LAYERS_MAX,
    NO_JOIN,
};
pub use runtime::explain::{approx_tokens, Explain};
pub use runtime::fact::FactError;
pub use runtime::formulation::{Formulation, Title};
pub use runtime::instruction::{render_instructions, rendered_len, Instruction, InstructionSource};
pub use runtime::notice::{Notice, NoticeKind};
pub use runtime::repo::Repo;
pub use runtime::safety::{safety_claims, safety_claims_with, ClaimWords};

/// Formulation lookup that generated `formulation_for` calls.
pub mod formulation {
    pub use crate::runtime::formulation::{for_family, Formulation, Title};
}

/// Reading a user's overlay directory; generated `Overlay::load` calls it.
pub mod overlay {
    pub use crate::runtime::overlay::*;
}

/// The word lists [`safety_claims`] matches.
pub mod claim_words {
    pub use crate::runtime::safety::words::*;
}

/// Helpers that generated `Facts::from_pairs` calls.
pub mod fact {
    pub use crate::runtime::fact::{choice, collect, required, required_choice, FactError};
}
pub use runtime::layer::{LayerInfo, Origin, Provenance, Skip, Source, Tier};
pub use runtime::prompt::{Mark, Prompt, Section, SectionState};

#[cfg(feature = "codegen")]
pub mod codegen;
