//! `doctrine` turns an agent's system prompt into compiled, typed, reviewable code.
//!
//! `doctrine::doctrine!("doctrine.toml")` reads a layer manifest and the markdown it names
//! while the crate compiles, and defines typed layer constants, a `Role` enum, one enum per
//! directory choice and per knob, `Flags`, an `Overlay` with no field for locked layers,
//! and a staged `compose(...)` builder. See the README for the manifest reference.
#![forbid(unsafe_code)]

pub use doctrine_core::{
    approx_tokens, build, claim_words, fingerprint, overlay, render_instructions, rendered_len,
    safety_claims, Choice, Explain, FactError, Formulation, Instruction, InstructionSource,
    LayerInfo, Mark, Notice, NoticeKind, Origin, ParseChoiceError, Prompt, Provenance, Repo,
    Section, SectionState, Skip, Source, Tier, Title,
};
pub use doctrine_macros::doctrine;

/// What generated code calls; not part of the API (it may change in any release).
#[doc(hidden)]
pub use doctrine_core::__private;
