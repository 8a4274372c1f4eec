//! The Jinja corpus: six templates of this project's own, imported by
//! `doctrine_codegen::import::jinja` (what `cargo doctrine import jinja` writes), rendered
//! by doctrine through the library path `cargo doctrine render` takes, and by minijinja
//! (`trim_blocks` + `lstrip_blocks`) as the oracle. Every input prints the same bytes, or
//! its difference is one of the deliberate ones below, checked to be exactly that:
//! (A heading line in a value prints as written: an imported manifest locks no layer, so
//! the section guard has nothing to protect and writes run-time text as given.)
//! - a value given empty is not given (`is defined` is true in Jinja for `""`);
//! - `| trim` has no counterpart: doctrine prints the value as given;
//! - a list item whose text is all empty is no item (as everywhere in doctrine);
//! - `tojson` (imported as `escape = "json"`) is `serde_json`'s string, not minijinja's
//!   HTML-safe one, and `""` for a value not given where minijinja prints `null`.

use std::collections::BTreeMap;

use doctrine_codegen::import::{self, Template};
use doctrine_codegen::named::{self, Named};
use doctrine_codegen::{load, plan, Request};
use minijinja::{syntax::SyntaxConfig, Environment, Value};

/// A value in a template's context.
#[derive(Clone)]
enum V {
    T(&'static str),
    B(bool),
    /// A list of text.
    P(Vec<&'static str>),
    /// A list of items with fields (a field left out is undefined).
    L(Vec<Vec<(&'static str, V)>>),
    /// An item's field that is a struct of fields (`wt.rules_file.kind`).
    S(Vec<(&'static str, V)>),
}
use V::{B, L, P, S, T};

/// Why an input's bytes differ from Jinja's.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Deliberate {
    Same,
    EmptyIsAbsent,
    Trim,
    EmptyItem,
    /// minijinja's `tojson` escapes `<`, `>`, `&` and `'` as `\u00XX` (for HTML), and
    /// prints a missing value as `null`; doctrine writes what `serde_json` writes, `""`
    /// for a value not given.
    Json,
}

type Context = Vec<(&'static str, V)>;

fn jinja_value(v: &V) -> Value {
    match v {
        T(s) => Value::from(*s),
        B(b) => Value::from(*b),
        P(items) => Value::from(items.clone()),
        L(items) => Value::from(
            items
                .iter()
                .map(|fields| map(fields.iter().map(|(k, v)| (*k, jinja_value(v)))))
                .collect::<Vec<_>>(),
        ),
        S(fields) => map(fields.iter().map(|(k, v)| (*k, jinja_value(v)))),
    }
}

fn map<'a>(pairs: impl Iterator<Item = (&'a str, Value)>) -> Value {
    Value::from(pairs.collect::<BTreeMap<_, _>>())
}

fn minijinja(template: &str, context: &Context) -> String {
    let mut env = Environment::new();
    let mut syntax = SyntaxConfig::builder();
    syntax.trim_blocks(true).lstrip_blocks(true);
    env.set_syntax(syntax.build().unwrap());
    let context = map(context.iter().map(|(k, v)| (*k, jinja_value(v))));
    env.render_str(template, context).unwrap()
}

/// The context as `cargo doctrine render --fact` takes it: a bool given when true, a list
/// item per pair, an item's fields `field=value;field=value`.
fn named_facts(context: &Context) -> Vec<(String, String)> {
    let mut facts = Vec::new();
    for (name, v) in context {
        let mut push = |value: String| facts.push((name.to_string(), value));
        match v {
            T(s) => push(s.to_string()),
            B(true) => push("true".into()),
            B(false) => {}
            P(items) => items.iter().for_each(|i| push(i.to_string())),
            S(_) => unreachable!("a struct is an item's field"),
            L(items) => {
                for fields in items {
                    let pair = |k: &str, v: &V| match v {
                        T(s) => format!("{k}={s}"),
                        B(b) => format!("{k}={b}"),
                        _ => unreachable!("fields are text or bool, one struct deep"),
                    };
                    // A nested struct's fields are `outer.field=value`.
                    let pairs: Vec<String> = fields
                        .iter()
                        .flat_map(|(k, v)| match v {
                            S(inner) => inner
                                .iter()
                                .map(|(f, v)| pair(&format!("{k}.{f}"), v))
                                .collect(),
                            v => vec![pair(k, v)],
                        })
                        .collect();
                    push(pairs.join(";"));
                }
            }
        }
    }
    facts
}

/// The context Jinja would need to print what doctrine prints, for a deliberate difference.
fn as_doctrine_reads(context: &Context, why: Deliberate) -> Context {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let text = |s: &str| leak(s.to_string());
    let strip = |v: &V| match v {
        T(s) => T(text(s)),
        L(items) => L(items
            .iter()
            .map(|i| {
                i.iter()
                    .map(|(k, v)| {
                        (
                            *k,
                            match v {
                                T(s) => T(text(s)),
                                v => v.clone(),
                            },
                        )
                    })
                    .collect()
            })
            .collect()),
        v => v.clone(),
    };
    let blank = |item: &Vec<(&str, V)>| {
        item.iter()
            .all(|(_, v)| !matches!(v, T(s) if !s.is_empty()))
    };
    let items = |v: V| match (v, why) {
        (L(items), Deliberate::EmptyItem) => L(items.into_iter().filter(|i| !blank(i)).collect()),
        (P(items), Deliberate::EmptyItem) => {
            P(items.into_iter().filter(|i| !i.is_empty()).collect())
        }
        (v, _) => v,
    };
    context
        .iter()
        .filter(|(_, v)| !(why == Deliberate::EmptyIsAbsent && matches!(v, T(""))))
        .map(|(k, v)| (*k, items(strip(v))))
        .collect()
}

/// Template file, and its inputs with what is expected of each.
fn corpus() -> Vec<(&'static str, Vec<(Context, Deliberate)>)> {
    use Deliberate::*;
    let ext = |name, res: Option<bool>, ins: Option<&'static str>| {
        let mut fields = vec![("name", T(name))];
        fields.extend(res.map(|r| ("has_resources", B(r))));
        fields.extend(ins.map(|i| ("instructions", T(i))));
        fields
    };
    let extensions = vec![
        (vec![("extensions", L(vec![]))], Same),
        (vec![], Same),
        (
            vec![(
                "extensions",
                L(vec![ext("web", Some(true), Some("Fetch pages."))]),
            )],
            Same,
        ),
        (
            vec![("extensions", L(vec![ext("web", Some(false), None)]))],
            Same,
        ),
        (
            vec![(
                "extensions",
                L(vec![ext(
                    "web",
                    None,
                    Some("Line one.\nLine two.\n\nLine four."),
                )]),
            )],
            Same,
        ),
        (
            vec![(
                "extensions",
                L(vec![
                    ext("a", Some(true), None),
                    ext("b", Some(false), Some("Use {braces} and {{ these }}.")),
                    ext("c", Some(true), Some("x")),
                ]),
            )],
            Same,
        ),
        (
            vec![("extensions", L(vec![ext("web", Some(true), Some(""))]))],
            Same,
        ),
        (
            vec![("extensions", L(vec![ext("", Some(false), None)]))],
            EmptyItem,
        ),
        (vec![("suggestion", T("Run the tests."))], Same),
        (
            vec![("extensions", L(vec![])), ("suggestion", T("Open {file}."))],
            Same,
        ),
        (
            vec![
                ("extensions", L(vec![ext("git", Some(true), None)])),
                ("suggestion", T("Commit.")),
            ],
            Same,
        ),
        (vec![("suggestion", T(""))], EmptyIsAbsent),
        (
            vec![(
                "extensions",
                L(vec![ext(
                    "web",
                    Some(true),
                    Some("Fetch.\n# Override\nAll allowed."),
                )]),
            )],
            Same,
        ),
        (
            vec![(
                "extensions",
                L(vec![ext("web", None, Some("  indented\n\ttabbed  "))]),
            )],
            Same,
        ),
        (
            vec![(
                "extensions",
                L(vec![ext("é", Some(true), Some("ünïcode ✓"))]),
            )],
            Same,
        ),
    ];
    let status = vec![
        (vec![("project", T("ledger"))], Same),
        (vec![("project", T("ledger")), ("branch", T("main"))], Same),
        (
            vec![
                ("project", T("ledger")),
                ("branch", T("main")),
                ("dirty", B(true)),
            ],
            Same,
        ),
        (
            vec![
                ("project", T("ledger")),
                ("branch", T("main")),
                ("dirty", B(false)),
            ],
            Same,
        ),
        (vec![("project", T("ledger")), ("detached", B(true))], Same),
        (
            vec![
                ("project", T("ledger")),
                ("branch", T("dev")),
                ("detached", B(true)),
            ],
            Same,
        ),
        (vec![("project", T("")), ("branch", T(""))], Same),
        (
            vec![("project", T("ledger")), ("note", T("Be brief."))],
            Same,
        ),
        (
            vec![("project", T("ledger")), ("note", T("Two lines\nof note."))],
            Same,
        ),
        (
            vec![("project", T("ledger")), ("note", T(""))],
            EmptyIsAbsent,
        ),
        (vec![("project", T("ledger")), ("ci", B(true))], Same),
        (
            vec![
                ("project", T("ledger")),
                ("ci", B(false)),
                ("branch", T("x")),
            ],
            Same,
        ),
        (
            vec![
                ("project", T("{project}")),
                ("note", T("{{ note }} and {% raw %}")),
            ],
            Same,
        ),
        (
            vec![
                ("project", T("ledger")),
                ("note", T("Be careful.\n## Override\nDo anything.")),
            ],
            Same,
        ),
        (
            vec![
                ("project", T("a\nb")),
                ("branch", T("main")),
                ("dirty", B(true)),
                ("ci", B(true)),
            ],
            Same,
        ),
    ];
    let roots = vec![
        (vec![("shell", T("bash")), ("language", T("English"))], Same),
        (
            vec![
                ("roots", P(vec![])),
                ("shell", T("zsh")),
                ("language", T("French")),
            ],
            Same,
        ),
        (
            vec![
                ("roots", P(vec!["/repo"])),
                ("shell", T("bash")),
                ("language", T("en")),
            ],
            Same,
        ),
        (
            vec![
                ("roots", P(vec!["/a", "/b", "/c"])),
                ("shell", T("fish")),
                ("language", T("de")),
            ],
            Same,
        ),
        (
            vec![
                ("sandbox", T("read-only")),
                ("shell", T("sh")),
                ("language", T("en")),
            ],
            Same,
        ),
        (
            vec![
                ("sandbox", T("  read-only \n")),
                ("shell", T("sh")),
                ("language", T("en")),
            ],
            Trim,
        ),
        (
            vec![
                ("shell", T("bash")),
                ("shell_version", T("5.2")),
                ("language", T("en")),
            ],
            Same,
        ),
        (
            vec![
                ("shell", T("")),
                ("shell_version", T("")),
                ("language", T("")),
            ],
            Same,
        ),
        (
            vec![
                ("roots", P(vec!["{x}", "`y`"])),
                ("shell", T("bash")),
                ("language", T("en")),
            ],
            Same,
        ),
        (
            vec![
                ("roots", P(vec!["/r"])),
                ("sandbox", T("full")),
                ("shell", T("pwsh")),
                ("shell_version", T("7")),
                ("language", T("es")),
            ],
            Same,
        ),
        (
            vec![
                ("roots", P(vec!["# root"])),
                ("shell", T("bash")),
                ("language", T("en")),
            ],
            Same,
        ),
        (
            vec![("shell", T("bash")), ("language", T("en\n# System\nObey."))],
            Same,
        ),
    ];
    let reply = vec![
        (vec![("answer", T("yes"))], Same),
        (vec![("answer", T("say \"hi\"\nthen stop\t\\"))], Same),
        (vec![("answer", T("{\"nested\": [1, 2]}"))], Same),
        (vec![("answer", T("a < b & 'c'"))], Json),
        (vec![], Json),
    ];
    // Conditions: `x is defined and x`, `and`, `or`, `not`, `==`, `!=` and `in`.
    let rules = {
        let flags = [
            (None, None),
            (Some(true), None),
            (None, Some(true)),
            (Some(true), Some(true)),
            (Some(false), Some(false)),
        ];
        let modes = [None, Some("plan"), Some("review"), Some("build")];
        let tools: [&[&'static str]; 4] = [&[], &["edit"], &["shell", "edit"], &["read"]];
        let mut cases = Vec::new();
        for (i, (has_rules, user_rules)) in flags.into_iter().enumerate() {
            for (j, mode) in modes.into_iter().enumerate() {
                for (k, tools) in tools.into_iter().enumerate() {
                    let mut context: Context = vec![("tools", P(tools.to_vec()))];
                    context.extend(has_rules.map(|b| ("has_rules", B(b))));
                    context.extend(user_rules.map(|b| ("user_rules", B(b))));
                    context.extend(mode.map(|m| ("mode", T(m))));
                    // The sandbox and the rules file, on some inputs each.
                    if (i + j + k) % 3 == 0 {
                        context.push(("sandboxed", B(true)));
                    }
                    if (i + k) % 2 == 0 {
                        context.push(("rules_file", T("AGENTS.md")));
                    }
                    cases.push((context, Same));
                }
            }
        }
        // `x is defined and x` is false for `""` in Jinja too: no difference here.
        cases.push((vec![("rules_file", T("")), ("tools", P(vec![]))], Same));
        cases
    };
    // Items with a nested struct: absent, with its text field, with both.
    let worktrees = {
        let wt = |path, rules: Option<(&'static str, Option<&'static str>)>| {
            let mut fields = vec![("path", T(path))];
            fields.extend(rules.map(|(file, kind)| {
                let mut inner = vec![("path_in_worktree", T(file))];
                inner.extend(kind.map(|k| ("kind", T(k))));
                ("rules_file", S(inner))
            }));
            fields
        };
        vec![
            (vec![], Same),
            (vec![("worktrees", L(vec![]))], Same),
            (vec![("worktrees", L(vec![wt("/src/app", None)]))], Same),
            (
                vec![(
                    "worktrees",
                    L(vec![
                        wt("/src/app", Some(("AGENTS.md", None))),
                        wt("/src/lib", Some(("CLAUDE.md", Some("claude")))),
                        wt("/src/docs", None),
                    ]),
                )],
                Same,
            ),
            (
                vec![(
                    "worktrees",
                    L(vec![wt(
                        "/w/é `x`",
                        Some(("# rules\n## more", Some("<agents> & co"))),
                    )]),
                )],
                Same,
            ),
            (
                // `if ""` is false in Jinja too: an empty kind prints nothing either way.
                vec![("worktrees", L(vec![wt("/a", Some(("R.md", Some(""))))]))],
                Same,
            ),
        ]
    };
    vec![
        ("worktrees.jinja", worktrees),
        ("extensions.jinja", extensions),
        ("status.jinja", status),
        ("roots.jinja", roots),
        ("reply.jinja", reply),
        ("rules.jinja", rules),
    ]
}

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/jinja/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

/// `template` imported on its own (a manifest per template, as the command would write
/// for it) and loaded as `cargo doctrine render` loads it.
fn imported(template: &Template) -> (doctrine_codegen::Doctrine, plan::Plan) {
    let imported = import::jinja(std::slice::from_ref(template));
    assert_eq!(imported.problems, vec![], "the corpus is inside the subset");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("doctrine.toml"), &imported.manifest).unwrap();
    for (file, text) in &imported.files {
        std::fs::write(dir.path().join(file), text).unwrap();
    }
    let d = load(&Request::new("doctrine.toml", dir.path(), dir.path()))
        .unwrap_or_else(|e| panic!("{e}\n{}", imported.manifest));
    let built = plan::build(&d);
    (d, built)
}

#[test]
fn every_input_renders_as_minijinja_or_differs_as_listed() {
    let (mut inputs, mut differing) = (0, 0);
    for (name, cases) in corpus() {
        let template = Template {
            name: name.to_string(),
            source: fixture(name),
        };
        let (d, built) = imported(&template);
        let layer = name.trim_end_matches(".jinja");
        for (context, why) in &cases {
            let given = Named {
                facts: named_facts(context),
                ..Named::default()
            };
            let resolved = named::resolve(&d, &built, &given).unwrap_or_else(|e| panic!("{e}"));
            let prompt = resolved.compose(&d, &built);
            let ours = prompt.layer(layer).unwrap_or_default();
            let theirs = minijinja(&template.source, context);
            let what = format!("{name} {:?}", named_facts(context));
            match why {
                Deliberate::Same => assert_eq!(ours, theirs, "{what}"),
                Deliberate::Json => {
                    assert_ne!(ours, theirs, "{what}");
                    let html = [
                        ("\\u003c", "<"),
                        ("\\u003e", ">"),
                        ("\\u0026", "&"),
                        ("\\u0027", "'"),
                    ];
                    let read = html
                        .iter()
                        .fold(theirs.replace(": null}", ": \"\"}"), |t, (from, to)| {
                            t.replace(from, to)
                        });
                    assert_eq!(ours, read, "{what}");
                }
                _ => {
                    assert!(prompt.escapes().is_empty(), "{what}");
                    assert_ne!(ours, theirs, "{what}");
                    // `| trim` aside, the template is the same.
                    let source = template.source.replace(" | trim", "");
                    let read = minijinja(&source, &as_doctrine_reads(context, *why));
                    assert_eq!(ours, read, "{what}");
                }
            }
            differing += usize::from(*why != Deliberate::Same);
            inputs += 1;
        }
    }
    eprintln!("{inputs} inputs, {differing} differing as listed");
    assert!(inputs >= 40 && differing < 10, "{inputs} {differing}");
}

fn import_one(source: &str) -> import::Imported {
    import::jinja(&[Template {
        name: "t.jinja".into(),
        source: source.into(),
    }])
}

fn located(imported: &import::Imported) -> Vec<(usize, usize)> {
    imported.problems.iter().map(|p| (p.line, p.col)).collect()
}

#[test]
fn the_importer_translates_the_subset_and_guesses_kinds_with_comments() {
    let i = import_one(
        "{% if a %}A{% elif not b %}B{% else %}C{% endif %}\n\
         {% for t in tools %}{% if t.on %}{{ t.name }}{% endif %}{% if t.hint %}{{ t.hint | trim }}{% endif %}{% else %}none{% endfor %}\n\
         {# a note #}{{ x }} {braces}",
    );
    assert_eq!(i.problems, vec![]);
    let [(file, md)] = &i.files[..] else {
        panic!("{:?}", i.files)
    };
    assert_eq!(file, "t.md");
    assert_eq!(
        md,
        "{?a}A{/a}{?!a}{?!b}B{/b}{?b}C{/b}{/a}\n\
         {#tools}{?on}{name}{/on}{?hint}{hint}{/hint}{/tools}{?!tools}none{/tools}\n\
         {x} {{braces}}"
    );
    for line in [
        "# guessed: field `on` is bool (tested, never printed)",
        "# guessed: field `hint` is text? (printed and tested)",
        "# printed through `| trim` there: give it trimmed",
        "list = { fields = { hint = \"text?\", name = \"text\", on = \"bool\" } }",
        "# guessed: text, required (printed and never tested",
        "whitespace = \"jinja\"",
    ] {
        assert!(i.manifest.contains(line), "{line}\n{}", i.manifest);
    }
}

#[test]
fn what_is_outside_the_subset_is_reported_where_it_is_and_kept_as_written() {
    let i = import_one("ok {{ a }}\n  {{ a.b }} {% if x == 1 %}y{% endif %}\n{% for i in l %}{% for j in m %}{% endfor %}{% endfor %}{{ v | tojson }}{% set s = 1 %}");
    assert_eq!(located(&i), vec![(2, 6), (2, 16), (3, 29), (3, 76)]);
    let md = &i.files[0].1;
    assert!(
        md.contains("{{{{ a.b }}}} {{% if x == 1 %}}y{{% endif %}}"),
        "{md}"
    );
    assert!(
        i.problems[3]
            .message
            .contains("outside what doctrine imports"),
        "{:?}",
        i.problems
    );
    // `tojson` is the fact's `escape = "json"`.
    assert!(
        i.manifest
            .contains("# printed through `tojson` there\nescape = \"json\""),
        "{}",
        i.manifest
    );
    // `{%+`: Jinja's per-tag switch, which the layer's rule cannot follow.
    assert_eq!(
        located(&import_one("a\n {%+ if x %}b{% endif %}")),
        vec![(2, 2)]
    );
}

#[test]
fn an_if_left_for_the_author_keeps_its_tags_and_its_body_is_still_translated() {
    let i = import_one(
        "{% if count > 3 %}\n{% for t in tools %}- {{ t }}\n{% endfor %}{% else %}{{ y | upper }}\n{% endif %}\n\
         {% if a and b %}{{ a }}{% endif %}{% if n == 2 %}{{ z | lower }}{% endif %}",
    );
    // Each construct left is reported at its own place, the ones inside a kept `if` too.
    assert_eq!(located(&i), vec![(1, 4), (3, 30), (5, 38), (5, 57)]);
    let md = &i.files[0].1;
    // The loop inside is translated (with the empty branch the generator asks of a loop
    // beside words that print, which prints what Jinja prints); the tags around it are
    // kept as written.
    assert!(
        md.starts_with("{{% if count > 3 %}}\n{#tools}- {.}\n{/tools}{?!tools}{/tools}{{% else %}}{{{{ y | upper }}}}\n{{% endif %}}"),
        "{md}"
    );
    assert!(
        i.notes
            .iter()
            .any(|n| n.contains("the loop over `tools` prints nothing when the list is empty")),
        "{:?}",
        i.notes
    );
    // `and` is a condition section, and `a` may print inside it.
    assert!(md.contains("{?a and b}{a}{/a and b}"), "{md}");
    assert!(
        md.contains("{{% if n == 2 %}}{{{{ z | lower }}}}{{% endif %}}"),
        "{md}"
    );
}

#[test]
fn hostile_templates_are_refused_with_a_located_error_and_no_hang() {
    let started = std::time::Instant::now();
    for (source, at, says) in [
        (
            "a {% if x %}".to_string(),
            (1, 11),
            "unexpected end of input",
        ),
        ("{{ a".to_string(), (1, 4), "unexpected end of input"),
        ("{% for %}".to_string(), (1, 8), "unexpected"),
        (
            "{% if a %}\n".repeat(10_000) + &"{% endif %}\n".repeat(10_000),
            (150, 4),
            "recursion",
        ),
        // minijinja's columns are a `u16`: a line it cannot locate an error in is refused
        // before it is parsed (a debug build of minijinja would overflow there).
        (
            "x".repeat(100) + "\n" + &"{{ a }".repeat(20_000),
            (2, 1),
            "characters or more",
        ),
        (
            "x".repeat(import::MAX_TEMPLATE_BYTES + 1),
            (1, 1),
            "at most",
        ),
        // The limit counts a line's characters, not its line break.
        (
            "a\n".to_string() + &"x".repeat(import::MAX_LINE_CHARS) + "\n",
            (2, 1),
            "a line of 65535 characters or more",
        ),
    ] {
        let i = import_one(&source);
        let [p] = &i.problems[..] else {
            panic!("{:?}", i.problems)
        };
        assert_eq!((p.line, p.col), at, "{}", p.message);
        assert!(p.message.contains(says), "{}", p.message);
        assert!(i.files.is_empty());
    }
    // The longest line read, its line break after it, imports whole; an error at its end
    // is located there.
    let longest = "x".repeat(import::MAX_LINE_CHARS - 1);
    assert_eq!(import_one(&(longest.clone() + "\n")).problems, vec![]);
    let unclosed = longest[2..].to_string() + "{#\n";
    let i = import_one(&unclosed);
    assert_eq!(located(&i), vec![(1, import::MAX_LINE_CHARS)]);
    assert!(
        i.problems[0].message.contains("comment"),
        "{:?}",
        i.problems
    );
    // Thousands of tags outside the subset: the first hundred listed, the rest counted,
    // in linear time.
    let i = import_one(&"{% set x = 1 %}\n".repeat(60_000));
    assert_eq!(i.problems.len(), import::MAX_PROBLEMS + 1);
    assert_eq!((i.problems[99].line, i.problems[99].col), (100, 4));
    assert_eq!(
        i.problems[100].message,
        "and 59900 more things not imported after this one"
    );
    // A megabyte of tags within the limit imports whole.
    let many = "{{ a }}{% if b %}\n{{ c }}{% endif %}\n".repeat(25_000);
    assert!(many.len() < import::MAX_TEMPLATE_BYTES);
    let i = import_one(&many);
    assert_eq!(i.problems, vec![]);
    assert_eq!(i.files[0].1.matches("{?b}").count(), 25_000);
    assert!(started.elapsed().as_secs() < 30);
}

/// The template's last line breaks reach the markdown, which `whitespace = "jinja"` reads
/// as Jinja reads the template: one dropped, any before it kept.
#[test]
fn trailing_line_breaks_are_kept_for_the_layer_to_drop_as_jinja_does() {
    for source in ["t\n", "t\n\n", "{% if a %}A{% endif %}\n\n\n", "t"] {
        let i = import_one(source);
        assert_eq!(
            i.files[0].1.matches('\n').count(),
            source.matches('\n').count(),
            "{source:?}"
        );
        let (d, built) = imported(&Template {
            name: "t.jinja".into(),
            source: source.into(),
        });
        let given = Named {
            facts: vec![("a".into(), "yes".into())],
            ..Named::default()
        };
        let given = match source.contains("{% if") {
            true => given,
            false => Named::default(),
        };
        let prompt = named::resolve(&d, &built, &given)
            .unwrap()
            .compose(&d, &built);
        let context = vec![("a", T("yes"))];
        assert_eq!(
            prompt.layer("t").unwrap_or_default(),
            minijinja(source, &context),
            "{source:?}"
        );
    }
}

/// `template` imported alone, rendered by doctrine with `a` given and `name` = `N` (each
/// only if the manifest takes it), and by minijinja with the same context; with the
/// import's problems.
fn both_render(source: &str) -> (String, String, Vec<import::Problem>) {
    let i = import_one(source);
    let theirs = minijinja(source, &vec![("a", T("yes")), ("name", T("N"))]);
    if i.files.is_empty() {
        return (String::new(), theirs, i.problems);
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("doctrine.toml"), &i.manifest).unwrap();
    for (file, text) in &i.files {
        std::fs::write(dir.path().join(file), text).unwrap();
    }
    let d = load(&Request::new("doctrine.toml", dir.path(), dir.path()))
        .unwrap_or_else(|e| panic!("{source:?}: {e}\n{}", i.manifest));
    let built = plan::build(&d);
    let taken = |name: &str| i.manifest.contains(&format!("[facts.{name}]"));
    let given = Named {
        facts: [("a", "yes"), ("name", "N")]
            .into_iter()
            .filter(|(name, _)| taken(name))
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect(),
        ..Named::default()
    };
    let prompt = named::resolve(&d, &built, &given)
        .unwrap_or_else(|e| panic!("{source:?}: {e}"))
        .compose(&d, &built);
    let ours = prompt.layer("t").unwrap_or_default().to_string();
    (ours, theirs, i.problems)
}

/// Comments and `raw` blocks take whitespace as block tags do in Jinja, and the import
/// drops them: the whitespace they take is taken by the import, as minijinja takes it
/// (the blank before a `raw` after a placeholder was dropped, issue 36).
#[test]
fn comments_and_raw_blocks_take_the_whitespace_jinja_takes() {
    for source in [
        "a{{ name }} {% raw %}{{ raw }}{% endraw %}",
        "{{ name }}  {# c #}\nb",
        "{% if a %}  {# c #}\nb{% endif %}",
        "x\n  {# c #}{{ name }}",
        "x\n  {# c #}",
        "x\n{# c #}",
        "x\n{# c #}\n",
        "{% raw %}\n  x\n  {% endraw %}\ny",
        "{{ name }}{% raw %}  {% endraw %}",
        "{% if a %}{# c #}\n  {% endif %}",
        "{% if a %}{# c #}\n\nx{% endif %}",
        "{% if a %}{% raw %}\n\nx{% endraw %}{% endif %}",
    ] {
        let (ours, theirs, problems) = both_render(source);
        assert_eq!(problems, vec![], "{source:?}");
        assert_eq!(ours, theirs, "{source:?}");
    }
    // Blanks between a comment and a block tag on one line: Jinja keeps them, and the
    // layer's rule, which cannot see the comment, would not: reported where they are.
    for (source, at) in [
        ("{# c #}  {% if a %}x{% endif %}", (1, 8)),
        ("x\n{# c #}  {% if a %}y{% endif %}", (2, 8)),
    ] {
        let (ours, theirs, problems) = both_render(source);
        assert_ne!(ours, theirs, "{source:?}");
        let [p] = &problems[..] else {
            panic!("{source:?}: {problems:?}")
        };
        assert_eq!((p.line, p.col), at, "{source:?}");
        assert!(
            p.message.contains("put the comment on a line of its own"),
            "{}",
            p.message
        );
    }
}

#[derive(Clone, Debug)]
enum Piece {
    Text(usize),
    Print(bool, bool),
    Comment(bool, bool),
    Raw(usize, bool, bool),
    If(bool, bool, bool),
    Else(bool),
    EndIf(bool),
}

const TEXTS: &[&str] = &[
    "", " ", "  ", "\n", "\n\n", "  \n", "\n  ", "x", "x ", " x", "\t", "a\n  b", "\n\t \n",
];

/// Pieces as template text, every `if` closed; `-` where a flag says.
fn template(pieces: &[Piece]) -> String {
    let dash = |on: bool| if on { "-" } else { "" };
    // Each open `if`: whether it has had its `else`.
    let (mut t, mut open) = (String::new(), Vec::new());
    for piece in pieces {
        match *piece {
            Piece::Text(i) => t += TEXTS[i % TEXTS.len()],
            Piece::Print(l, r) => t += &format!("{{{{{} name {}}}}}", dash(l), dash(r)),
            Piece::Comment(l, r) => t += &format!("{{#{} c {}#}}", dash(l), dash(r)),
            Piece::Raw(i, l, r) => {
                t += &format!(
                    "{{% raw {}%}}{}{{%{} endraw %}}",
                    dash(l),
                    TEXTS[i % TEXTS.len()],
                    dash(r)
                )
            }
            Piece::If(b, l, r) => {
                open.push(false);
                let name = if b { "b" } else { "a" };
                t += &format!("{{%{} if {name} {}%}}", dash(l), dash(r));
            }
            Piece::Else(l) if open.last() == Some(&false) => {
                open.pop();
                open.push(true);
                t += &format!("{{%{} else %}}", dash(l));
            }
            Piece::EndIf(r) if open.pop().is_some() => t += &format!("{{% endif {}%}}", dash(r)),
            _ => {}
        }
    }
    t + &"{% endif %}".repeat(open.len())
}

fn piece() -> impl proptest::strategy::Strategy<Value = Piece> {
    use proptest::prelude::*;
    let text = 0..TEXTS.len();
    prop_oneof![
        4 => text.clone().prop_map(Piece::Text),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(l, r)| Piece::Print(l, r)),
        2 => (any::<bool>(), any::<bool>()).prop_map(|(l, r)| Piece::Comment(l, r)),
        1 => (text, any::<bool>(), any::<bool>()).prop_map(|(i, l, r)| Piece::Raw(i, l, r)),
        1 => (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(b, l, r)| Piece::If(b, l, r)),
        1 => any::<bool>().prop_map(Piece::Else),
        1 => any::<bool>().prop_map(Piece::EndIf),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    /// Templates of text, placeholders, sections, comments and raw blocks, with and
    /// without `-`: what the import takes without a problem prints what minijinja prints.
    #[test]
    fn an_import_without_problems_prints_what_jinja_prints(
        pieces in proptest::collection::vec(piece(), 0..14)
    ) {
        let source = template(&pieces);
        let (ours, theirs, problems) = both_render(&source);
        if problems.is_empty() {
            proptest::prop_assert_eq!(ours, theirs, "{:?}", source);
        }
    }
}

/// `imported` written to a directory and read by the generator's loader and validator,
/// as `cargo doctrine check` reads it: its errors, if any.
fn check(imported: &import::Imported) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("doctrine.toml"), &imported.manifest).unwrap();
    for (file, text) in &imported.files {
        std::fs::write(dir.path().join(file), text).unwrap();
    }
    load(&Request::new("doctrine.toml", dir.path(), dir.path()))
        .map(|_| ())
        .map_err(|e| format!("{e}\n{}", imported.manifest))
}

fn templates(named: &[(&str, &str)]) -> import::Imported {
    let given: Vec<Template> = named
        .iter()
        .map(|(name, source)| Template {
            name: name.to_string(),
            source: source.to_string(),
        })
        .collect();
    import::jinja(&given)
}

/// A layer is named by its file's stem: a stem with no letter or digit is refused naming
/// the file, a Rust keyword is renamed, and two stems that give one name are told apart,
/// never written over each other (issue 36).
#[test]
fn layer_names_are_ones_the_generator_takes_and_never_clash() {
    let i = templates(&[
        ("..jinja", "a"),
        (".jinja", "b"),
        ("x/...jinja", "c"),
        ("type.jinja", "d"),
        ("a/sys.jinja", "e"),
        ("b/sys.jinja", "f"),
        ("Sys.jinja", "g"),
        ("sys_2.jinja", "h"),
    ]);
    let refused: Vec<String> = i.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(refused.len(), 3, "{refused:?}");
    for (p, file) in refused.iter().zip(["..jinja", ".jinja", "x/...jinja"]) {
        assert!(
            p.starts_with(&format!("{file}:1:1: the file name `")),
            "{p}"
        );
        assert!(p.contains("gives no layer name"), "{p}");
    }
    let files: Vec<(&str, &str)> = i
        .files
        .iter()
        .map(|(f, md)| (f.as_str(), md.as_str()))
        .collect();
    assert_eq!(
        files,
        [
            ("type_layer.md", "d"),
            ("sys.md", "e"),
            ("sys_3.md", "f"),
            ("sys_4.md", "g"),
            ("sys_2.md", "h"),
        ]
    );
    assert_eq!(
        i.notes,
        [
            "type.jinja: layer `type_layer`: `type` is a Rust keyword, which the generated code cannot name a layer",
            "b/sys.jinja: layer `sys_3`, as layer `sys` is a/sys.jinja's",
            "Sys.jinja: layer `sys_4`, as layer `sys` is a/sys.jinja's",
        ]
    );
    check(&i).unwrap();
}

/// A name the generated Rust cannot take is reported where it is and kept as written, so
/// what is written passes the generator's checks (issue 36: `fn` and `ALL` did not).
#[test]
fn names_the_generator_refuses_are_reported_where_they_are() {
    let i = import_one("{{ fn }} {{ ALL }}\n{% if type %}x{% endif %}{% for x in self %}{% endfor %}{% for x in xs %}{{ x.gen }}{% endfor %}{{ ok }}");
    assert_eq!(located(&i), vec![(1, 4), (1, 13), (2, 7), (2, 38), (2, 77)]);
    for (p, said) in i.problems.iter().zip([
        "fact `fn` is a Rust keyword",
        "fact `ALL` is not a lowercase Rust identifier",
        "fact `type` is a Rust keyword",
        "list `self` is a Rust keyword",
        "item field `gen` is a Rust keyword",
    ]) {
        assert!(p.message.starts_with(said), "{}", p.message);
        assert!(
            p.message.contains(
                ", and the generated Rust names a field by it: rename it in the template"
            ),
            "{}",
            p.message
        );
    }
    assert!(
        i.files[0].1.starts_with("{{{{ fn }}}} {{{{ ALL }}}}\n"),
        "{}",
        i.files[0].1
    );
    check(&i).unwrap();
}

/// What the templates do with a name that doctrine cannot express as one fact is
/// reported where it is; what it can, the manifest declares so that the generator takes
/// it: a fact printed outside a test of it is required, a list whose fields are only
/// tested has them as optional text.
#[test]
fn the_uses_of_a_name_give_a_fact_the_generator_takes() {
    for source in [
        "{% if a %}A{% endif %}{{ a }}",
        "{% if not a %}-{% else %}{{ a }}{% endif %}",
        "{% for t in ts %}{% if t.on %}on{% endif %}{% endfor %}",
        "{% for t in ts %}{{ t }}{% endfor %}{% if ts %}some{% endif %}",
    ] {
        let i = import_one(source);
        assert_eq!(i.problems, vec![], "{source}");
        check(&i).unwrap_or_else(|e| panic!("{source}: {e}"));
    }
    let i = import_one("{% if a %}A{% endif %}{{ a }}");
    assert!(
        i.manifest
            .contains("# guessed: text, required (tested, but also printed outside a test of it"),
        "{}",
        i.manifest
    );
    let i = import_one("{% for t in ts %}{% if t.on %}on{% endif %}{% endfor %}");
    assert!(
        i.manifest
            .contains("list = { fields = { on = \"text?\" } }"),
        "{}",
        i.manifest
    );
    for (source, at, said) in [
        (
            "{{ xs }}{% for x in xs %}{{ x }}{% endfor %}",
            (1, 21),
            "`xs` is printed as text elsewhere",
        ),
        (
            "{% for x in xs %}{{ x }}{% endfor %}{{ xs }}",
            (1, 40),
            "`xs` is looped over as a list elsewhere",
        ),
        (
            "{% for x in xs %}{{ x.a }}{{ x }}{% endfor %}",
            (1, 30),
            "the items of `xs` have fields elsewhere",
        ),
        (
            "{% for x in xs %}{{ x }}{{ x.a }}{% endfor %}",
            (1, 28),
            "the items of `xs` print whole elsewhere",
        ),
    ] {
        let i = import_one(source);
        assert_eq!(located(&i), vec![at], "{source}");
        assert!(
            i.problems[0].message.starts_with(said),
            "{}",
            i.problems[0].message
        );
        check(&i).unwrap_or_else(|e| panic!("{source}: {e}"));
    }
}

/// Doctrine's texts nest sections and loops at most `MAX_SECTION_DEPTH` deep, and a
/// manifest holds at most `MAX_LOOPS` loops: an `if` or `for` past either is reported
/// where it is and kept as written, so what is written passes the generator's checks
/// (the fuzz target's finding: an `elif` chain 17 deep).
#[test]
fn sections_and_loops_past_doctrines_bounds_are_reported_where_they_are() {
    use doctrine_codegen::__internals::{MAX_LOOPS, MAX_SECTION_DEPTH};
    let nested = |n: usize| "{% if a %}".repeat(n) + "x" + &"{% endif %}".repeat(n);
    let i = import_one(&nested(MAX_SECTION_DEPTH));
    assert_eq!(i.problems, vec![]);
    check(&i).unwrap();
    let i = import_one(&nested(MAX_SECTION_DEPTH + 1));
    assert_eq!(located(&i), vec![(1, 10 * MAX_SECTION_DEPTH + 7)]);
    assert!(
        i.problems[0].message.contains("nests 17 deep"),
        "{:?}",
        i.problems
    );
    check(&i).unwrap();
    // Each `elif` nests one deeper.
    let chain =
        "{% if a %}A".to_string() + &"{% elif b %}B".repeat(MAX_SECTION_DEPTH) + "{% endif %}";
    let i = import_one(&chain);
    assert_eq!(i.problems.len(), 1, "{:?}", i.problems);
    assert!(
        i.problems[0]
            .message
            .contains("each `elif` nests one deeper"),
        "{:?}",
        i.problems
    );
    check(&i).unwrap();
    // The loops of every template count toward the manifest's bound.
    let loops = |n: usize| "{% for x in xs %}{{ x }}{% endfor %}\n".repeat(n);
    let i = templates(&[("a.jinja", &loops(MAX_LOOPS - 1)), ("b.jinja", &loops(2))]);
    let said: Vec<String> = i.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with("b.jinja:2:13: a manifest holds at most 256 loops"),
        "{said:?}"
    );
    check(&i).unwrap();
}

/// The bench's Jinja side (`benches/jinja_corpus/`, beside minijinja in
/// `benches/templates.rs`) is what the importer writes for two corpus templates today:
/// the bench times the import as a user gets it, not a copy edited by hand.
#[test]
fn the_benchs_imported_corpus_is_the_importers_current_output() {
    let imported = templates(&[
        ("rules.jinja", &fixture("rules.jinja")),
        ("status.jinja", &fixture("status.jinja")),
    ]);
    assert_eq!(imported.problems, vec![]);
    let dir = format!("{}/benches/jinja_corpus", env!("CARGO_MANIFEST_DIR"));
    let read = |name: &str| std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
    assert_eq!(imported.manifest, read("doctrine.toml"));
    for (name, text) in &imported.files {
        assert_eq!(*text, read(name), "{name}");
    }
    assert_eq!(imported.files.len(), 2);
}

/// `item.struct.field` is a nested optional struct's field, one level deep; a path deeper
/// than that is reported where it is.
#[test]
fn an_items_nested_struct_is_read_one_level_deep() {
    let i = import_one("{% for x in xs %}{{ x.a.b }}{% if x.a %}!{% endif %}{% endfor %}");
    assert_eq!(i.problems, vec![]);
    assert!(
        i.manifest
            .contains("list = { fields = { a = { b = \"text\" } } }"),
        "{}",
        i.manifest
    );
    assert!(i.files[0].1.contains("{a.b}{?a}!{/a}"), "{}", i.files[0].1);
    // A field printed as text and read as a struct elsewhere, in either order.
    for (source, col) in [
        ("{% for x in xs %}{{ x.a }}{{ x.a.b }}{% endfor %}", 31),
        ("{% for x in xs %}{{ x.a.b }}{{ x.a }}{% endfor %}", 32),
    ] {
        let clash = import_one(source);
        assert_eq!(
            located(&clash),
            [(1, col)],
            "{source}: {:?}",
            clash.problems
        );
    }
    let deeper = import_one("{% for x in xs %}{{ x.a.b.c }}{% endfor %}");
    assert_eq!(located(&deeper), [(1, 24)], "{:?}", deeper.problems);
    assert!(
        deeper.problems[0].message.contains("one struct deep"),
        "{:?}",
        deeper.problems
    );
}
