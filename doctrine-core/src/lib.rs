//! Runtime types and composition for `doctrine`, plus (behind the default `codegen`
//! feature) the manifest model, its validation and the code generation that the
//! `doctrine!` macro calls.
//!
//! The runtime half depends only on `rustix` (on unix, to open overlay files beneath their
//! directory without following links out or blocking): an agent binary links little more
//! than what it composes with.
#![forbid(unsafe_code)]
#![deny(unreachable_pub)]

mod runtime;

// What users call: shown by rustdoc and kept stable.
pub use runtime::build;
pub use runtime::choice::{Choice, ParseChoiceError};
pub use runtime::compose::fingerprint;
pub use runtime::explain::{approx_tokens, Explain};
pub use runtime::fact::FactError;
pub use runtime::formulation::{Formulation, Title};
pub use runtime::instruction::{
    render_instructions, render_instructions_styled, rendered_len, styled_len, Instruction,
    InstructionSource, InstructionStyle, LinePiece,
};
pub use runtime::layer::{LayerInfo, Origin, Provenance, Skip, Source, Tier};
pub use runtime::notice::{Notice, NoticeKind};
pub use runtime::prompt::{Budget, Mark, Prompt, Section, SectionState};
pub use runtime::reminder::BudgetBand;
pub use runtime::repo::Repo;
pub use runtime::selector::Selector;
pub use runtime::skill::{
    ShippedSkill, Skill, SkillOrigin, Skills, MAX_SKILL_NAME, MAX_WHEN_TO_USE,
};
#[cfg(feature = "skills")]
pub use runtime::skill_load::{MAX_SKILL_ENTRIES, SKILL_MAX_BYTES};
pub use runtime::tripwire::safety_claims;
pub use runtime::user_content::{UserContent, UserSource};

/// Reading a user's overlay directory: what generated `Overlay::load` is told about the
/// manifest, and the default cap per file.
pub mod overlay {
    pub use crate::runtime::overlay::{
        OverlayCapError, OverlayFile, OverlaySpec, Shipped, DEFAULT_MAX_BYTES,
    };
}

/// Selectors: a layer's source chosen at run time by a string the caller passes (see
/// [`Selector`] and the selectors guide). What generated `Selectors::resolve` is told about
/// the manifest, and what it gives back.
pub mod selector {
    pub use crate::runtime::selector::{
        Doctor, Resolution, SelectorReport, SelectorSpec, SourceKind, SELECTOR_MAX_BYTES,
    };
}

/// The safety-claims tripwire: [`Tripwire`](tripwire::Tripwire), the check over one
/// instruction sentence; [`Patterns`](tripwire::Patterns), the built-in set;
/// [`scan`](tripwire::scan), which runs one over instructions and turns what it finds into
/// notices ([`safety_claims`] is `scan` with the built-in set and no manifest words). The
/// larger word-rule engine is the `doctrine-claims` crate (the facade's `claims` feature).
pub mod tripwire {
    pub use crate::runtime::tripwire::{
        normalise, scan, sentences, Break, ClaimWords, Finding, Patterns, Tripwire, Words,
    };
}

/// What generated code calls and users do not: it may change in any release, so it is kept
/// out of the documented API (as serde's `__private` is).
#[doc(hidden)]
pub mod __private {
    pub use crate::runtime::compose::{
        compose, compose_boxed, compose_plan, compose_plan_boxed, join, join_plan, joined, Body,
        Joined, Part, Seg, INLINE_LAYERS_MAX, NO_JOIN,
    };
    pub use crate::runtime::fact::{
        choice, collect, given, need, present, render_list, render_rows, required, required_choice,
        taken, value_text, ItemPiece, ListStyle,
    };
    pub use crate::runtime::formulation::for_family;
    pub use crate::runtime::marker::{marked, marked_checked};
    pub use crate::runtime::overlay::{load_overlay, load_overlay_at};
    pub use crate::runtime::plan::{
        resolve, Cond, ContentPlan, Gate, Inputs, LayerPlan, Overlay, OverlayPlan, Shipped,
        ShippedText, SuffixPlan, Test,
    };
    pub use crate::runtime::prompt::with_ceiling;
    pub use crate::runtime::selector::{resolve_selectors, selected, Selected};
    pub use crate::runtime::skill_index::{render_skill_index, SkillField};
    pub use crate::runtime::stage::{Filled, Slot, SKIP_MAX};
    pub use crate::runtime::user_content::{Rendered, UserValue};
}

#[cfg(feature = "codegen")]
pub mod codegen;
/// Frontmatter, read with bounded nesting: provenance at compile time, skills at either.
#[cfg(any(feature = "codegen", feature = "skills"))]
pub(crate) mod frontmatter;
