//! `[models]`: the builder's `.model()` sets the choices, flags and formulation the rule for
//! a model name gives (longest prefix, else the default), later setters win over it,
//! `explain()` names the rule, hostile names match nothing, and the CLI's named path
//! (`cargo doctrine render --model`) composes what compiled code does.

use doctrine::input::Formulation;
use doctrine_codegen::named::Named;
use doctrine_codegen::plan;

use super::plan_parity::{loaded, models as m};
use super::render_parity::{rendered, same};
use m::{Base, Flag, ModelRule};

#[test]
fn the_longest_prefix_sets_the_variant_the_flag_and_the_family() {
    let p = m::compose(Base::Plain).model("big-2-mini").finish();
    assert_eq!(
        p.as_str(),
        "<base>\nWork in long, careful steps; explain each change before you make it.\n</base>\
         \n\n---\n\n<tools>\nEdit files with the patch tool.\n</tools>"
    );
    let p = m::compose(Base::Plain).model("big-3").finish();
    assert_eq!(p.as_str(), "## Base\n\nWork in short steps.");
    // No rule: the default's variant; its formulation is the manifest's default.
    let p = m::compose(Base::Long).model("other-1").finish();
    assert_eq!(p.as_str(), "## Base\n\nWork as the task asks.");
    // A rule that names only a family leaves the choice given to `compose`.
    let p = m::compose(Base::Short).model("Tiny-9").finish();
    assert_eq!(p.as_str(), "Work in short steps.");
}

#[test]
fn setters_after_model_win_and_model_replaces_what_came_before() {
    let p = m::compose(Base::Plain)
        .model("big-2")
        .flag(Flag::PatchTool, false)
        .formulation(Formulation::Bare)
        .finish();
    assert_eq!(
        p.as_str(),
        "Work in long, careful steps; explain each change before you make it."
    );
    let p = m::compose(Base::Plain)
        .formulation(Formulation::Bare)
        .model("big-2")
        .finish();
    assert!(p.as_str().starts_with("<base>\n"), "{p}");
}

#[test]
fn explain_and_the_prompt_name_the_rule_that_matched() {
    let p = m::compose(Base::Plain).model(" big-2-mini\n").finish();
    let rule = p.model().unwrap();
    assert_eq!(rule.rule.as_deref(), Some("big-2"));
    let table = p.explain().to_string();
    assert!(
        table.contains("\nmodel: big-2-mini matched \"big-2\"\n"),
        "{table}"
    );
    let p = m::compose(Base::Plain).model("other").finish();
    assert!(
        p.explain()
            .to_string()
            .contains("\nmodel: other matched no rule: the default applies\n"),
        "{}",
        p.explain()
    );
    // Without `.model()`, no line.
    let p = m::compose(Base::Plain).finish();
    assert!(p.model().is_none());
    assert!(!p.explain().to_string().contains("model:"));
}

#[test]
fn the_rules_are_data() {
    let keys: Vec<&str> = ModelRule::ALL.iter().map(|r| r.key).collect();
    assert_eq!(keys, ["big", "big-2", "tiny"]);
    let big2 = ModelRule::find("BIG-2-x").unwrap();
    assert_eq!(big2.choices.base, Some(Base::Long));
    assert_eq!(big2.flags, [Flag::PatchTool]);
    assert_eq!(big2.family, Some(("claude", Formulation::Tagged)));
    assert_eq!(ModelRule::DEFAULT.key, "default");
    assert_eq!(ModelRule::DEFAULT.choices.base, Some(Base::Plain));
    assert_eq!(ModelRule::find("tin"), None);
}

#[test]
fn hostile_model_names_match_nothing_and_print_short() {
    let long = format!("big-2{}", "x".repeat(100_000));
    // A prefix still matches however long the name is; the table shows its head.
    let p = m::compose(Base::Plain).model(&long).finish();
    assert_eq!(p.model().unwrap().rule.as_deref(), Some("big-2"));
    let line = p.explain().to_string();
    let line = line.lines().find(|l| l.starts_with("model:")).unwrap();
    assert!(
        line.len() < 200 && line.contains("(100005 bytes)"),
        "{line}"
    );
    // A bidi control after a key's prefix still matches that key (`big`), shown escaped.
    let p = m::compose(Base::Long).model("big\u{202e}-2").finish();
    assert_eq!(p.model().unwrap().rule.as_deref(), Some("big"));
    assert!(p
        .explain()
        .to_string()
        .contains("model: big\\u{202e}-2 matched \"big\""));
    for hostile in ["\u{1b}[2Jbig-2", "\0", "", "\u{202e}big-2", "bïg-2"] {
        let p = m::compose(Base::Long).model(hostile).finish();
        assert_eq!(p.model().unwrap().rule, None, "{hostile:?}");
        assert_eq!(p.as_str(), "## Base\n\nWork as the task asks.");
        let table = p.explain().to_string();
        let line = table.lines().find(|l| l.starts_with("model:")).unwrap();
        assert!(
            !line.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "{line:?}"
        );
    }
}

#[test]
fn the_named_path_renders_a_model_as_compiled() {
    let d = loaded("../fixtures/models/doctrine.toml");
    let built = plan::build(&d);
    // (model, choices, flags, family), given by name and typed alike.
    type Case<'c> = (
        &'c str,
        &'c [(&'c str, &'c str)],
        &'c [(&'c str, bool)],
        Option<&'c str>,
    );
    let cases: [Case<'_>; 4] = [
        ("big-2-mini", &[], &[], None),
        ("big-9", &[("base", "long")], &[("patch_tool", true)], None),
        ("big-2", &[], &[("patch_tool", false)], Some("llama")),
        ("\u{7}unknown", &[], &[], None),
    ];
    for (model, choices, flags, family) in cases {
        let given = Named {
            model: Some(model.into()),
            choices: choices
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            flags: flags.iter().map(|(f, on)| (f.to_string(), *on)).collect(),
            family: family.map(str::to_string),
            ..Named::default()
        };
        let (_, ours) = rendered(&d, &built, &given);
        let base = match choices.first() {
            Some(_) => Base::Long,
            None => Base::Plain,
        };
        let mut typed = m::compose(base).model(model);
        for (_, on) in flags {
            typed = typed.flag(Flag::PatchTool, *on);
        }
        if let Some(family) = family {
            typed = typed.family(family);
        }
        let typed = typed.finish();
        same(&ours, &typed, model);
        assert_eq!(ours.model(), typed.model(), "{model}");
        assert_eq!(ours.explain().to_string(), typed.explain().to_string());
    }
}

#[test]
fn the_named_path_refuses_a_model_without_models() {
    let d = loaded("../fixtures/stems/doctrine.toml");
    let built = plan::build(&d);
    let given = Named {
        model: Some("big-2".into()),
        choices: vec![("person".into(), "self".into())],
        ..Named::default()
    };
    let refused = doctrine_codegen::named::resolve(&d, &built, &given).unwrap_err();
    assert!(
        refused.to_string().contains("no `[models]` table"),
        "{refused}"
    );
}
