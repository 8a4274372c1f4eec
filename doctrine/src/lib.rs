//! `doctrine` turns an agent's system prompt into compiled, typed, reviewable code.
//!
//! `doctrine::doctrine!("doctrine.toml")` reads a layer manifest and the markdown it names
//! while the crate compiles, and defines typed layer constants, a `Role` enum, one enum per
//! directory choice and per knob, `Flags`, an `Overlay` with no field for locked layers,
//! and a staged `compose(...)` builder. See the README for the manifest reference.
#![forbid(unsafe_code)]

pub use doctrine_core::{
    approx_tokens, build, compose, compose_boxed, fact, fingerprint, join, Body, Choice, Explain,
    FactError, Joined, LayerInfo, Origin, ParseChoiceError, Part, Prompt, Provenance, Section,
    SectionState, Seg, Skip, Source, Tier, NO_JOIN,
};
pub use doctrine_core::{
    claim_words, formulation, overlay, render_instructions, rendered_len, safety_claims,
    safety_claims_with, ClaimWords, Formulation, Instruction, InstructionSource, Mark, Notice,
    NoticeKind, Repo, Title,
};
pub use doctrine_macros::doctrine;
