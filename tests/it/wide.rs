//! The structs whose `PartialEq` is written out field by field (a derive nested as deep as
//! the struct is wide, and overflowed rustc's stack at a few thousand fields): equality
//! still sees every field. And `unless` over several conditions, which are an array rather
//! than an `&&` chain, still skips only when every one holds.

mod w {
    doctrine::doctrine!("../fixtures/wide.toml");
}

use doctrine::input::ContextBand;
use w::{
    Facts, Flag, Flags, Knobs, Overlay, Pace, Selectors, SessionState, Speed, Tone, ToolsItem,
};

/// `base` equals itself and differs from each of `changed`, which each change one field.
#[track_caller]
fn each_field_counts<T: PartialEq + Clone + std::fmt::Debug>(base: T, changed: &[T]) {
    assert_eq!(base, base.clone());
    for (i, other) in changed.iter().enumerate() {
        assert_ne!(&base, other, "field {i}");
        assert_ne!(other, &base, "field {i}");
        assert_eq!(other, &other.clone(), "field {i}");
    }
}

#[test]
fn equality_sees_every_field() {
    let flags = Flags::default();
    each_field_counts(
        flags,
        &[Flag::A, Flag::B, Flag::C].map(|f| flags.with(f, !flags.get(f))),
    );
    each_field_counts(
        Knobs::default(),
        &[
            Knobs {
                tone: Tone::Warm,
                ..Knobs::default()
            },
            Knobs {
                pace: Pace::Brisk,
                ..Knobs::default()
            },
        ],
    );
    let facts = Facts {
        scope: Some("src/"),
        speed: Some(Speed::Fast),
        tools: &[],
    };
    let item = ToolsItem {
        name: "grep",
        when: "searching",
    };
    each_field_counts(
        facts,
        &[
            Facts {
                scope: None,
                ..facts
            },
            Facts {
                speed: Some(Speed::Slow),
                ..facts
            },
            Facts {
                tools: &[item],
                ..facts
            },
        ],
    );
    each_field_counts(
        item,
        &[
            ToolsItem {
                name: "find",
                ..item
            },
            ToolsItem { when: "", ..item },
        ],
    );
    each_field_counts(
        Overlay::default(),
        &[
            Overlay {
                base: "Mine.".into(),
                ..Overlay::default()
            },
            Overlay {
                style: "More.".into(),
                ..Overlay::default()
            },
            Overlay {
                style_off: true,
                ..Overlay::default()
            },
        ],
    );
    each_field_counts(
        Selectors::default(),
        &[
            Selectors {
                spine: Some("on"),
                ..Selectors::default()
            },
            Selectors {
                legs: Some("off"),
                ..Selectors::default()
            },
        ],
    );
    let state = SessionState::default();
    each_field_counts(
        state,
        &[
            SessionState {
                changed: &["a.rs"],
                ..state
            },
            SessionState {
                compacted: true,
                ..state
            },
            SessionState {
                context: ContextBand::Percent80,
                ..state
            },
        ],
    );
}

/// `Debug` of a generated enum (written out from an array of names, since the derive's
/// match over every variant took rustc memory growing with their square) prints the variant.
#[test]
fn debug_prints_the_variant() {
    assert_eq!(format!("{:?}", [Flag::A, Flag::C]), "[A, C]");
    assert_eq!(format!("{:?} {:?}", Tone::Warm, Pace::Calm), "Warm Calm");
    assert_eq!(format!("{:?}", Speed::Fast), "Fast");
    let kinds = w::ReminderKind::ALL;
    assert_eq!(
        format!("{kinds:?}"),
        "[FileChanged, Compacted, ContextBudget]"
    );
    assert_eq!(
        format!("{:?}", Knobs::default()),
        "Knobs { tone: Plain, pace: Calm }"
    );
}

/// `Overlay`'s `Debug`, `Clone` and `Default` go through its fields as arrays (written per
/// field, they cost rustc 100 MB each at 10,000 fields); they behave as the derives did.
#[test]
fn overlay_traits_behave_as_derived() {
    let o = Overlay {
        base: "Mine \"own\".".into(),
        style_off: true,
        ..Overlay::default()
    };
    assert_eq!(
        format!("{o:?}"),
        r#"Overlay { base: "Mine \"own\".", style: "", style_off: true }"#
    );
    assert_eq!(o.clone(), o);
    assert_eq!(o.clone().base, "Mine \"own\".");
    let empty = Overlay {
        base: String::new(),
        style: String::new(),
        style_off: false,
    };
    assert_eq!(Overlay::default(), empty);
}

#[test]
fn unless_skips_only_when_every_condition_holds() {
    let all = Flags {
        a: true,
        b: true,
        c: true,
    };
    let text = |flags: Flags| {
        w::compose(Facts {
            scope: None,
            speed: None,
            tools: &[],
        })
        .flags(flags)
        .finish()
        .as_str()
        .to_string()
    };
    assert_eq!(text(all), "Base.|Style.");
    for f in [Flag::A, Flag::B, Flag::C] {
        assert_eq!(
            text(all.with(f, false)),
            "Base.|Style.|Not every flag is on.",
            "{f} off"
        );
    }
}
