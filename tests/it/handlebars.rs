//! The handlebars corpus: three `.hbs` templates of this project's own, embedded as
//! written (`placeholders = "handlebars"`), composed by doctrine and rendered by the
//! `handlebars` crate (the oracle) from the same values: `{{#if}}`/`{{else}}`,
//! `{{else if}}`, `{{#unless}}`, `{{#each}}` over items with optional and bool fields and
//! an `{{else}}`, a plain list's `{{this}}`, subexpressions (`or`, `and`,
//! `not`, `eq`, and `has`, a helper registered here as a list-membership test), comments,
//! both stashes, and values holding what HTML escaping changes, `{{`, a heading line and
//! non-ASCII text. Every input prints the same bytes.

use handlebars::{handlebars_helper, Handlebars};
use serde_json::{json, Value};

mod h {
    doctrine::doctrine!("../fixtures/handlebars/doctrine.toml");
}

use h::{Facts, Flag, Phase as Mode, ToolsItem};

handlebars_helper!(has: |list: Value, v: str| list
    .as_array()
    .is_some_and(|items| items.iter().any(|x| x.as_str() == Some(v))));

/// The `handlebars` crate with the corpus's template `file` registered as `t`.
fn oracle(file: &str) -> Handlebars<'static> {
    let mut hb = Handlebars::new();
    hb.register_helper("has", Box::new(has));
    let path = format!(
        "{}/tests/fixtures/handlebars/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    hb.register_template_string("t", std::fs::read_to_string(path).unwrap())
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
    let hb = oracle("system.hbs");
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
                    let theirs = hb.render("t", &context(&input)).unwrap();
                    assert_eq!(ours(&input), theirs, "{}", context(&input));
                    inputs += 1;
                }
            }
        }
    }
    assert_eq!(inputs, 2 * 4 * 3 * 3);
}

mod r {
    doctrine::doctrine!("../fixtures/handlebars/review/doctrine.toml");
}

#[test]
fn a_loop_over_items_with_optional_and_bool_fields_renders_as_handlebars_does() {
    let hb = oracle("review/review.hbs");
    let file = |path, lang, generated| r::FilesItem {
        path,
        lang,
        generated,
    };
    let lists: [Vec<r::FilesItem<'static>>; 4] = [
        vec![],
        vec![file("src/main.rs", Some("Rust"), false)],
        vec![
            file("a <b>.rs", None, true),
            file("docs/{{x}}.md", Some(""), false),
            file("é/`tick`", Some("Markdown & more"), false),
        ],
        vec![file("gen.rs", Some("Rust"), true)],
    ];
    let mut inputs = 0;
    for reviewer in [None, Some("Ada"), Some("<Grace & co>")] {
        for files in &lists {
            for (strict, draft) in [(false, false), (true, false), (false, true), (true, true)] {
                let p = r::compose(r::Facts { reviewer, files })
                    .flag(r::Flag::Strict, strict)
                    .flag(r::Flag::Draft, draft)
                    .finish();
                let mut c = json!({
                    "strict": strict,
                    "draft": draft,
                    "files": files.iter().map(|f| {
                        let mut item = json!({"path": f.path, "generated": f.generated});
                        if let Some(l) = f.lang {
                            item["lang"] = json!(l);
                        }
                        item
                    }).collect::<Vec<_>>(),
                });
                if let Some(who) = reviewer {
                    c["reviewer"] = json!(who);
                }
                let theirs = hb.render("t", &c).unwrap();
                assert_eq!(p.layer("review").unwrap_or_default(), theirs, "{c}");
                inputs += 1;
            }
        }
    }
    assert_eq!(inputs, 3 * 4 * 4);
}

mod o {
    doctrine::doctrine!("../fixtures/handlebars/onboarding/doctrine.toml");
}

#[test]
fn else_if_chains_and_a_plain_lists_items_render_as_handlebars_does() {
    use o::Level;
    let hb = oracle("onboarding/welcome.hbs");
    let mut inputs = 0;
    for (level, word) in [
        (Level::New, "new"),
        (Level::Regular, "regular"),
        (Level::Lead, "lead"),
    ] {
        for repos in [&[][..], &["ledger"][..], &["a & b", "{{c}}", "# d"][..]] {
            for mentor in [None, Some("Lin <lin@example.org>")] {
                for name in ["Sam", "Zoë \"Z\" O'Neil"] {
                    let p = o::compose(o::Facts {
                        name,
                        level,
                        repos,
                        mentor,
                    })
                    .finish();
                    let mut c = json!({"name": name, "level": word, "repos": repos});
                    if let Some(m) = mentor {
                        c["mentor"] = json!(m);
                    }
                    let theirs = hb.render("t", &c).unwrap();
                    assert_eq!(p.layer("welcome").unwrap_or_default(), theirs, "{c}");
                    inputs += 1;
                }
            }
        }
    }
    assert_eq!(inputs, 3 * 3 * 2 * 2);
}

/// `cargo doctrine import handlebars`, through the library: each template kept as
/// written beside a manifest that reads it, the facts guessed from their use, and what the
/// manifest composes is what the crate renders.
#[test]
fn an_imported_template_composes_as_the_handlebars_crate_renders_it() {
    use doctrine_codegen::import::{self, Template};
    use doctrine_codegen::named::{self, Named};
    use doctrine_codegen::{load, plan, Request};

    let file = "review/review.hbs";
    let path = format!(
        "{}/tests/fixtures/handlebars/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let source = std::fs::read_to_string(path).unwrap();
    let imported = import::handlebars(&[Template {
        name: file.into(),
        source: source.clone(),
    }]);
    assert_eq!(imported.problems, vec![]);
    assert_eq!(imported.files, vec![("review.hbs".to_string(), source)]);
    for guess in [
        "list = { fields = { generated = \"bool\", lang = \"text?\", path = \"text\" } }",
        "[facts.reviewer]\ntier = \"stable\"\n# guessed: optional text (printed and tested)",
        "file = \"review.hbs\"\ninterpolate = true\nplaceholders = \"handlebars\"",
    ] {
        assert!(imported.manifest.contains(guess), "{}", imported.manifest);
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("doctrine.toml"), &imported.manifest).unwrap();
    for (name, text) in &imported.files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let d = load(&Request::new("doctrine.toml", dir.path(), dir.path())).unwrap();
    let built = plan::build(&d);
    let hb = oracle(file);
    for (facts, context) in [
        (vec![], json!({})),
        (
            vec![
                ("reviewer", "<Ada>"),
                ("files", "path=a & b.rs;lang=Rust;generated=false"),
                ("strict", "true"),
            ],
            json!({"reviewer": "<Ada>", "strict": true, "files": [{"path": "a & b.rs", "lang": "Rust", "generated": false}]}),
        ),
        (
            vec![("files", "path=gen.rs;generated=true"), ("draft", "true")],
            json!({"draft": true, "files": [{"path": "gen.rs", "generated": true}]}),
        ),
    ] {
        let given = Named {
            facts: facts
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Named::default()
        };
        let resolved = named::resolve(&d, &built, &given).unwrap_or_else(|e| panic!("{e}"));
        let prompt = resolved.compose(&d, &built);
        let theirs = hb.render("t", &context).unwrap();
        assert_eq!(
            prompt.layer("review").unwrap_or_default(),
            theirs,
            "{context}"
        );
    }
}
