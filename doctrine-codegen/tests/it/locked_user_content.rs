//! Locked means locked: no byte a user's file supplies reaches a locked layer, and the
//! compiler knows which layers can carry such bytes. The skill index is declared by
//! `[skills]` (its user skills' lines are user content), so the checks below are compile
//! errors, tested here without rustc.

use crate::support;
use support::{errors, load_with};

const SKILL: (&str, &[u8]) = (
    "skills/bisect.md",
    b"---\nwhen: A test broke and nobody knows which commit did it.\n---\nBisect.\n",
);

fn with_skills(layers: &str) -> String {
    format!("[skills]\ndir = \"skills\"\n\n{layers}")
}

#[test]
fn a_locked_layer_may_not_print_the_skill_index() {
    let errs = errors(
        &with_skills(
            "[[layer]]\nname = \"safety\"\nlocked = true\ninterpolate = true\nfile = \"safety.md\"\n",
        ),
        &[SKILL, ("safety.md", b"Rules.\n\n{?skills}{skills}{/skills}\n")],
    );
    // Both the section and the placeholder, each at its place in the file.
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(
        errs[0].starts_with(
            "safety.md:3:1: locked layer `safety` tests the skill index (`{?skills}`)"
        ),
        "{}",
        errs[0]
    );
    assert!(errs[1].starts_with("safety.md:3:10: locked layer `safety` prints the skill index (`{skills}`): a user's skill file would write inside it"), "{}", errs[1]);
    assert!(
        errs[1].contains("help: print `{skills}` in a layer of its own that is not locked"),
        "{}",
        errs[1]
    );
}

#[test]
fn a_locked_layer_may_not_be_gated_on_what_a_user_file_decides() {
    let manifest = with_skills(
        r#"[[layer]]
name = "tools"
text = "Use the tools."
override = "append"

[[layer]]
name = "safety"
text = "Never push to main."
locked = true
unless = ["overlay:tools", "skills"]
"#,
    );
    let errs = errors(&manifest, &[SKILL]);
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(errs[0].contains("locked layer `safety` is gated on overlay field `tools`, which a user's overlay file fills"), "{}", errs[0]);
    assert!(
        errs[1].contains("locked layer `safety` is gated on the skill index"),
        "{}",
        errs[1]
    );
    // The same gates on a layer that is not locked are fine.
    let open = manifest.replace("locked = true\n", "");
    assert!(load_with(&open, &[SKILL]).is_ok());
}

#[test]
fn the_index_is_declared_by_skills_and_may_be_renamed() {
    let manifest = with_skills(
        "index = { name = \"catalogue\", item = \"{when} ({name})\", max = 3 }\n[[layer]]\nname = \"index\"\ntext = \"{catalogue}\"\ninterpolate = true\nwhen = \"catalogue\"\n",
    )
    .replace("dir = \"skills\"\n\n", "dir = \"skills\"\n");
    let d = load_with(&manifest, &[SKILL]).unwrap();
    let fact = &d.facts[0];
    assert_eq!(fact.name, "catalogue");
    assert!(fact.skill_index);
    let list = fact.list.as_ref().unwrap();
    assert_eq!(
        (list.fields.as_slice(), list.sort, list.max),
        (
            &["when".to_string(), "name".to_string()][..],
            Some(1),
            Some(3)
        )
    );
    assert!(
        d.user_via(&d.layers[0]).is_some(),
        "the layer printing it carries user content"
    );
}

#[test]
fn a_fact_of_the_index_name_or_a_field_a_skill_lacks_is_refused() {
    let errs = errors(
        &with_skills(
            "[facts.skills]\ntier = \"stable\"\noptional = [\"*\"]\nlist = { item = \"- {name}\" }\n[[layer]]\nname = \"b\"\ntext = \"B.\"\n",
        ),
        &[SKILL],
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0]
            .contains("fact `skills` has the name of the skill index, which `[skills]` declares"),
        "{}",
        errs[0]
    );
    assert!(
        errs[0].contains("help: remove `[facts.skills]`"),
        "{}",
        errs[0]
    );
    for (item, want) in [
        ("- {body}", "prints `{body}`, which a skill does not have"),
        ("- {0}", "prints `{0}`: a skill has fields, not one value"),
    ] {
        let manifest = with_skills(&format!(
            "index = {{ item = \"{item}\" }}\n[[layer]]\nname = \"b\"\ntext = \"B.\"\n"
        ))
        .replace("dir = \"skills\"\n\n", "dir = \"skills\"\n");
        let errs = errors(&manifest, &[SKILL]);
        assert_eq!(errs.len(), 1, "{errs:#?}");
        assert!(errs[0].starts_with("doctrine.toml:3:18:"), "{}", errs[0]);
        assert!(errs[0].contains(want), "{}", errs[0]);
    }
}

#[test]
fn layers_that_can_carry_user_content_are_known() {
    let d = load_with(
        &with_skills(
            r#"[[layer]]
name = "base"
text = "Base."
locked = true

[[layer]]
name = "tools"
text = "Tools."
override = "replace"

[[layer]]
name = "spine"
text = "Spine."
selector = "spine"

[[layer]]
name = "index"
text = "{?skills}Skills:\n{skills}{/skills}"
interpolate = true

[[layer]]
name = "gated"
text = "Only with skills."
when = "skills"
"#,
        ),
        &[SKILL],
    )
    .unwrap();
    let via: Vec<Option<&str>> = d
        .layers
        .iter()
        .map(|l| d.user_via(l).map(|v| v.describe()))
        .collect();
    // A gate on the index prints none of it.
    assert_eq!(
        via,
        [
            None,
            Some("overlay file"),
            Some("selector's file"),
            Some("skill index"),
            None
        ]
    );
}
