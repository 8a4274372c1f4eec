//! Runtime types and composition for `doctrine`: what generated code calls and an agent
//! binary links. It reads no file and depends on no crate: reading a user's files
//! (overlays, selectors' files, user skills) is `doctrine-load`, and the code generator the
//! `doctrine!` macro calls is `doctrine-codegen`.
#![forbid(unsafe_code)]
#![deny(unreachable_pub)]

mod runtime;
mod unchanged;

// What users call: shown by rustdoc and kept stable. The root holds the three types every
// agent names; the rest is grouped by concept, as the facade shows it.
pub use runtime::build;
pub use runtime::choice::Choice;
pub use runtime::prepared::Prepared;
pub use runtime::prompt::Prompt;

/// Instructions: guidance given at run time, from users, projects and administrators, in
/// ascending [`Authority`](instructions::Authority), and how a manifest writes each one's
/// provenance line ([`Style`](instructions::Style)).
pub mod instructions {
    pub use crate::runtime::instruction::{Authority, Instruction, LinePiece, Style};
}

/// What a generated builder takes at run time beyond its own types, and the errors it gives
/// back: the [`Formulation`](input::Formulation) of section delimiters, a
/// [`Selector`](input::Selector)'s value, the [`ContextBand`](input::ContextBand) a
/// reminder announces, a [`Repo`](input::Repo) fact, a [`FactError`](input::FactError) from
/// `build()` and a [`ParseChoiceError`](input::ParseChoiceError) from parsing a choice.
pub mod input {
    pub use crate::runtime::choice::ParseChoiceError;
    pub use crate::runtime::fact::FactError;
    pub use crate::runtime::formulation::Formulation;
    pub use crate::runtime::reminder::ContextBand;
    pub use crate::runtime::repo::Repo;
    pub use crate::runtime::selector::Selector;
}

/// What a composed prompt and the selectors say about how the prompt was made: one
/// [`Section`](introspect::Section) per layer with its [`LayerInfo`](introspect::LayerInfo),
/// [`Origin`](introspect::Origin) and state (or why it was [`Skip`](introspect::Skip)ped),
/// the table [`Prompt::explain`] prints, the stretches a user's file supplied, the
/// [`Budget`](introspect::Budget), and the selectors' [`Doctor`](introspect::Doctor). Read
/// them, print them, match on them; generated code builds the static ones, and most can
/// gain a field or a variant in a minor release (`#[non_exhaustive]`).
pub mod introspect {
    pub use crate::runtime::boundary::{Escape, RunTimeText, Supplied};
    pub use crate::runtime::container::{Container, Wrap};
    pub use crate::runtime::explain::{approx_tokens, Explain};
    pub use crate::runtime::formulation::Title;
    pub use crate::runtime::header::Header;
    pub use crate::runtime::layer::{EmbeddedFile, LayerInfo, Origin, Provenance, Skip, Stability};
    pub use crate::runtime::list::{Counted, ListCut};
    pub use crate::runtime::model::ModelMatch;
    pub use crate::runtime::notice::{Notice, NoticeKind};
    pub use crate::runtime::prompt::{Budget, Unclosed};
    pub use crate::runtime::sanitize::{Cleaned, CleanedFrom, Removed};
    pub use crate::runtime::section::{Mark, Section, SectionState};
    pub use crate::runtime::selector::{Doctor, SelectorOrigin, SelectorReport};
    pub use crate::runtime::user_content::{UserContent, UserFile};
}

/// A prompt split at its cache tiers ([`Prompt::blocks`]) and shaped for providers:
/// [`anthropic_system`](cache::anthropic_system) (text blocks with `cache_control` marks)
/// and [`openai_string`](cache::openai_string) (one string), as plain data types; and a
/// prompt's [`Message`](cache::Message)s ([`Prompt::messages`]) shaped as whole requests:
/// [`anthropic_request`](cache::anthropic_request), [`openai_request`](cache::openai_request).
pub mod cache {
    pub use crate::runtime::blocks::{Block, Blocks};
    pub use crate::runtime::cache::{
        anthropic_request, anthropic_system, openai_request, openai_string, AnthropicMessage,
        AnthropicRequest, CacheControl, OpenAiItem, OpenAiRequest, SystemBlock,
    };
    pub use crate::runtime::compose::fingerprint;
    pub use crate::runtime::message::{Message, MessageInfo, MessagePart};
}

/// The safety-claims tripwire's check over one instruction sentence,
/// [`Tripwire`](tripwire::Tripwire), the [`ClaimWords`](tripwire::ClaimWords) a locked layer
/// adds and the [`Finding`](tripwire::Finding) it reports. Reading sentences, `scan` and the
/// tripwires themselves (the built-in `Patterns`, the word-rule engine) are the
/// `doctrine-claims` crate.
pub mod tripwire {
    pub use crate::runtime::notice::Finding;
    pub use crate::runtime::tripwire::{ClaimWords, Tripwire};
}

/// What generated code calls and users do not: it may change in any release, so it is kept
/// out of the documented API (as serde's `__private` is).
#[doc(hidden)]
pub mod __private {
    pub use crate::runtime::boundary::{boundaries, in_reach, marks, Guard};
    pub use crate::runtime::combination::{combination_name, combinations, Combinations, Digits};
    pub use crate::runtime::compose::{
        compose, compose_boxed, compose_plan, compose_plan_boxed, join, join_plan, Layout,
        MAX_INLINE_LAYERS,
    };
    pub use crate::runtime::escape::Escaping;
    pub use crate::runtime::fact::{
        choice, collect, given, need, present, required, required_choice, taken, value_text,
    };
    pub use crate::runtime::formulation::for_family;
    pub use crate::runtime::list::xml_dropped;
    pub use crate::runtime::list::{render_list, ItemPiece, List, ListStyle, Printed, Row, Rows};
    pub use crate::runtime::marker::{marked, marked_checked};
    pub use crate::runtime::model::best_match;
    pub use crate::runtime::part::{joined, Body, Check, Joined, Part, Seg, Trim, Value, NO_JOIN};
    pub use crate::runtime::plan::{
        resolve, Cond, ContentPlan, Gate, Inputs, LayerPlan, Overlay, OverlayPlan, Shipped,
        ShippedText, SuffixPlan, Test,
    };
    pub use crate::runtime::prepared::{
        compose_prepared, compose_prepared_boxed, prepare, prepared_fits,
    };
    pub use crate::runtime::prompt::{with_ceiling, with_model};
    pub use crate::runtime::sanitize::{cleaned, Clean, Cleaned, CleanedFrom, Removed};
    pub use crate::runtime::selector::{selected, Resolution, Selected};
    pub use crate::runtime::stage::{Blocked, Filled, Skipped, Slot, Stage, MAX_SKIPPED_SLOTS};
    pub use crate::runtime::user_content::{Rendered, UserValue};
    pub use crate::runtime::user_template::{
        measure_user, render_user, Measured, UserCheck, UserSeg, UserTemplate, MAX_REPEATED_BYTES,
    };
    pub use crate::runtime::wide::{debug_struct, next_text, owned_texts, read_empty, Bare};
    pub use crate::unchanged::content_hash;
}

/// What the crates built on the runtime (`doctrine-load`, `doctrine-codegen`) reach inside
/// it for: the plan's types the generator builds, the helpers they share so that compile
/// time, loading and composing agree. Not API: it may change in any release.
#[doc(hidden)]
pub mod __internals {
    pub use crate::runtime::selector::Picked;
    pub use crate::runtime::{
        boundary, combination, compose, container, emit, escape, fact, formulation, list, marker,
        model, part, plan, prompt, sanitize, user_content, user_template,
    };
}

#[cfg(feature = "tokens")]
pub mod tokens;
