//! Reading a user's files for `doctrine`'s runtime: the overlay loader (a user's overrides
//! from one directory, with a notice for every file it ignores), directories and files
//! opened without following links out of them or blocking, the files selectors name, user
//! skills (feature `skills`), frontmatter read with bounded nesting (feature `frontmatter`)
//! and name folding. The runtime (`doctrine-core`) composes from what this gives and reads
//! no file itself; the code generator reads the manifest's files with the same functions,
//! so compile time and run time read a file alike.
#![forbid(unsafe_code)]
#![deny(unreachable_pub)]

mod clean;
/// Frontmatter, read with bounded nesting: provenance at compile time, skills at either.
#[cfg(feature = "frontmatter")]
mod frontmatter;
mod lookalike;
mod one_line;
mod overlay;
mod safe_open;
mod selector;
mod skill;
mod skill_index;
#[cfg(feature = "skills")]
mod skill_load;
#[cfg(feature = "frontmatter")]
mod spelling;
mod template;
mod text;
mod user_dir;

// What users call, through the facade: shown by rustdoc and kept stable.
pub use overlay::OverlayCapError;
pub use skill::{ShippedSkill, Skill, SkillOrigin, Skills};

/// The loaders' bounds, named one way: `MAX_<THING>_BYTES` for a size,
/// `MAX_<THING>_CHARS` for a length in characters, `MAX_<THINGS>` for a count. A cap on a
/// file is its default: the manifest (`overlay_cap`) or the caller
/// (`Skills::load_user_capped`, `Overlay::load_capped`) may set another. The skill
/// loader's two need the `skills` feature.
pub mod limits {
    pub use crate::overlay::{MAX_OVERLAY_BYTES, MAX_SELECTOR_BYTES};
    pub use crate::skill::{MAX_SKILL_NAME_CHARS, MAX_WHEN_TO_USE_CHARS};
    #[cfg(feature = "skills")]
    pub use crate::skill_load::{MAX_SKILL_BYTES, MAX_SKILL_ENTRIES};
}

/// What generated code calls and users do not (the facade's `__private` adds it to the
/// runtime's): it may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::clean::{
        sanitize, sanitize_given, sanitize_instructions, sanitize_rows, CleanInstructions, CleanRow,
    };
    pub use crate::overlay::{
        load_overlay, load_overlay_at, OverlayFile, OverlaySpec, ShippedVersion,
    };
    pub use crate::selector::{resolve_selectors, SelectorSpec};
    pub use crate::skill_index::{render_skill_index, SkillField};
    pub use crate::template::{overlay_template, Dialect, NameKind, TemplateName, TemplateSpec};
    pub use crate::text::fold;
}

/// What the code generator (`doctrine-codegen`) reaches inside the loader for, so that it
/// reads, folds and opens files as the loader does. Not API: it may change in any release.
#[doc(hidden)]
pub mod __internals {
    pub mod clean {
        pub use crate::clean::*;
    }
    #[cfg(feature = "frontmatter")]
    pub mod frontmatter {
        pub use crate::frontmatter::*;
    }
    pub mod overlay {
        pub use crate::overlay::*;
    }
    pub mod safe_open {
        pub use crate::safe_open::*;
    }
    #[cfg(feature = "frontmatter")]
    pub mod spelling {
        pub use crate::spelling::*;
    }
    pub mod template {
        pub use crate::template::*;
    }
    pub mod text {
        pub use crate::text::*;
    }
}
