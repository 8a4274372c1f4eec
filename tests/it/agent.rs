//! The agent example: a task that loads two skill bodies (one shipped, one the user's that
//! replaced a shipped skill) and a turn with three reminders, all appended after the
//! cached prefix.

mod agent {
    doctrine::doctrine!("../../examples/agent/doctrine.toml");
}

use agent::{Facts, ReminderKind, SessionState, SHIPPED_SKILLS};
use std::path::Path;

use doctrine::input::ContextBand;
use doctrine::introspect::NoticeKind;
use doctrine::skills::{SkillOrigin, Skills};

#[test]
fn a_task_loads_two_bodies_and_the_state_three_reminders_none_in_the_prefix() {
    let mut skills = Skills::shipped(SHIPPED_SKILLS);
    let user = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agent/user-skills");
    let notices = skills.load_user(&[&user]);
    // The user's `release` replaces the shipped one, and says so.
    let kinds: Vec<NoticeKind> = notices.iter().map(|n| n.kind).collect();
    assert_eq!(kinds, [NoticeKind::SkillReplaced], "{notices:#?}");
    assert_eq!(
        notices[0].subject,
        user.join("release.md").display().to_string()
    );
    let task = "The parser test is flaky since the last merge. Fix it, then cut a release.";
    let prompt = agent::compose(Facts { skills: &skills })
        .task(task)
        .finish();
    let loaded: Vec<&str> = skills
        .matching(task)
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(loaded, ["flaky-tests", "release"]);
    // The user's `release` replaced the shipped one, in the index and in the turn.
    let release = skills.get("release").unwrap();
    assert_eq!(release.origin, SkillOrigin::User(user.join("release.md")));
    assert!(release.body.starts_with("Ask in the release channel"));
    let state = SessionState {
        changed_files: &["src/parser.rs"],
        denied_tools: &[],
        compacted: true,
        context: ContextBand::crossed(ContextBand::of(55, 100), ContextBand::of(63, 100)),
    };
    let kinds: Vec<ReminderKind> = agent::emit(&state).iter().map(|r| r.kind).collect();
    assert_eq!(
        kinds,
        [
            ReminderKind::FileChanged,
            ReminderKind::Compacted,
            ReminderKind::ContextBudget
        ]
    );
    let stable = prompt.stable();
    assert!(stable.contains("- **flaky-tests** — A test passes and fails on the same code."));
    assert!(stable.contains("- **release** — Releasing, the way this team does it."));
    assert!(!stable.contains("Preparing a release of the crate."));
    for s in skills.iter() {
        assert!(
            !stable.contains(&s.body),
            "skill `{}`'s body is in the prefix",
            s.name
        );
    }
    for r in agent::emit(&state) {
        assert!(!prompt.as_str().contains(&r.text));
    }
    assert!(prompt.volatile().ends_with(task));
}

/// What `cargo doctrine render` and `explain` compose (`codegen::named`) is the prompt a
/// program sends: the shipped skill index without user directories, and with one, the
/// index `load_user` makes, the user's lines marked as user content alike.
#[test]
fn the_tools_compose_the_skill_index_a_program_sends() {
    use doctrine_codegen::named::{self, Named, SlotText};
    let root = env!("CARGO_MANIFEST_DIR");
    let request = doctrine_codegen::Request::new(
        "../../examples/agent/doctrine.toml",
        format!("{root}/tests/it"),
        root,
    );
    let d = doctrine_codegen::load(&request).unwrap_or_else(|e| panic!("{e}"));
    let plan = doctrine_codegen::plan::build(&d);
    let user = Path::new(root).join("examples/agent/user-skills");
    for dirs in [vec![], vec![user]] {
        let mut skills = agent::shipped_skills();
        let notices = skills.load_user(&dirs);
        let program = agent::compose(Facts { skills: &skills })
            .task("Fix it.")
            .finish();
        let given = Named {
            slots: vec![("task".into(), SlotText::Text("Fix it.".into()))],
            skills: dirs.clone(),
            ..Named::default()
        };
        let resolved = named::resolve(&d, &plan, &given).unwrap();
        let tool = resolved.compose(&d, &plan);
        assert_eq!(tool.as_str(), program.as_str(), "{dirs:?}");
        assert!(tool
            .as_str()
            .contains("- **bisect** — A test that used to pass"));
        assert_eq!(
            format!("{:?}", tool.user_content()),
            format!("{:?}", program.user_content())
        );
        assert_eq!(resolved.notices(), &notices[..]);
        // The user's `release` line is the user's: marked so on both sides.
        assert_eq!(tool.user_content().is_empty(), dirs.is_empty());
    }
}
