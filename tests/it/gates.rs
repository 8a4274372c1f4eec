//! `when` lists and `unless`: each condition kind, negations, and seed 003's rule that a
//! `replace` persona with a non-empty body drops the host's prompt.

mod g {
    doctrine::doctrine!("../fixtures/gates.toml");
}

use g::{Facts, Flag, Mode};

fn facts<'a>(pairs: &[(&'a str, &'a str)]) -> Facts<'a> {
    Facts::from_pairs(Mode::Work, pairs.iter().copied()).unwrap()
}

#[test]
fn fact_absent_and_fact_not_equal() {
    const REVIEW: &str = "Ask the team lead to review.";
    let p = g::compose(facts(&[])).finish();
    assert_eq!(
        p.as_str(),
        format!("Work on the whole repository.|{REVIEW}|Shipped tone.")
    );
    let p = g::compose(facts(&[("scope", "src/")])).finish();
    assert_eq!(
        p.as_str(),
        format!("Work on src/ only.|{REVIEW}|Shipped tone.")
    );
    // `!speed=slow` holds when the fact is absent or has another value.
    let p = g::compose(facts(&[("scope", "src/"), ("speed", "fast")])).finish();
    assert_eq!(
        p.as_str(),
        format!("Work on src/ only.|{REVIEW}|Shipped tone.")
    );
    let p = g::compose(facts(&[("scope", "src/"), ("speed", "slow")])).finish();
    assert_eq!(p.as_str(), format!("{REVIEW}|Shipped tone."));
    let why = p.explain().to_string();
    assert!(
        why.contains("condition `!speed=slow` does not hold"),
        "{why}"
    );
}

#[test]
fn an_empty_optional_fact_is_absent_and_a_default_stands_in() {
    let given = |pairs: &[(&'static str, &'static str)]| g::compose(facts(pairs)).finish();
    // `Some("")` composes as `None`: the `!scope` layer, not `Work on  only.`.
    assert_eq!(given(&[("scope", "")]).as_str(), given(&[]).as_str());
    let typed = g::WorkFacts {
        scope: Some(""),
        speed: None,
        reviewer: None,
    };
    assert_eq!(g::compose(typed).finish().as_str(), given(&[]).as_str());
    // A default fills an absent or empty optional fact; a given value wins.
    for absent in [&[][..], &[("reviewer", "")][..]] {
        assert_eq!(
            given(absent).layer("review"),
            Some("Ask the team lead to review.")
        );
    }
    assert_eq!(
        given(&[("reviewer", "Ana")]).layer("review"),
        Some("Ask Ana to review.")
    );
}

#[test]
fn every_flag_of_a_list_must_hold() {
    let run = |verbose, strict| {
        g::compose(facts(&[("scope", "x")]))
            .flag(Flag::Verbose, verbose)
            .flag(Flag::Strict, strict)
            .finish()
            .layer("chatty")
            .is_some()
    };
    assert!(run(true, false));
    assert!(!run(true, true));
    assert!(!run(false, false));
    assert!(!run(false, true));
}

#[test]
fn unless_drops_a_layer_only_when_all_hold() {
    let host = |strict, persona: Option<&'static str>| {
        g::compose(facts(&[("scope", "x")]))
            .flag(Flag::Strict, strict)
            .host("HOST")
            .persona(persona)
            .finish()
    };
    assert_eq!(host(false, None).layer("host"), Some("HOST"));
    assert_eq!(host(true, None).layer("host"), Some("HOST"));
    assert_eq!(host(false, Some("P")).layer("host"), Some("HOST"));
    // Both hold: the host's prompt goes.
    let p = host(true, Some("P"));
    assert_eq!(p.layer("host"), None);
    assert_eq!(p.layer("persona_note"), Some("A persona speaks."));
    let why = p.explain().to_string();
    assert!(
        why.contains("`unless` holds: `strict`, `layer:persona`"),
        "{why}"
    );
    // An empty persona is not a persona: the host stays and no note is written.
    let p = host(true, Some(""));
    assert_eq!(p.layer("host"), Some("HOST"));
    assert_eq!(p.layer("persona_note"), None);
}

#[test]
fn an_overlay_field_that_is_set() {
    let mut overlay = g::Overlay::default();
    let p = g::compose(facts(&[])).overlay(&overlay).finish();
    assert_eq!(p.layer("tone_note"), None);
    // Blank is not set: composition trims the field, and the gate sees what it sees.
    overlay.tone = "  \n ".into();
    let p = g::compose(facts(&[])).overlay(&overlay).finish();
    assert_eq!(p.layer("tone"), Some("Shipped tone."));
    assert_eq!(p.layer("tone_note"), None);
    overlay.tone = "User tone.".into();
    let p = g::compose(facts(&[])).overlay(&overlay).finish();
    assert_eq!(p.layer("tone"), Some("User tone."));
    assert_eq!(p.layer("tone_note"), Some("A user tone is set."));
}

#[test]
fn exact_family_names_are_trimmed_and_case_blind() {
    use doctrine::input::Formulation;
    assert_eq!(g::formulation_for(" GPT-4o\n"), Formulation::Bare);
    assert_eq!(g::formulation_for("Claude"), Formulation::Tagged);
    // With `match = "exact"`, a longer name is another family.
    assert_eq!(g::formulation_for("gpt-4o-mini"), Formulation::Markdown);
    assert_eq!(g::formulation_for("claude-3"), Formulation::Markdown);
}

#[test]
fn without_a_budget_table_there_is_no_budget() {
    assert_eq!(g::compose(facts(&[])).finish().budget(), None);
}

mod trimmed {
    doctrine::doctrine!("../fixtures/trimmed_slot.toml");
}

proptest::proptest! {
    /// Empty means absent: an optional fact or slot given `""` composes as `None`, and a
    /// value that is not empty is used.
    #[test]
    fn an_empty_runtime_value_is_an_absent_one(s in "\\PC{0,12}") {
        let with = g::compose(facts(&[("scope", &s)])).persona(Some(s.as_str())).finish();
        let without = g::compose(facts(&[])).persona(None).finish();
        proptest::prop_assert_eq!(s.is_empty(), with.as_str() == without.as_str());
    }

    /// In a layer that trims, a value that is blank after trimming is absent too, and any
    /// other value is used trimmed.
    #[test]
    fn a_trimmed_slot_takes_the_trimmed_value(s in "[ \\t\\n]{0,3}\\PC{0,8}[ \\t\\n]{0,3}") {
        let p = trimmed::compose().note(Some(s.as_str())).finish();
        let t = s.trim();
        if t.is_empty() {
            proptest::prop_assert_eq!(p.as_str(), "Base.");
            proptest::prop_assert_eq!(p.layer("note_seen"), None);
        } else {
            // As given, but for the `\` of a boundary it held (`#` could start the prompt).
            let escaped: Vec<usize> = p.escapes().iter().map(|e| e.at).collect();
            let note = p.as_str().char_indices().filter(|(i, _)| !escaped.contains(i));
            let note: String = note.map(|(_, c)| c).collect::<String>();
            proptest::prop_assert_eq!(note, format!("Base.|{t}|A note was given."));
            proptest::prop_assert_eq!(p.layer("note_seen"), Some("A note was given."));
            proptest::prop_assert!(p.escapes().iter().all(|e| e.layer == "note"));
        }
    }
}

mod sections {
    doctrine::doctrine!("../fixtures/sections.toml");
}

#[test]
fn inline_sections_print_only_when_their_fact_or_flag_holds() {
    use sections::{compose, Facts, Flag};
    let at = |branch: Option<&'static str>, ticket: Option<&'static str>, brief: bool| {
        let facts = Facts {
            date: "May 1",
            branch,
            ticket,
        };
        compose(facts)
            .flag(Flag::Brief, brief)
            .finish()
            .into_string()
    };
    assert_eq!(
        at(None, None, true),
        "Today is May 1. No branch. Be brief. {braces}"
    );
    assert_eq!(
        at(Some("main"), None, true),
        "Today is May 1. Branch: main. Be brief. {braces}"
    );
    // Nested: the ticket prints only inside a given branch.
    assert_eq!(
        at(Some("main"), Some("T-7"), false),
        "Today is May 1. Branch: main (ticket T-7). {braces}"
    );
    assert_eq!(
        at(None, Some("T-7"), false),
        "Today is May 1. No branch. {braces}"
    );
    // Empty means absent, in sections too.
    assert_eq!(at(Some(""), None, true), at(None, None, true));
}

mod trimmed_sections {
    doctrine::doctrine!("../fixtures/trimmed_sections.toml");
}

/// In a layer that trims, the rendered text is trimmed, and a section tag alone on its
/// line takes the line with it: a section left out leaves no blank line, and a layer that
/// renders empty is left out with its title and separator.
#[test]
fn a_trimmed_layer_is_trimmed_once_rendered() {
    use trimmed_sections::{compose, Facts, Flag};
    let at = |more: bool, branch: Option<&'static str>| {
        compose(Facts { branch }).flag(Flag::More, more).finish()
    };
    let p = at(false, None);
    assert_eq!(
        p.as_str(),
        "Hello.\n\n---\n\nContext:\n  - no branch\n- done\n\n---\n\nB"
    );
    assert!(
        p.explain().to_string().contains("skipped: empty"),
        "{}",
        p.explain()
    );
    let p = at(true, Some("main"));
    assert_eq!(
        p.as_str(),
        "Hello.\nMore.\n\n---\n\nContext:\n- branch: main\n- done\n\n---\n\n## Extra\n\nOnly with more.\n\n---\n\nB"
    );
}
