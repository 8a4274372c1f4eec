//! Runtime types and composition for `doctrine`, plus (behind the default `codegen`
//! feature) the manifest model, its validation and the code generation that the
//! `doctrine!` macro calls.
//!
//! The runtime half has no dependencies: an agent binary links only what it composes with.
#![forbid(unsafe_code)]

mod runtime;

pub use runtime::build;
pub use runtime::choice::{Choice, ParseChoiceError};
pub use runtime::compose::{compose, fingerprint, join, Body, Part, Seg};
pub use runtime::explain::{approx_tokens, Explain};
pub use runtime::fact::FactError;
pub use runtime::notice::{Notice, NoticeKind};

/// Helpers that generated `Facts::from_pairs` calls.
pub mod fact {
    pub use crate::runtime::fact::{choice, collect, required, required_choice, FactError};
}
pub use runtime::layer::{LayerInfo, Origin, Provenance, Skip, Source, Tier};
pub use runtime::prompt::{Prompt, Section, SectionState};

#[cfg(feature = "codegen")]
pub mod codegen;
