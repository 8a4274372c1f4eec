//! The Jinja template the extensions example replaces (`examples/extensions/jinja/`),
//! rendered by minijinja with `trim_blocks` + `lstrip_blocks` the way its agent rendered
//! it: the parity test and the compose bench hold doctrine's prompt against it.

use std::collections::BTreeMap;

use minijinja::{syntax::SyntaxConfig, Environment, Value};

/// One extension, as the host knows it.
#[derive(Clone, Copy)]
pub struct Ext<'a> {
    pub name: &'a str,
    pub has_resources: bool,
    pub instructions: Option<&'a str>,
}

/// Everything the template reads; `None` is a value the host does not pass.
#[derive(Clone, Copy, Default)]
pub struct Context<'a> {
    pub extensions: &'a [Ext<'a>],
    pub suggestion: Option<&'a str>,
    pub user_name: Option<&'a str>,
    pub extras: Option<&'a str>,
}

/// The environment with the template added once, as an agent keeps it.
pub fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    let mut syntax = SyntaxConfig::builder();
    syntax.trim_blocks(true).lstrip_blocks(true);
    env.set_syntax(syntax.build().expect("Jinja's own delimiters"));
    env.add_template(
        "system",
        include_str!("../../../examples/extensions/jinja/system.jinja"),
    )
    .expect("the template parses");
    env
}

/// The context as a minijinja value: a value not given is left out (undefined).
pub fn value(c: &Context<'_>) -> Value {
    let mut map = BTreeMap::new();
    let exts: Vec<Value> = c
        .extensions
        .iter()
        .map(|e| {
            let mut item = BTreeMap::from([
                ("name", Value::from(e.name)),
                ("has_resources", Value::from(e.has_resources)),
            ]);
            if let Some(i) = e.instructions {
                item.insert("instructions", Value::from(i));
            }
            Value::from(item)
        })
        .collect();
    map.insert("extensions", Value::from(exts));
    let optional = [
        ("suggestion", c.suggestion),
        ("user_name", c.user_name),
        ("extras", c.extras),
    ];
    for (key, v) in optional {
        if let Some(v) = v {
            map.insert(key, Value::from(v));
        }
    }
    Value::from(map)
}

/// The rendered prompt, its end trimmed as the host trimmed it.
pub fn render(env: &Environment<'_>, context: &Value) -> String {
    let template = env.get_template("system").expect("added");
    let mut text = template.render(context).expect("the template renders");
    text.truncate(text.trim_end().len());
    text
}
