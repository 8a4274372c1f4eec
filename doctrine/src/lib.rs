#![doc = include_str!("../docs/overview.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use doctrine_claims::safety_claims;
pub use doctrine_core::{
    cache, fingerprint, introspect, BudgetBand, Choice, FactError, Formulation, Instruction,
    InstructionSource, InstructionStyle, LinePiece, Notice, NoticeKind, ParseChoiceError, Prepared,
    Prompt, Repo, Selector,
};
pub use doctrine_load::{limits, OverlayCapError, ShippedSkill, Skill, SkillOrigin, Skills};
/// The generated items are described in [`guide::layers`] (and the other guide pages), and
/// every manifest key in [`guide::reference`]. A malformed manifest is a compile error naming
/// `file:line:col` and the fix.
pub use doctrine_macros::doctrine;

/// The safety-claims tripwire: [`Tripwire`](tripwire::Tripwire), the check over one
/// instruction sentence; [`Patterns`](tripwire::Patterns), the built-in set;
/// [`scan`](tripwire::scan), which runs one over instructions and turns what it finds into
/// notices ([`safety_claims`] is `scan` with the built-in set and no manifest words). The
/// larger word-rule engine is the `claims` feature's `doctrine::claims::WordRules`.
pub mod tripwire {
    pub use doctrine_claims::Patterns;
    pub use doctrine_core::tripwire::*;
}

/// The word-rule engine for the safety-claims tripwire (the `doctrine-claims` crate, feature
/// `claims`): pass `&doctrine::claims::WordRules` to a generated `safety_claims_with`.
#[cfg(feature = "claims")]
pub use doctrine_claims as claims;

/// Exact token counts for OpenAI's `o200k_base` and `cl100k_base` (feature `tokens`):
/// [`Encoding::count`](tokens::Encoding::count), and `prompt.explain().tokens(encoding)` for
/// the layer table with a `tokens` column.
#[cfg(feature = "tokens")]
pub use doctrine_core::tokens;

/// Helpers for a user crate's `build.rs`.
///
/// Cargo rebuilds a crate when a file the macro embedded changes (the generated code
/// `include_bytes!`s each one), but stable Rust gives a proc-macro no way to watch a
/// directory, so adding a file to a `dir` layer, a skills directory or the directory a
/// `{role}` pattern reads would go unnoticed. Listing them here makes cargo rescan them on
/// every build.
pub mod build {
    /// `watch`, with the facade's `build` feature: the code generator reads the manifest.
    #[cfg(feature = "build")]
    pub use doctrine_codegen::watch;
    pub use doctrine_core::build::*;
}

#[doc(hidden)]
pub use doctrine_core::__choice_impls;
/// What generated code calls: the runtime's and the loader's. Not part of the API (it may
/// change in any release).
#[doc(hidden)]
pub mod __private {
    pub use doctrine_core::__private::*;
    pub use doctrine_load::__private::*;
}

/// The guide: one page per concept, then the manifest reference. Each page's Rust examples
/// are compiled and run as doctests against the manifests in `docs/examples/`.
pub mod guide {
    #[doc = include_str!("../docs/layers.md")]
    pub mod layers {}
    #[doc = include_str!("../docs/facts.md")]
    pub mod facts {}
    #[doc = include_str!("../docs/overlays.md")]
    pub mod overlays {}
    #[doc = include_str!("../docs/selectors.md")]
    pub mod selectors {}
    #[doc = include_str!("../docs/instructions.md")]
    pub mod instructions {}
    #[doc = include_str!("../docs/budgets.md")]
    pub mod budgets {}
    #[doc = include_str!("../docs/reminders.md")]
    pub mod reminders {}
    #[doc = include_str!("../docs/testing.md")]
    pub mod testing {}
    #[doc = include_str!("../docs/reference.md")]
    pub mod reference {}
}

#[cfg(feature = "testing")]
pub mod testing;
