//! Alternatives in `when` and `unless` (`[["a", "b"], ["c"]]`: a and b, or c), and `layer:`
//! on a selector layer (in when its selector chose a source and nobody opted out).

use std::path::Path;

use doctrine::introspect::{SectionState, Skip};

mod p {
    doctrine::doctrine!("../fixtures/any_of.toml");
}

fn compose(replace: bool, persona: &str, spine: Option<&str>) -> p::Prompt {
    let (selection, notices) = p::Selectors { spine }.resolve(Path::new("/nonexistent"));
    assert!(notices.is_empty(), "{notices:?}");
    p::compose()
        .flag(p::Flag::PersonaReplace, replace)
        .selection(&selection)
        .base(Some("Host base."))
        .persona(Some(persona))
        .finish()
}

#[test]
fn the_base_is_dropped_when_one_alternative_holds_entirely() {
    // Not `replace`: neither alternative holds.
    assert_eq!(compose(false, "P.", None).layer("base"), Some("Host base."));
    // `replace` with a body: the first holds.
    let p = compose(true, "P.", Some("on"));
    assert_eq!(p.layer("base"), None);
    assert_eq!(
        p.sections()[0].state,
        SectionState::Skipped(Skip::Unless("`persona_replace`, `layer:persona`"))
    );
    // `replace`, no body, the spine on: neither holds, the base stays.
    let p = compose(true, "", Some("on"));
    assert_eq!(p.as_str(), "Host base.\n\nKeep to the plan.");
    // `replace`, no body, the spine off: the second holds.
    let p = compose(true, "", None);
    assert_eq!(p.as_str(), "");
    assert_eq!(
        p.sections()[0].state,
        SectionState::Skipped(Skip::Unless("`persona_replace`, `!layer:spine`"))
    );
}

#[test]
fn a_when_with_alternatives_needs_one_of_them_whole() {
    let short = |flags: [(p::Flag, bool); 3]| {
        let mut c = p::compose();
        for (f, on) in flags {
            c = c.flag(f, on);
        }
        c.base(None).persona(None).finish()
    };
    use p::Flag::{Brief, Terse, Tiny};
    let on = |b, t, y| {
        short([(Brief, b), (Terse, t), (Tiny, y)])
            .layer("short")
            .is_some()
    };
    assert!(on(true, false, false));
    assert!(on(false, true, true));
    assert!(!on(false, true, false));
    assert!(!on(false, false, false));
    let p = short([(Brief, false), (Terse, true), (Tiny, false)]);
    assert_eq!(
        p.sections()[2].state,
        SectionState::Skipped(Skip::When("[brief] or [terse, tiny]"))
    );
}

/// `layer:spine` holds only while the spine composes: an opt-out or a selector path whose
/// file cannot be used turns it off just as `off` does, and the base goes.
#[test]
fn layer_on_a_selector_layer_is_off_when_opted_out_or_its_file_is_refused() {
    let spine_off = |p: &p::Prompt| {
        assert_eq!(p.layer("spine"), None);
        assert_eq!(
            p.layer("base"),
            None,
            "`replace` and `!layer:spine`: the base goes"
        );
    };
    // Selected (`on`), then opted out by the builder.
    let (selection, _) = p::Selectors { spine: Some("on") }.resolve(Path::new("/nonexistent"));
    let built = || {
        p::compose()
            .flag(p::Flag::PersonaReplace, true)
            .selection(&selection)
            .base(Some("Host base."))
            .persona(Some(""))
    };
    assert_eq!(built().finish().layer("base"), Some("Host base."));
    let opted = built().opt_out_spine(true).finish();
    spine_off(&opted);
    assert_eq!(
        opted.sections()[1].state,
        SectionState::Skipped(Skip::OptedOut)
    );
    // A path to a file that is not there: refused with a notice, and off.
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("absent.md");
    let (selection, notices) = p::Selectors {
        spine: Some(missing.to_str().unwrap()),
    }
    .resolve(dir.path());
    assert_eq!(notices.len(), 1, "{notices:?}");
    let refused = p::compose()
        .flag(p::Flag::PersonaReplace, true)
        .selection(&selection)
        .base(Some("Host base."))
        .persona(Some(""))
        .finish();
    spine_off(&refused);
    assert_eq!(
        refused.sections()[1].state,
        SectionState::Skipped(Skip::SelectorRefused("spine"))
    );
}
