//! A handlebars template composed by doctrine (`placeholders = "handlebars"`, the corpus's
//! `tests/fixtures/handlebars/system.hbs`) against the `handlebars` crate rendering the
//! same file from the same values: the crate's registry built and the template parsed
//! once, outside the loop, as an agent keeps them; `handlebars_render` from a JSON context
//! built beforehand, `handlebars_context_and_render` building it each time too, which is
//! what a host does per prompt. The two outputs are asserted equal before timing.
//!
//! cargo bench --features bench --bench templates

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use handlebars::{handlebars_helper, Handlebars};
use serde_json::{json, Value};

mod h {
    doctrine::doctrine!("../tests/fixtures/handlebars/doctrine.toml");
}

use h::{Facts, Flag, Phase, ToolsItem};

handlebars_helper!(has: |list: Value, v: str| list
    .as_array()
    .is_some_and(|items| items.iter().any(|x| x.as_str() == Some(v))));

const TOOLS: [ToolsItem<'static>; 3] = [
    ToolsItem {
        name: "bash",
        risky: true,
    },
    ToolsItem {
        name: "grep & find",
        risky: false,
    },
    ToolsItem {
        name: "read",
        risky: false,
    },
];
const NAMES: [&str; 3] = ["bash", "grep", "read"];
const NOTE: &str = "Keep <b>changes</b> small & \"reviewable\"; ask before `rm`.";

fn doctrine_prompt() -> h::Prompt {
    h::compose(Facts {
        project: black_box("ledger <core>"),
        note: black_box(NOTE),
        plan_hint: "list <files> & steps",
        phase: Some(Phase::Build),
        tools: black_box(&TOOLS),
        tool_names: &NAMES,
    })
    .flag(Flag::HasTools, true)
    .flag(Flag::UserRules, true)
    .finish()
}

fn context() -> Value {
    json!({
        "project": black_box("ledger <core>"),
        "note": black_box(NOTE),
        "plan_hint": "list <files> & steps",
        "phase": "build",
        "has_tools": true,
        "has_rules": false,
        "user_rules": true,
        "tools": TOOLS.iter().map(|t| json!({"name": t.name, "risky": t.risky})).collect::<Vec<_>>(),
        "tool_names": NAMES,
    })
}

fn templates(c: &mut Criterion) {
    let mut hb = Handlebars::new();
    hb.register_helper("has", Box::new(has));
    let source = include_str!("../tests/fixtures/handlebars/system.hbs");
    hb.register_template_string("system", source).unwrap();
    let ctx = context();
    let ours = doctrine_prompt();
    assert_eq!(ours.as_str(), hb.render("system", &ctx).unwrap());
    let mut g = c.benchmark_group("templates");
    g.bench_function("doctrine", |b| b.iter(doctrine_prompt));
    g.bench_function("handlebars_render", |b| {
        b.iter(|| hb.render("system", black_box(&ctx)).unwrap())
    });
    g.bench_function("handlebars_context_and_render", |b| {
        b.iter(|| hb.render("system", &context()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, templates);
criterion_main!(benches);
