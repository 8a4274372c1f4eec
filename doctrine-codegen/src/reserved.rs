//! The names the generator gives the invoking module that a manifest could give too, which
//! validation refuses; `tests/it/reserved_names.rs` checks them against what it generates.
//! Its helpers sit in the hidden module `__doctrine`, and its other names where no manifest
//! name lands (lowercase modules and functions, its own structs' fields, `__` names).

/// The generator's own types, and the builder's generic parameter `Stage` (it would shadow
/// a type of that name): no choice, knob or fact enum, item or facts struct may take them.
pub const TYPES: &str = "Role Mode Flag Flags Knobs Facts FactsBuilder Overlay Selectors \
    Selection Compose Prompt Combination ReminderKind Reminder SessionState Stage ModelRule \
    ModelChoices";

/// The associated items of every generated enum that a variant could be named: no variant
/// may take them.
pub const VARIANTS: &str = "ALL NAMES";

/// The builder's own methods, in the order messages list them; `opt_out_<selector>` is one
/// per selector family, `max_bytes_<name>` one per list fact or instructions layer with a
/// byte budget. No slot layer may take them.
pub const METHODS: &str = "flags flag knobs overlay formulation family finish finish_stable \
    finish_volatile prepare finish_prepared selection opt_out opt_out_<selector> extra model \
    max_bytes_<name>";

/// The layer that `extra = true` adds (validation refuses a layer of that name beside it).
pub const EXTRA: &str = "extra";

/// Whether a generated type may not be named `name`.
pub fn type_clash(name: &str) -> bool {
    TYPES.split_whitespace().any(|t| t == name)
}

/// Whether an enum variant named `variant` would clash with an associated item.
pub fn variant_clash(variant: &str) -> bool {
    VARIANTS.split_whitespace().any(|v| v == variant)
}

/// Whether a slot layer's builder method would clash with one of `Compose`'s own.
pub fn method_clash(method: &str) -> bool {
    method != EXTRA && builder_methods().into_iter().any(|m| is_method(m, method))
}

/// Whether `method` is the builder's method `m`, a trailing `<selector>` or `<name>`
/// standing for any name.
pub fn is_method(m: &str, method: &str) -> bool {
    match m.split_once('<').filter(|_| m.ends_with('>')) {
        Some((head, _)) => method.strip_prefix(head).is_some_and(|name| {
            !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        }),
        None => m == method,
    }
}

/// The builder's own methods, for messages.
pub fn builder_methods() -> Vec<&'static str> {
    METHODS.split_whitespace().collect()
}
