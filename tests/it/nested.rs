//! Items with a nested optional struct (`rules_file = { … }` in a list's `fields`): its
//! fields printed through dotted paths (`{rules_file.path_in_worktree}`), sections on the
//! struct and on its fields, in a loop, in the list's own item template and in mustache;
//! and the tool's string form (`rules_file.kind=…`) composing as the typed struct does.

mod n {
    doctrine::doctrine!("../fixtures/nested/doctrine.toml");
}

use n::{Facts, WorktreesItem as Tree, WorktreesRulesFile as Rules};

fn trees() -> Vec<Tree<'static>> {
    vec![
        Tree {
            name: "web",
            rules_file: Some(Rules {
                path_in_worktree: "AGENTS.md",
                kind: Some("agents"),
                generated: false,
            }),
        },
        Tree {
            name: "api",
            rules_file: None,
        },
        Tree {
            name: "cli",
            rules_file: Some(Rules {
                path_in_worktree: "docs/rules.md",
                kind: None,
                generated: true,
            }),
        },
    ]
}

#[test]
fn nested_fields_print_through_dotted_paths_and_sections_test_the_struct() {
    let trees = trees();
    let p = n::compose(Facts { worktrees: &trees }).finish();
    assert_eq!(
        p.layer("trees"),
        Some(
            "- api\n  no rules\n\
             - cli\n  rules: docs/rules.md\n\
             - web [agents]\n  rules: AGENTS.md\n  read the agents file first\n"
        )
    );
    assert_eq!(
        p.layer("summary"),
        Some("Trees: api, cli (docs/rules.md), web (AGENTS.md).")
    );
    assert_eq!(p.layer("generated"), Some("Generated: docs/rules.md"));
}

#[test]
fn a_struct_with_empty_fields_is_there_and_an_absent_one_prints_nothing_of_it() {
    let trees = [
        Tree {
            name: "a",
            rules_file: Some(Rules::default()),
        },
        Tree {
            name: "b",
            rules_file: None,
        },
    ];
    let p = n::compose(Facts { worktrees: &trees }).finish();
    assert_eq!(p.layer("trees"), Some("- a\n  rules: \n- b\n  no rules\n"));
    assert_eq!(p.layer("summary"), Some("Trees: a (), b."));
    assert_eq!(p.layer("generated"), Some("Generated:"));
}

/// `cargo doctrine`'s string form of an item: `rules_file.field=value` gives the struct,
/// and an item with none of its keys has none; what it composes is what the typed items
/// compose.
#[test]
fn the_tools_string_form_gives_the_struct_by_its_dotted_keys() {
    use doctrine_codegen::named::{self, Named};
    use doctrine_codegen::{load, plan, Request};

    let root = env!("CARGO_MANIFEST_DIR");
    let d = load(&Request::new(
        "tests/fixtures/nested/doctrine.toml",
        root,
        root,
    ))
    .unwrap();
    let built = plan::build(&d);
    let given = Named {
        facts: [
            "name=web;rules_file.path_in_worktree=AGENTS.md;rules_file.kind=agents;rules_file.generated=false",
            "name=api",
            "name=cli;rules_file.path_in_worktree=docs/rules.md;rules_file.generated=true",
        ]
        .iter()
        .map(|item| ("worktrees".to_string(), item.to_string()))
        .collect(),
        ..Named::default()
    };
    let resolved = named::resolve(&d, &built, &given).unwrap_or_else(|e| panic!("{e}"));
    let theirs = resolved.compose(&d, &built);
    let trees = trees();
    let ours = n::compose(Facts { worktrees: &trees }).finish();
    assert_eq!(theirs.as_str(), ours.as_str());
    // The struct itself is not a key: its fields are.
    let given = Named {
        facts: vec![("worktrees".into(), "name=x;rules_file=yes".into())],
        ..Named::default()
    };
    let Err(e) = named::resolve(&d, &built, &given) else {
        panic!("`rules_file=yes` was taken")
    };
    assert!(
        e.to_string()
            .contains("give its fields (`rules_file.path_in_worktree=…`)"),
        "{e}"
    );
}
