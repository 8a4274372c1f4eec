#![doc = include_str!("../docs/links.md")]
#![doc = include_str!("../docs/overview.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The root: the macro, the three types every agent names, and one module per concept.
pub use doctrine_core::{cache, instructions, introspect, Choice, Prepared, Prompt};
/// The generated items are described in [`guide::layers`] (and the other guide pages), and
/// every manifest key in [`guide::reference`]. A malformed manifest is a compile error naming
/// `file:line:col` and the fix.
#[cfg(feature = "macro")]
pub use doctrine_macros::doctrine;

/// What a generated builder takes at run time beyond its own types, and the errors it gives
/// back: the [`Formulation`](input::Formulation) of section delimiters, a
/// [`Selector`](input::Selector)'s value, the [`ContextBand`](input::ContextBand) a
/// reminder announces, a [`Repo`](input::Repo) fact; a [`FactError`](input::FactError) from
/// `build()`, a [`ParseChoiceError`](input::ParseChoiceError) from parsing a choice, an
/// [`OverlayCapError`](input::OverlayCapError) from an overlay cap above the
/// [`limits`](input::limits) every read of a user's file keeps to.
pub mod input {
    pub use doctrine_core::input::*;
    pub use doctrine_load::{limits, OverlayCapError};
}

/// Skills: the [`ShippedSkill`](skills::ShippedSkill)s a manifest embeds, a session's
/// [`Skills`](skills::Skills) (shipped, and with the `skills` feature the user's own, loaded
/// from their directories), each [`Skill`](skills::Skill) with its
/// [`SkillOrigin`](skills::SkillOrigin).
pub mod skills {
    pub use doctrine_load::{ShippedSkill, Skill, SkillOrigin, Skills};
}

/// The safety-claims tripwire: [`Tripwire`](tripwire::Tripwire), the check over one
/// instruction sentence; [`Patterns`](tripwire::Patterns), the built-in set a manifest's
/// generated `safety_claims` runs; [`scan`](tripwire::scan), which runs any tripwire over
/// instructions and turns what it finds into notices. With the `claims` feature,
/// `WordRules`, the larger word-rule engine (the `doctrine-claims`
/// crate), for a generated `safety_claims_with`.
pub mod tripwire {
    #[cfg(feature = "claims")]
    pub use doctrine_claims::WordRules;
    pub use doctrine_claims::{normalise, scan, sentences, Break, Patterns, Words};
    pub use doctrine_core::tripwire::*;
}

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
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/layers.md")]
    pub mod layers {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/facts.md")]
    pub mod facts {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/overlays.md")]
    pub mod overlays {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/selectors.md")]
    pub mod selectors {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/instructions.md")]
    pub mod instructions {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/budgets.md")]
    pub mod budgets {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/reminders.md")]
    pub mod reminders {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/testing.md")]
    pub mod testing {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/cache.md")]
    pub mod cache {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/requests.md")]
    pub mod requests {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/generated.md")]
    pub mod generated {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/files.md")]
    pub mod files {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/errors.md")]
    pub mod errors {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/cli.md")]
    pub mod cli {}
    #[doc = include_str!("../docs/links.md")]
    #[doc = include_str!("../docs/reference.md")]
    pub mod reference {}
}

#[cfg(feature = "testing")]
pub mod testing;
