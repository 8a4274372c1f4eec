//! Skills: shipped ones embedded at compile time, an index line each in the prefix
//! through a list fact, bodies appended to a turn in the reminder marker when a task
//! calls for them.

use doctrine::skills::{Skill, SkillOrigin, Skills};

mod s {
    doctrine::doctrine!("../fixtures/skills/doctrine.toml");
}

use s::{Facts, SHIPPED_SKILLS};

fn index(skills: &Skills) -> String {
    s::compose(Facts { skills }).finish().into_string()
}

#[test]
fn shipped_skills_are_embedded_by_name_from_both_file_shapes() {
    let names: Vec<&str> = SHIPPED_SKILLS.iter().map(|k| k.name).collect();
    assert_eq!(names, ["bisect", "release"]);
    assert_eq!(SHIPPED_SKILLS[1].when, "Cutting a release of the crate.");
    assert_eq!(
        SHIPPED_SKILLS[1].triggers,
        ["cut a release", "release notes"]
    );
    assert!(SHIPPED_SKILLS[0].body.starts_with("Run `git bisect`"));
}

#[test]
fn the_index_is_one_line_each_capped_and_bodies_stay_out_of_the_prefix() {
    let mut skills = Skills::shipped(SHIPPED_SKILLS);
    assert_eq!(
        index(&skills),
        "Work in small steps.\n\n---\n\nSkills you can ask for:\n\
         - **bisect** — A test started failing and nobody knows which commit broke it.\n\
         - **release** — Cutting a release of the crate."
    );
    skills.insert(Skill {
        name: "audit".into(),
        when: "Checking dependencies for known advisories.".into(),
        triggers: vec![],
        body: "Run the advisory check.".into(),
        origin: SkillOrigin::User("user/audit.md".into()),
    });
    let p = index(&skills);
    assert!(p.ends_with("- **bisect** — A test started failing and nobody knows which commit broke it.\n- (1 more skills not listed)"), "{p}");
    for k in skills.iter() {
        assert!(!p.contains(&k.body), "a body reached the prefix");
    }
}

#[test]
fn a_task_loads_bodies_wrapped_in_the_reminder_marker() {
    let skills = Skills::shipped(SHIPPED_SKILLS);
    let task = "The parser test is failing since the last merge; also cut a release after.";
    let loaded: Vec<String> = skills
        .matching(task)
        .iter()
        .map(|k| s::marked(&k.body))
        .collect();
    assert_eq!(loaded.len(), 2, "{loaded:#?}");
    assert!(loaded[0].starts_with("<system-reminder>\nRun `git bisect`"));
    assert!(loaded[1].ends_with("then publish.\n</system-reminder>"));
    assert!(skills.matching("write the release").is_empty());
}

/// `[skills]` without `dir` ships none; a `dir` git would drop (empty) is refused with the
/// fix, so a crate that builds in its author's checkout builds from a fresh clone too.
#[test]
fn no_dir_ships_no_skill_and_an_empty_dir_is_refused_as_a_clone_would_lose_it() {
    use doctrine_codegen::{generate, Request};
    let krate = tempfile::tempdir().unwrap();
    let at = krate.path();
    let layer = "[[layer]]\nname = \"index\"\ntext = \"{skills}\"\ninterpolate = true\n\
                 when = \"skills\"\n";
    let build = |manifest: &str| {
        std::fs::write(at.join("doctrine.toml"), manifest).unwrap();
        generate(&Request::new("doctrine.toml", at, at)).map_err(|d| d.rendered())
    };
    build(&format!("[skills]\n\n{layer}")).unwrap();
    std::fs::create_dir(at.join("skills")).unwrap();
    let with_dir = format!("[skills]\ndir = \"skills\"\n\n{layer}");
    let error = build(&with_dir).unwrap_err();
    assert!(
        error.starts_with(
            "error: doctrine.toml:2:7: the skills directory `skills` is empty: git does not \
             keep an empty directory, so a fresh clone of this crate would not find it\n  \
             help: if the crate ships no skills, remove `dir`"
        ),
        "{error}"
    );
    assert_eq!(
        error.matches("error:").count(),
        1,
        "no follow-on error: {error}"
    );
    // Kept in git by a placeholder, the directory ships no skill, and builds.
    std::fs::write(at.join("skills/.gitkeep"), "").unwrap();
    build(&with_dir).unwrap();
}
