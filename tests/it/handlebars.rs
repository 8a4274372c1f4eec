//! The handlebars corpus: a `.hbs` template of this project's own, embedded as written
//! (`placeholders = "handlebars"`), composed by doctrine and rendered by the `handlebars`
//! crate (the oracle) from the same values: `{{#if}}`/`{{else}}`, `{{#unless}}`,
//! `{{#each}}` over items with an `{{else}}`, subexpressions (`or`, `eq`, and `has`, a
//! helper registered here as a list-membership test), comments, both stashes, and values
//! holding what HTML escaping changes. Every input prints the same bytes.

use handlebars::{handlebars_helper, Handlebars};
use serde_json::{json, Value};

mod h {
    doctrine::doctrine!("../fixtures/handlebars/doctrine.toml");
}

use h::{Facts, Flag, Phase as Mode, ToolsItem};

handlebars_helper!(has: |list: Value, v: str| list
    .as_array()
    .is_some_and(|items| items.iter().any(|x| x.as_str() == Some(v))));

fn oracle() -> Handlebars<'static> {
    let mut hb = Handlebars::new();
    hb.register_helper("has", Box::new(has));
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/handlebars/system.hbs"
    );
    hb.register_template_string("system", std::fs::read_to_string(path).unwrap())
        .unwrap();
    hb
}

/// One input: the flags, the mode, the tools, and the note.
struct Input {
    has_tools: bool,
    has_rules: bool,
    user_rules: bool,
    mode: Option<Mode>,
    tools: Vec<ToolsItem<'static>>,
    tool_names: Vec<&'static str>,
    note: &'static str,
}

fn context(i: &Input) -> Value {
    let mut c = json!({
        "project": "ledger <core>",
        "note": i.note,
        "plan_hint": "list <files> & steps",
        "has_tools": i.has_tools,
        "has_rules": i.has_rules,
        "user_rules": i.user_rules,
        "tools": i.tools.iter().map(|t| json!({"name": t.name, "risky": t.risky})).collect::<Vec<_>>(),
        "tool_names": i.tool_names,
    });
    if let Some(m) = i.mode {
        c["phase"] = json!(match m {
            Mode::Plan => "plan",
            Mode::Build => "build",
        });
    }
    c
}

fn ours(i: &Input) -> String {
    let p = h::compose(Facts {
        project: "ledger <core>",
        note: i.note,
        plan_hint: "list <files> & steps",
        phase: i.mode,
        tools: &i.tools,
        tool_names: &i.tool_names,
    })
    .flag(Flag::HasTools, i.has_tools)
    .flag(Flag::HasRules, i.has_rules)
    .flag(Flag::UserRules, i.user_rules)
    .finish();
    p.layer("system").unwrap_or_default().to_string()
}

#[test]
fn every_input_renders_as_the_handlebars_crate_renders_it() {
    let hb = oracle();
    let tool = |name, risky| ToolsItem { name, risky };
    let tool_lists: [Vec<ToolsItem<'static>>; 3] = [
        vec![],
        vec![tool("read", false)],
        vec![tool("bash", true), tool("grep & find", false)],
    ];
    let notes = [
        "Be brief.",
        "<b>bold</b> & \"quoted\" 'single' `tick` a=b # not a heading",
        "{{ not a tag }} ünïcode ✓\n## A heading line",
    ];
    let mut inputs = 0;
    for has_tools in [false, true] {
        for (has_rules, user_rules) in [(false, false), (true, false), (false, true), (true, true)]
        {
            for mode in [None, Some(Mode::Plan), Some(Mode::Build)] {
                for (k, tools) in tool_lists.iter().enumerate() {
                    let input = Input {
                        has_tools,
                        has_rules,
                        user_rules,
                        mode,
                        tools: tools.clone(),
                        tool_names: [vec![], vec!["grep"], vec!["read", "grep"]][k].clone(),
                        note: notes[(k + usize::from(has_rules)) % notes.len()],
                    };
                    let theirs = hb.render("system", &context(&input)).unwrap();
                    assert_eq!(ours(&input), theirs, "{}", context(&input));
                    inputs += 1;
                }
            }
        }
    }
    assert_eq!(inputs, 2 * 4 * 3 * 3);
}
