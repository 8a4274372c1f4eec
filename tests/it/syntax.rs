//! A layer's syntax: a mustache file embedded as written, and a braces file whose block
//! tags take whitespace as Jinja's `trim_blocks` + `lstrip_blocks` (checked against
//! minijinja itself, the same template in Jinja's tags).

mod s {
    doctrine::doctrine!("../fixtures/syntax/doctrine.toml");
}

use s::{Facts, ToolsItem};

fn tool(name: &'static str, risky: bool, hint: Option<&'static str>) -> ToolsItem<'static> {
    ToolsItem { name, risky, hint }
}

#[test]
fn a_mustache_file_loops_tests_and_counts_as_its_braces_twin_would() {
    let tools = [
        tool("bash", true, Some("Quote paths.")),
        tool("read", false, None),
    ];
    let p = s::compose(Facts {
        user: Some("Ada"),
        tools: &tools,
        roots: &["/repo"],
    })
    .finish();
    assert_eq!(
        p.layer("mustache").unwrap(),
        "Hello, Ada. Answer in {json}.\n- bash (ask first)\n  Quote paths.\n- read\nThe writable root is /repo."
    );
    let p = s::compose(Facts {
        user: None,
        tools: &[],
        roots: &["/a", "/b"],
    })
    .finish();
    assert_eq!(
        p.layer("mustache").unwrap(),
        "Hello, whoever you are. Answer in {json}.\nNo tools today.\nThe writable roots are /a /b ."
    );
}

/// `jinja.md` in Jinja's own tags.
const JINJA: &str = "Tools:
{% for t in tools %}
  {% if t.risky %}
- {{ t.name }} (ask first)
  {% endif %}
  {% if not t.risky %}
- {{ t.name }}
  {% endif %}
{% endfor %}
{% if user %}Signed in as {{ user }}{% endif %}
Done.
";

#[test]
fn jinja_whitespace_prints_what_minijinja_prints() {
    use minijinja::{syntax::SyntaxConfig, Environment, Value};
    let mut env = Environment::new();
    let mut syntax = SyntaxConfig::builder();
    syntax.trim_blocks(true).lstrip_blocks(true);
    env.set_syntax(syntax.build().unwrap());
    for (user, tools) in [
        (
            Some("Ada"),
            vec![tool("bash", true, None), tool("read", false, None)],
        ),
        (None, vec![]),
        (Some("Bo"), vec![tool("edit", false, None)]),
    ] {
        let items: Vec<Value> = tools
            .iter()
            .map(|t| {
                let fields = [
                    ("name", Value::from(t.name)),
                    ("risky", Value::from(t.risky)),
                ];
                Value::from(std::collections::BTreeMap::from(fields))
            })
            .collect();
        let context = [("user", Value::from(user)), ("tools", Value::from(items))];
        let context = Value::from(std::collections::BTreeMap::from(context));
        let theirs = env.render_str(JINJA, context).unwrap();
        let ours = s::compose(Facts {
            user,
            tools: &tools,
            roots: &[],
        })
        .finish();
        assert_eq!(ours.layer("jinja").unwrap(), theirs, "{user:?}");
    }
}
