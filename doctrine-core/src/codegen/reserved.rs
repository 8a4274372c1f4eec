//! Every identifier the generated code defines on its own, by where it lives. Validation
//! refuses a manifest name that would generate one of them in the same place, and the test
//! `tests/reserved_names.rs` walks the items generated for rich manifests and fails when
//! the generator emits a name that is missing here (or when a name here is never emitted).
//!
//! Names of the form `__x` cannot come from a manifest (names start with a letter), so
//! they never clash; they are listed anyway so the list is the whole truth.

/// Where a generated name lives, i.e. what it could clash with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Space {
    /// The generated module's type namespace (types, traits, modules) and items of the
    /// nested modules (`stage::Ready`). A choice, knob or fact enum, or a `<Role>Facts`
    /// struct, may not take these names.
    Type,
    /// The generated module's value namespace (consts, statics, functions), and items of
    /// nested modules (`prefix::LEN`).
    Value,
    /// Associated items and enum variants, as `Type::name`; `*::name` is on every
    /// generated enum (roles, choices, knobs, fact values), so no variant may take it.
    Associated,
    /// Struct fields, as `Type.field`, for the generator's own structs.
    Field,
    /// Generic parameters of the generator's own impls: they shadow a type of that name.
    Generic,
}

/// The reserved names. `{n}` stands for any number, `{name}` for any name (a manifest
/// name: letters, digits and `_`).
pub const RESERVED: &[(Space, &str)] = &[
    // Types of the generated module.
    (Space::Type, "Role"),
    (Space::Type, "Mode"),
    (Space::Type, "Flag"),
    (Space::Type, "Flags"),
    (Space::Type, "Knobs"),
    (Space::Type, "Facts"),
    (Space::Type, "FactsBuilder"),
    (Space::Type, "Overlay"),
    (Space::Type, "Selectors"),
    (Space::Type, "Selection"),
    (Space::Type, "Compose"),
    (Space::Type, "Prompt"),
    (Space::Type, "__ComposeState"),
    (Space::Type, "stage"),
    (Space::Type, "stage::Ready"),
    (Space::Type, "text"),
    (Space::Type, "sources"),
    (Space::Type, "prefix"),
    // With a flag or a knob: one setting of each closed set, for tests.
    (Space::Type, "Combination"),
    // `[reminders]`.
    (Space::Type, "ReminderKind"),
    (Space::Type, "Reminder"),
    (Space::Type, "SessionState"),
    // Values of the generated module.
    (Space::Value, "compose"),
    (Space::Value, "formulation_for"),
    // With an instructions layer only.
    (Space::Value, "safety_claims"),
    (Space::Value, "safety_claims_with"),
    (Space::Value, "SEPARATOR"),
    (Space::Value, "LAYER_COUNT"),
    (Space::Value, "LAYERS"),
    (Space::Type, "__plan"),
    (Space::Value, "__plan::PLAN"),
    (Space::Value, "__plan::GUARD"),
    (Space::Value, "DEFAULT_FORMULATION"),
    (Space::Value, "FACT_NAMES"),
    (Space::Value, "emit"),
    (Space::Value, "marked"),
    (Space::Value, "marked_checked"),
    (Space::Value, "SHIPPED_SKILLS"),
    (Space::Value, "prefix::known"),
    (Space::Value, "prefix::LEN"),
    (Space::Value, "prefix::FINGERPRINT"),
    // With declared `tiers`: a module per cached tier (named after it) whose prefix is
    // known, holding `LEN` and `FINGERPRINT` for a shared tier or a single-agent prompt.
    (Space::Type, "prefix::{name}"),
    (Space::Value, "prefix::{name}::LEN"),
    (Space::Value, "prefix::{name}::FINGERPRINT"),
    // On every generated enum.
    (Space::Associated, "*::ALL"),
    (Space::Associated, "*::NAMES"),
    (Space::Associated, "*::as_str"),
    // `Combination`.
    (Space::Associated, "Combination::all"),
    // `Flags`.
    (Space::Associated, "Flags::get"),
    (Space::Associated, "Flags::set"),
    (Space::Associated, "Flags::with"),
    // `Facts` and the `<Role>Facts` structs.
    (Space::Associated, "Facts::role"),
    (Space::Associated, "Facts::from_pairs"),
    (Space::Associated, "Facts::takes"),
    (Space::Associated, "Facts::__values"),
    (Space::Associated, "Facts::__lists"),
    (Space::Associated, "Facts::builder"),
    (Space::Associated, "FactsBuilder::build"),
    (Space::Associated, "FactsBuilder::with_{name}"),
    (Space::Associated, "Facts::__Never"),
    (Space::Associated, "*::REQUIRED"),
    (Space::Associated, "*::OPTIONAL"),
    // `Reminder`.
    (Space::Associated, "Reminder::render"),
    (Space::Associated, "Reminder::render_checked"),
    // `Overlay`.
    (Space::Associated, "Overlay::FIELDS"),
    (Space::Associated, "Overlay::SPEC"),
    (Space::Associated, "Overlay::load"),
    (Space::Associated, "Overlay::load_capped"),
    (Space::Associated, "Overlay::load_with_cap"),
    (Space::Associated, "Overlay::MAX_CAP_BYTES"),
    (Space::Associated, "Overlay::__OFFS"),
    (Space::Associated, "Overlay::__fields"),
    (Space::Associated, "Overlay::__offs"),
    (Space::Associated, "Overlay::__new"),
    // `Selectors` and `Selection` (a manifest with selector layers).
    (Space::Associated, "Selectors::SPECS"),
    (Space::Associated, "Selectors::resolve"),
    (Space::Associated, "Selection::doctor"),
    // The builder: a slot layer may not take these method names.
    (Space::Associated, "Compose::flags"),
    (Space::Associated, "Compose::flag"),
    (Space::Associated, "Compose::knobs"),
    (Space::Associated, "Compose::overlay"),
    (Space::Associated, "Compose::formulation"),
    (Space::Associated, "Compose::family"),
    (Space::Associated, "Compose::finish"),
    (Space::Associated, "Compose::finish_stable"),
    (Space::Associated, "Compose::finish_volatile"),
    (Space::Associated, "Compose::prepare"),
    (Space::Associated, "Compose::finish_prepared"),
    (Space::Associated, "Compose::__slot"),
    (Space::Associated, "Compose::__instructions"),
    (Space::Associated, "Compose::selection"),
    (Space::Associated, "Compose::opt_out"),
    // One per selector family: `opt_out_<selector>`.
    (Space::Associated, "Compose::opt_out_{name}"),
    // `extra = true` adds a slot layer named `extra` (validation refuses a layer of that
    // name beside it, so these are not refused for manifests without it).
    (Space::Type, "stage::NeedExtra"),
    (Space::Associated, "Compose::extra"),
    (Space::Associated, "__ComposeState::__with"),
    (Space::Associated, "__ComposeState::__join"),
    (Space::Associated, "__ComposeState::__ceiling"),
    (Space::Field, "Combination.role"),
    (Space::Field, "Combination.mode"),
    (Space::Field, "Combination.flags"),
    (Space::Field, "Combination.knobs"),
    // The builder's fields (a choice's is `choice_<name>`).
    (Space::Field, "Reminder.kind"),
    (Space::Field, "Reminder.text"),
    (Space::Field, "Compose.state"),
    (Space::Field, "Compose._stage"),
    (Space::Field, "__ComposeState.role"),
    (Space::Field, "__ComposeState.slots"),
    (Space::Field, "__ComposeState.instructions"),
    (Space::Field, "__ComposeState.facts"),
    (Space::Field, "__ComposeState.lists"),
    (Space::Field, "FactsBuilder.__role"),
    (Space::Field, "FactsBuilder.__borrow"),
    (Space::Field, "__ComposeState.flags"),
    (Space::Field, "__ComposeState.knobs"),
    (Space::Field, "__ComposeState.overlay"),
    (Space::Field, "__ComposeState.formulation"),
    (Space::Field, "__ComposeState.selection"),
    (Space::Field, "__ComposeState.opt_out"),
    (Space::Field, "__ComposeState.__borrow"),
    // The builder's stage parameter.
    (Space::Generic, "Stage"),
];

/// Whether `name` is reserved in `space`. `name` is written as in [`RESERVED`]; a variant
/// or method is looked up both under its type and under `*`.
pub fn is_reserved(space: Space, name: &str) -> bool {
    RESERVED
        .iter()
        .any(|&(s, pattern)| s == space && matches_pattern(pattern, name))
        || (space == Space::Associated
            && name.split_once("::").is_some_and(|(_, item)| {
                RESERVED.iter().any(|&(s, pattern)| {
                    s == space && matches_pattern(pattern, &format!("*::{item}"))
                })
            }))
}

/// Whether a reserved entry stands for many names (`{n}`, `{name}`).
pub fn is_pattern(entry: &str) -> bool {
    entry.contains("{n}") || entry.contains("{name}")
}

fn matches_pattern(pattern: &str, name: &str) -> bool {
    let (hole, fits): (&str, fn(char) -> bool) = if pattern.contains("{name}") {
        ("{name}", |c| c.is_alphanumeric() || c == '_')
    } else {
        ("{n}", |c| c.is_ascii_digit())
    };
    match pattern.split_once(hole) {
        None => pattern == name,
        Some((head, tail)) => name
            .strip_prefix(head)
            .and_then(|rest| rest.strip_suffix(tail))
            .is_some_and(|hole| !hole.is_empty() && hole.chars().all(fits)),
    }
}

/// Whether a generated type may be named `name`: neither one of the generator's types nor
/// its builder's generic parameter, which would shadow it.
pub fn type_clash(name: &str) -> bool {
    is_reserved(Space::Type, name) || is_reserved(Space::Generic, name)
}

/// Whether an enum variant named `variant` would clash with an associated item that every
/// generated enum has (`ALL`, `NAMES`).
pub fn variant_clash(variant: &str) -> bool {
    is_reserved(Space::Associated, &format!("*::{variant}"))
}

/// The layer that `extra = true` adds.
pub const EXTRA: &str = "extra";

/// Whether a slot layer's builder method would clash with one of `Compose`'s own. (A
/// layer named [`EXTRA`] clashes only beside `extra = true`, which validation checks.)
pub fn method_clash(method: &str) -> bool {
    method != EXTRA && is_reserved(Space::Associated, &format!("Compose::{method}"))
}

/// The builder's own methods, for messages: its hidden ones (`__slot`) are left out, as no
/// layer name can start with `_`.
pub fn builder_methods() -> Vec<&'static str> {
    RESERVED
        .iter()
        .filter_map(|&(s, n)| {
            (s == Space::Associated)
                .then_some(n)?
                .strip_prefix("Compose::")
                .filter(|m| !m.starts_with('_'))
                // A pattern reads as what it stands for.
                .map(|m| {
                    if m == "opt_out_{name}" {
                        "opt_out_<selector>"
                    } else {
                        m
                    }
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_and_wildcards() {
        assert!(is_reserved(Space::Associated, "FactsBuilder::with_today"));
        assert!(!is_reserved(Space::Associated, "FactsBuilder::with_"));
        assert!(!is_reserved(Space::Associated, "FactsBuilder::without_x"));
        assert!(variant_clash("ALL") && variant_clash("NAMES"));
        assert!(!variant_clash("All") && !variant_clash("Names"));
        assert!(!method_clash("extra") && is_reserved(Space::Associated, "Compose::extra"));
        assert!(type_clash("Stage") && type_clash("Flags") && !type_clash("Team"));
        assert!(method_clash("finish") && !method_clash("task"));
        assert!(builder_methods().contains(&"finish_volatile"));
        assert!(builder_methods().contains(&"opt_out_<selector>"));
        assert!(method_clash("opt_out_spine") && method_clash("opt_out_a1"));
        assert!(!method_clash("opt_out_") && !method_clash("opt_outer"));
    }
}
