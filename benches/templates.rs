//! The corpus templates composed by doctrine beside the engine each was written for, from
//! the same values: the handlebars corpus's `system.hbs` and `review.hbs`
//! (`placeholders = "handlebars"`) against the `handlebars` crate, and the Jinja corpus's
//! `rules.jinja` and `status.jinja`, imported by `cargo doctrine import jinja` into
//! `benches/jinja_corpus/`, against minijinja. Each engine's registry is built and its
//! templates parsed once, outside the loop, as an agent keeps them; `*_render` renders
//! from a context built beforehand, `*_context_and_render` builds it each time too, which
//! is what a host does per prompt. The outputs are asserted equal before timing.
//!
//! cargo bench --features bench --bench templates

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use handlebars::{handlebars_helper, Handlebars};
use serde_json::{json, Value};

#[path = "corpus/prompts.rs"]
mod prompts;
use prompts::*;

handlebars_helper!(has: |list: Value, v: str| list
    .as_array()
    .is_some_and(|items| items.iter().any(|x| x.as_str() == Some(v))));

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
    // The manifest's other layer (a user's template, not given here) prints its shipped
    // sentence too: doctrine composes a little more than the crate renders.
    assert_eq!(
        ours.layer("system").unwrap(),
        hb.render("system", &ctx).unwrap()
    );
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

fn review_context() -> Value {
    let files: Vec<Value> = FILES
        .iter()
        .map(|f| {
            let mut item = json!({"path": f.path, "generated": f.generated});
            if let Some(l) = f.lang {
                item["lang"] = json!(l);
            }
            item
        })
        .collect();
    json!({"reviewer": black_box("Ada"), "strict": true, "draft": false, "files": files})
}

fn review(c: &mut Criterion) {
    let mut hb = Handlebars::new();
    let source = include_str!("../tests/fixtures/handlebars/review/review.hbs");
    hb.register_template_string("review", source).unwrap();
    let ctx = review_context();
    assert_eq!(review_prompt().as_str(), hb.render("review", &ctx).unwrap());
    let mut g = c.benchmark_group("review");
    g.bench_function("doctrine", |b| b.iter(review_prompt));
    g.bench_function("handlebars_render", |b| {
        b.iter(|| hb.render("review", black_box(&ctx)).unwrap())
    });
    g.bench_function("handlebars_context_and_render", |b| {
        b.iter(|| hb.render("review", &review_context()).unwrap())
    });
    g.finish();
}

fn jinja_context() -> minijinja::Value {
    minijinja::context! {
        branch => black_box("main"),
        dirty => true,
        has_rules => true,
        mode => "build",
        note => black_box("Keep it small & safe."),
        project => black_box("ledger"),
        rules_file => "RULES.md",
        tools => black_box(JINJA_TOOLS.to_vec()),
    }
}

/// Both templates rendered, as the host joins them.
fn jinja_render(env: &minijinja::Environment<'_>, ctx: &minijinja::Value) -> (String, String) {
    let render = |name: &str| env.get_template(name).unwrap().render(ctx).unwrap();
    (render("rules"), render("status"))
}

fn jinja(c: &mut Criterion) {
    let mut env = minijinja::Environment::new();
    let mut syntax = minijinja::syntax::SyntaxConfig::builder();
    syntax.trim_blocks(true).lstrip_blocks(true);
    env.set_syntax(syntax.build().unwrap());
    env.add_template("rules", include_str!("../tests/fixtures/jinja/rules.jinja"))
        .unwrap();
    env.add_template(
        "status",
        include_str!("../tests/fixtures/jinja/status.jinja"),
    )
    .unwrap();
    let ctx = jinja_context();
    let ours = jinja_prompt();
    let (rules, status) = jinja_render(&env, &ctx);
    assert_eq!(ours.layer("rules").unwrap(), rules);
    assert_eq!(ours.layer("status").unwrap(), status);
    let mut g = c.benchmark_group("jinja");
    g.bench_function("doctrine", |b| b.iter(jinja_prompt));
    g.bench_function("minijinja_render", |b| {
        b.iter(|| jinja_render(&env, black_box(&ctx)))
    });
    g.bench_function("minijinja_context_and_render", |b| {
        b.iter(|| jinja_render(&env, &jinja_context()))
    });
    g.finish();
}

criterion_group!(benches, templates, review, jinja);
criterion_main!(benches);
