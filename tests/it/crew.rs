//! The crew example's prompts: every role × flag × knob in one prompt book (a snapshot of
//! each distinct layer text once and a line per prompt), and the properties the manifest
//! promises (flag off = layers absent, stable prefix independent of the volatile slot,
//! knob only reaching developers).

use doctrine::Choice;

pub(crate) mod crew {
    doctrine::doctrine!("../../examples/crew/doctrine.toml");
}

mod without_fable {
    doctrine::doctrine!("../fixtures/crew_without_fable.toml");
}

use crew::{Identity, Intensity, Role, Team};

use crate::support::crew_tools::loaded_tools;

/// A plausible team and identity per role; the book is over role, flag, knob.
pub(crate) fn seat(role: Role) -> (Team, Identity) {
    match role {
        Role::Developer => (Team::Backend, Identity::BeDev1),
        Role::Architect => (Team::Platform, Identity::Arch1),
        Role::Reviewer => (Team::Backend, Identity::BeDev2),
        Role::Qa => (Team::Frontend, Identity::Qa1),
        Role::Pm => (Team::Frontend, Identity::Pm1),
        _ => (Team::Platform, Identity::FeDev1),
    }
}

fn prompt(role: Role, fable: bool, intensity: Intensity, ambient: Option<&str>) -> crew::Prompt {
    let (team, identity) = seat(role);
    let facts = crew::Facts::from(role).with_tools(loaded_tools(role.as_str()));
    crew::compose(facts, team, identity)
        .flag(crew::Flag::Fable, fable)
        .knobs(crew::Knobs { intensity })
        .ambient(ambient)
        .finish()
}

/// The prompt of one combination, with the role's seat and tools and no ambient text.
pub(crate) fn book_prompt(c: crew::Combination) -> crew::Prompt {
    prompt(c.role, c.flags.fable, c.knobs.intensity, None)
}

#[test]
fn every_role_flag_and_knob_is_in_the_book() {
    assert_eq!(crew::Combination::all().count(), 8 * 2 * 3);
    doctrine::testing::assert_book!("crew", crew::Combination::all(), book_prompt);
}

#[test]
fn explain_table_is_pinned() {
    let p = prompt(
        Role::Developer,
        true,
        Intensity::Ultra,
        Some("Use the repository's ADRs."),
    );
    insta::assert_snapshot!("explain-developer-fable-ultra", p.explain().to_string());
}

#[test]
fn flag_off_is_byte_identical_to_a_manifest_without_the_gated_layers() {
    for &role in Role::ALL {
        let (team, identity) = seat(role);
        let other_role = without_fable::Role::parse(role.as_str()).unwrap();
        let other = without_fable::compose(
            without_fable::Facts::from(other_role).with_tools(loaded_tools(role.as_str())),
            without_fable::Team::parse(team.as_str()).unwrap(),
            without_fable::Identity::parse(identity.as_str()).unwrap(),
        )
        .ambient(Some("ambient"))
        .finish();
        let ours = prompt(role, false, Intensity::Ultra, Some("ambient"));
        assert_eq!(ours.as_str(), other.as_str(), "role {role}");
    }
}

#[test]
fn without_tools_the_directive_is_absent() {
    let (team, identity) = seat(Role::Pm);
    let p = crew::compose(Role::Pm, team, identity)
        .ambient(None)
        .finish();
    let with = prompt(Role::Pm, false, Intensity::Full, None);
    let directive = "Your tools are loaded: the task board, the roadmap. You cannot touch the repository.\n\n---\n\n";
    assert_eq!(with.as_str().strip_prefix(directive), Some(p.as_str()));
}

#[test]
fn intensity_reaches_developers_only() {
    for &role in Role::ALL {
        let texts: Vec<String> = Intensity::ALL
            .iter()
            .map(|&i| prompt(role, true, i, None).into_string())
            .collect();
        let line = "**Operative intensity: ultra.**";
        if role == Role::Developer {
            assert!(texts[0] != texts[1] && texts[1] != texts[2]);
            assert_eq!(texts[2].matches(line).count(), 1);
        } else {
            assert!(texts.iter().all(|t| t == &texts[0]), "role {role}");
            assert!(!texts[2].contains("Operative intensity"));
        }
    }
}

#[test]
fn stable_prefix_is_independent_of_the_volatile_slot() {
    let long = "x".repeat(100_000);
    let values = [
        None,
        Some(""),
        Some("short"),
        Some("with\n---\nseparators"),
        Some(long.as_str()),
    ];
    for &role in Role::ALL {
        let base = prompt(role, true, Intensity::Full, None);
        for v in values {
            let p = prompt(role, true, Intensity::Full, v);
            assert_eq!(p.stable(), base.stable(), "role {role}, ambient {v:?}");
            // The crew locks no layer: a `---` under a line of text (a heading in
            // markdown) is the slot's own, written as given.
            assert_eq!(p.volatile(), v.unwrap_or(""));
            assert!(p.escapes().is_empty());
            match v {
                Some(v) if !v.is_empty() => {
                    assert_eq!(p.as_str(), format!("{}{}{v}", p.stable(), crew::SEPARATOR))
                }
                _ => assert_eq!(p.as_str(), p.stable()),
            }
        }
    }
}

#[test]
fn roles_sharing_a_file_get_the_same_role_text() {
    let reviewer = prompt(Role::Reviewer, false, Intensity::Full, None);
    let qa = prompt(Role::Qa, false, Intensity::Full, None);
    assert_eq!(reviewer.layer("role"), qa.layer("role"));
    assert_eq!(reviewer.layer("role"), Some(crew::text::ROLE_REVIEWER));
}

#[test]
fn choices_parse_from_names_and_list_valid_values_on_error() {
    assert_eq!("be-dev-1".parse::<Identity>().unwrap(), Identity::BeDev1);
    assert_eq!(Identity::BeDev1.to_string(), "be-dev-1");
    let err = "ghost".parse::<Role>().unwrap_err().to_string();
    assert_eq!(
        err,
        "unknown role `ghost`; valid values: developer, architect, reviewer, qa, pm, devops, writer, researcher"
    );
    let err = "max".parse::<Intensity>().unwrap_err().to_string();
    assert_eq!(
        err,
        "unknown intensity `max`; valid values: lite, full, ultra"
    );
    assert_eq!(Intensity::default(), Intensity::Full);
    assert!(!crew::Flags::default().fable);
}

#[test]
fn provenance_comes_from_stripped_frontmatter() {
    let s = &crew::sources::FABLE.provenance;
    assert_eq!(
        (s.source, s.version, s.licence),
        (Some("opus-fable-playbook"), Some("0.18.0"), Some("MIT"))
    );
    assert!(!crew::text::FABLE.starts_with("---"));
    assert!(crew::text::FABLE.starts_with("# Fable doctrine"));
}

#[test]
fn flags_round_trip_through_their_text_form() {
    let on: crew::Flags = "fable".parse().unwrap();
    assert!(on.fable);
    assert_eq!(on.to_string(), "fable");
    let off: crew::Flags = "".parse().unwrap();
    assert!(!off.fable);
    assert_eq!(off.to_string(), "");
    let err = "fable,fabel"
        .parse::<crew::Flags>()
        .unwrap_err()
        .to_string();
    assert_eq!(err, "unknown flag `fabel`; valid values: fable");
}
