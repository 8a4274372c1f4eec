//! The modes example: a stable prefix that no volatile fact can move, a fixed volatile
//! order, typed facts, and prefixes known at compile time pinned by constants.

use proptest::prelude::*;

mod modes {
    doctrine::doctrine!("../../examples/modes/doctrine.toml");
}

use modes::{Facts, Mode};

/// Every fact a mode takes, each with a value that shows where it lands.
fn all_facts(mode: Mode) -> Vec<(&'static str, String)> {
    Facts::takes(mode)
        .iter()
        .map(|&name| {
            let value = match name {
                "extramile" => "on".to_string(),
                "nudge" => "wrapup".to_string(),
                other => format!("<{other}>"),
            };
            (name, value)
        })
        .collect()
}

fn render(mode: Mode, facts: &[(&str, String)], extra: Option<&str>) -> modes::Prompt {
    let facts = Facts::from_pairs(mode, facts.iter().map(|(k, v)| (*k, v.as_str()))).unwrap();
    modes::compose(facts).extra(extra).finish()
}

#[test]
fn every_mode_with_every_fact_is_pinned() {
    for &mode in Mode::ALL {
        let p = render(mode, &all_facts(mode), Some("<extra>"));
        let shown = format!(
            "=== stable ({} bytes) ===\n{}\n=== volatile ({} bytes) ===\n{}\n",
            p.stable().len(),
            p.stable(),
            p.volatile().len(),
            p.volatile()
        );
        insta::assert_snapshot!(format!("mode-{mode}"), shown);
    }
}

#[test]
fn volatile_order_is_fixed_and_extra_comes_last() {
    let p = render(Mode::Plan, &all_facts(Mode::Plan), Some("<extra>"));
    let order: Vec<&str> = p
        .sections()
        .iter()
        .filter(|s| {
            s.info.stability == doctrine::introspect::Stability::Volatile && p.text_of(s).is_some()
        })
        .map(|s| s.info.name)
        .collect();
    assert_eq!(
        order,
        [
            "today",
            "room",
            "personality",
            "extramile",
            "mcp",
            "nudge_wrapup",
            "extra"
        ]
    );
    assert!(p.volatile().ends_with("<extra>"));
}

#[test]
fn split_finishes_match_the_whole() {
    for &mode in Mode::ALL {
        let facts = all_facts(mode);
        let f = Facts::from_pairs(mode, facts.iter().map(|(k, v)| (*k, v.as_str()))).unwrap();
        let whole = modes::compose(f).extra(Some("e")).finish();
        assert_eq!(
            modes::compose(f).extra(Some("e")).finish_stable(),
            whole.stable()
        );
        assert_eq!(
            modes::compose(f).extra(Some("e")).finish_volatile(),
            whole.volatile()
        );
    }
}

#[test]
fn known_prefixes_match_their_constants() {
    let p = render(Mode::Baseline, &[], None);
    assert_eq!(p.stable().len(), modes::prefix::BASELINE_LEN);
    assert_eq!(p.stable_fingerprint(), modes::prefix::BASELINE_FINGERPRINT);
    assert_eq!(
        modes::prefix::known(Mode::Baseline),
        Some((
            modes::prefix::BASELINE_LEN,
            modes::prefix::BASELINE_FINGERPRINT
        ))
    );
    // Every other mode's prefix carries stable facts, so it is not known in advance.
    for &mode in Mode::ALL.iter().filter(|m| **m != Mode::Baseline) {
        assert_eq!(modes::prefix::known(mode), None, "{mode}");
    }
}

#[test]
fn typed_facts_build_the_same_prompt_as_pairs() {
    let typed = modes::ExecFacts {
        root: "/repo",
        platform: "linux",
        shell: Some("bash"),
        pack: "{}",
        today: Some("2026-01-01"),
        extramile: Some(modes::Extramile::On),
        mcp: None,
    };
    let pairs = [
        ("root", "/repo"),
        ("platform", "linux"),
        ("shell", "bash"),
        ("pack", "{}"),
        ("today", "2026-01-01"),
        ("extramile", "on"),
    ];
    let from_pairs = Facts::from_pairs(Mode::Exec, pairs).unwrap();
    assert_eq!(Facts::from(typed), from_pairs);
    assert_eq!(
        modes::compose(typed).extra(None).finish(),
        modes::compose(from_pairs).extra(None).finish()
    );
}

/// A mode chosen at run time: each fact through its typed setter, checked against the mode
/// when built, with an error value naming what is wrong.
#[test]
fn a_mode_chosen_at_run_time_gets_typed_facts_through_the_builder() {
    let mode: Mode = "exec".parse().unwrap();
    let built = Facts::builder(mode)
        .with_root("/repo")
        .with_platform("linux")
        .with_shell("bash")
        .with_pack("{}")
        .with_today("2026-01-01")
        .with_extramile(modes::Extramile::On)
        .build()
        .unwrap();
    let pairs = [
        ("root", "/repo"),
        ("platform", "linux"),
        ("shell", "bash"),
        ("pack", "{}"),
        ("today", "2026-01-01"),
        ("extramile", "on"),
    ];
    assert_eq!(built, Facts::from_pairs(Mode::Exec, pairs).unwrap());
    // A required fact not given, and one the mode does not take: each an error naming it.
    let missing = Facts::builder(mode)
        .with_root("/repo")
        .with_pack("{}")
        .build();
    assert_eq!(
        missing,
        Err(doctrine::input::FactError::Missing {
            role: "exec",
            fact: "platform"
        })
    );
    let foreign = Facts::builder(Mode::Chat)
        .with_root("/repo")
        .with_platform("linux")
        .with_pack("{}")
        .build()
        .unwrap_err();
    assert_eq!(
        foreign.to_string(),
        "`chat` does not take fact `pack`; it takes: root, platform, shell, overview, today, room, personality, mcp"
    );
}

#[test]
fn untyped_facts_are_checked_at_run_time_with_clear_errors() {
    let err = |mode, pairs: &[(&str, &str)]| {
        Facts::from_pairs(mode, pairs.iter().copied())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(Mode::Exec, &[("root", "/r"), ("platform", "linux")]),
        "`exec` requires fact `pack`"
    );
    assert_eq!(
        err(Mode::Baseline, &[("root", "/r")]),
        "`baseline` does not take fact `root`; it takes: today"
    );
    assert_eq!(
        err(
            Mode::Plan,
            &[("root", "/r"), ("platform", "l"), ("nudge", "soon")]
        ),
        "unknown nudge `soon`; valid values: wrapup, force"
    );
    assert_eq!(
        err(Mode::Scout, &[("scope", "a"), ("scope", "b")]),
        "fact `scope` is given twice"
    );
    assert_eq!(
        "execute".parse::<Mode>().unwrap_err().to_string(),
        "unknown mode `execute`; valid values: chat, plan, exec, apply, scout, baseline"
    );
}

/// Arbitrary text, including separators, braces and newlines.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-z{}\\n -]{0,40}", ".{0,60}"]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn volatile_facts_never_move_the_stable_prefix(
        today in proptest::option::of(any_text()),
        room in proptest::option::of(any_text()),
        personality in proptest::option::of(any_text()),
        mcp in proptest::option::of(any_text()),
        extramile in proptest::option::of(prop_oneof![Just(modes::Extramile::On), Just(modes::Extramile::Off)]),
        nudge in proptest::option::of(prop_oneof![Just(modes::Nudge::Wrapup), Just(modes::Nudge::Force)]),
        extra in proptest::option::of(any_text()),
    ) {
        let stable_facts = modes::PlanFacts {
            root: "/repo",
            platform: "linux",
            shell: Some("zsh"),
            overview: Some("A web service."),
            today: None,
            room: None,
            personality: None,
            extramile: None,
            mcp: None,
            nudge: None,
        };
        let base = modes::compose(stable_facts).extra(None).finish();
        let turn = modes::PlanFacts {
            today: today.as_deref(),
            room: room.as_deref(),
            personality: personality.as_deref(),
            mcp: mcp.as_deref(),
            extramile,
            nudge,
            ..stable_facts
        };
        let p = modes::compose(turn).extra(extra.as_deref()).finish();
        prop_assert_eq!(p.stable(), base.stable());
        prop_assert_eq!(p.stable_fingerprint(), base.stable_fingerprint());
        prop_assert!(p.as_str().starts_with(p.stable()));
    }
}

/// The compiler checks the shipped text against `[budget]` with facts counted as empty;
/// `Prompt::budget()` checks what was composed, so a long stable fact shows.
#[test]
fn the_budget_is_checked_again_on_the_composed_prompt() {
    let p = render(Mode::Exec, &all_facts(Mode::Exec), None);
    let b = p.budget().expect("the manifest has a [budget]");
    assert_eq!((b.stable_bytes, b.ceiling), (p.stable().len(), 7000));
    assert!(!b.exceeded(), "{b}");
    // `per_role` for exec, `stable_bytes` for the others.
    let chat = render(Mode::Chat, &all_facts(Mode::Chat), None);
    assert_eq!(chat.budget().map(|b| b.ceiling), Some(6000));
    // A stable fact long enough to cross the ceiling.
    let mut facts = all_facts(Mode::Exec);
    let long = "x".repeat(7000);
    facts.iter_mut().find(|(k, _)| *k == "pack").unwrap().1 = long;
    let b = render(Mode::Exec, &facts, None).budget().unwrap();
    assert!(b.exceeded());
    assert!(b.stable_bytes > 7000);
    assert_eq!(
        b.to_string(),
        format!(
            "stable prefix of {} bytes, over its 7000-byte budget",
            b.stable_bytes
        )
    );
}
