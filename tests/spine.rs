//! The spine example (seed 003's rules): off is byte-identical to no spine, persona
//! append/replace, an empty body is no override, legs get the worker text, a persona can
//! opt out, and a bad spine file means no spine with a warning.

#[path = "../examples/spine/persona.rs"]
mod persona;

use persona::{spine, Mode, Persona, Role, Selector};

const BASE: &str = "Host base prompt.";

fn on() -> Selector {
    // An empty user directory: the bundled spine is used.
    Selector::On {
        user_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/examples/spine/prompts/none").into(),
    }
}

fn text(role: Role, persona: Option<Persona<'_>>, selector: &Selector) -> String {
    let (prompt, warnings) = persona::compose(role, BASE, persona, selector);
    assert!(warnings.is_empty(), "{warnings:?}");
    prompt.into_string()
}

#[test]
fn off_is_byte_identical_to_no_spine() {
    let body = Persona {
        body: "Persona.",
        mode: Mode::Append,
        spine: true,
    };
    assert_eq!(text(Role::Supervisor, None, &Selector::Off), BASE);
    assert_eq!(
        text(Role::Supervisor, Some(body), &Selector::Off),
        format!("{BASE}\n\nPersona.")
    );
}

#[test]
fn persona_modes_and_empty_bodies() {
    let spine = spine::text::SPINE;
    let append = Persona {
        body: "Persona.",
        mode: Mode::Append,
        spine: true,
    };
    let replace = Persona {
        mode: Mode::Replace,
        ..append
    };
    let empty = Persona {
        body: "  ",
        mode: Mode::Replace,
        spine: true,
    };
    assert_eq!(
        text(Role::Supervisor, None, &on()),
        format!("{BASE}\n\n{spine}")
    );
    assert_eq!(
        text(Role::Supervisor, Some(append), &on()),
        format!("{BASE}\n\n{spine}\n\nPersona.")
    );
    assert_eq!(
        text(Role::Supervisor, Some(replace), &on()),
        format!("{spine}\n\nPersona.")
    );
    // An empty body cannot blank the prompt by omission.
    assert_eq!(
        text(Role::Supervisor, Some(empty), &on()),
        format!("{BASE}\n\n{spine}")
    );
}

#[test]
fn legs_get_the_worker_spine_and_personas_can_opt_out() {
    assert_eq!(
        text(Role::Leg, None, &on()),
        format!("{BASE}\n\n{}", spine::text::SPINE_WORKER)
    );
    let opted_out = Persona {
        body: "Persona.",
        mode: Mode::Append,
        spine: false,
    };
    assert_eq!(
        text(Role::Leg, Some(opted_out), &on()),
        format!("{BASE}\n\nPersona.")
    );
}

#[test]
fn user_copies_and_paths_replace_the_bundled_spine() {
    let user_dir = Selector::On {
        user_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/examples/spine/user-dir").into(),
    };
    assert!(text(Role::Supervisor, None, &user_dir).contains("(my version)"));
    // The user's supervisor copy does not reach legs.
    assert!(text(Role::Leg, None, &user_dir).ends_with(spine::text::SPINE_WORKER));
    let dir = tempfile::tempdir().unwrap();
    let custom = dir.path().join("mine.md");
    std::fs::write(&custom, "Be brief.\n").unwrap();
    assert_eq!(
        text(Role::Leg, None, &Selector::Path(custom)),
        format!("{BASE}\n\nBe brief.")
    );
}

#[test]
fn a_bad_spine_file_means_no_spine_and_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.md");
    std::fs::write(&big, "x".repeat(64 * 1024 + 1)).unwrap();
    let empty = dir.path().join("empty.md");
    std::fs::write(&empty, "\n").unwrap();
    for (path, why) in [
        (big, "over the 65536-byte limit"),
        (empty, "it is empty"),
        (dir.path().join("missing.md"), "cannot read it"),
    ] {
        let (prompt, warnings) =
            persona::compose(Role::Supervisor, BASE, None, &Selector::Path(path));
        assert_eq!(prompt.as_str(), BASE);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains(why), "{warnings:?}");
    }
}

/// Seed 003's table, every combination: role × selector × no persona, append or replace ×
/// empty, blank or real body × opt-out, against the seed's rules written out here.
#[test]
fn every_persona_combination_matches_the_seed_rules() {
    for role in [Role::Supervisor, Role::Leg] {
        for selector_on in [false, true] {
            let selector = if selector_on { on() } else { Selector::Off };
            let mut personas = vec![None];
            for mode in [Mode::Append, Mode::Replace] {
                for body in ["", "  \n", "Persona."] {
                    for opt_in in [true, false] {
                        personas.push(Some(Persona {
                            body,
                            mode,
                            spine: opt_in,
                        }));
                    }
                }
            }
            for persona in personas {
                let body = persona.map(|p| p.body.trim()).filter(|b| !b.is_empty());
                let spine_on = selector_on && persona.is_none_or(|p| p.spine);
                let replace = persona.is_some_and(|p| p.mode == Mode::Replace) && body.is_some();
                let spine_text = match role {
                    Role::Supervisor => spine::text::SPINE,
                    Role::Leg => spine::text::SPINE_WORKER,
                };
                let expected: Vec<&str> = [
                    (!replace).then_some(BASE),
                    spine_on.then_some(spine_text),
                    body,
                ]
                .into_iter()
                .flatten()
                .collect();
                assert_eq!(
                    text(role, persona, &selector),
                    expected.join("\n\n"),
                    "{role:?} on={selector_on} {persona:?}"
                );
            }
        }
    }
}
