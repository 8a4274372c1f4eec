//! The `manifest` target's checks on manifests that are always valid TOML: assembled from
//! the manifest's own keys and from names and values that fit them or nearly do (as in
//! `doctrine-codegen/tests/it/never_panics.rs`, with every section and key), so that the fuzzer
//! spends its time in validation and code generation rather than in TOML syntax.
#![no_main]

use arbitrary::Arbitrary;
use doctrine_codegen::__internals::MANIFEST_KEYS;
use libfuzzer_sys::fuzz_target;

/// Names for roles, layers, knobs, flags, facts, values and file stems: shared, so that
/// references between sections often resolve; odd ones among them.
const NAMES: &[&str] = &[
    "dev", "qa", "ask", "act", "base", "role", "voice", "rules", "root", "level", "fable", "lo",
    "hi", "safety", "identity", "extra", "a_b", "a-b", "type", "Self", "self", "Team", "x", "*",
    "!fable", "", "2a", "é", "ALL", "NAMES", "S", "item", "sort", "join", "name", "follows",
    "when", "60", "92", "shared", "session", "turn", "stable", "volatile",
];
/// Strings for file paths, texts and free values.
const STRINGS: &[&str] = &[
    "a.md",
    "b.md",
    "dir",
    "dir/one.md",
    "moods",
    "prompts",
    "prompts/style.md",
    "bad.md",
    "pipe.md",
    "d",
    "../a.md",
    "/etc/hostname",
    "",
    "Hello.",
    "Root {root}.",
    "Level {level}.",
    "{{literal}}",
    "{unclosed",
    "lone }",
    "{root} and {level} and {fable}",
    "!root",
    "root=high",
    "layer:a",
    "overlay:b",
    "flag:fable",
    "exact",
    "prefix",
    "boundaries",
    "none",
    "verbatim",
    "refuse",
    "truncate",
    "off",
    "keep",
    "<!-- {source}: {scope} -->",
    "authority",
    "source",
    "empty",
    "files/{role}.md",
    "stable",
    "volatile",
    "replace",
    "append",
    "required",
    "optional",
    "strip",
    "keep",
    "markdown",
    "tagged",
    "bare",
    "\n\n---\n\n",
    "- {0}",
    "- **{name}**{?when} — {when}{/when}",
    "{0}: {name}",
    "name",
    "flag",
    "list",
    "budget",
    "Changed: {dev}.",
    "skills",
    "<r>{text}</r>",
    "{text}{text}",
];
/// The keys declared for `table` (`MANIFEST_KEYS`, the reader's own declarations, so a
/// new key is fuzzed with no edit here), but those this target writes as tables of their
/// own (a key and a table of one name is no TOML), and a key no table has.
fn keys(table: &str, tables: &[&str]) -> Vec<&'static str> {
    let declared = MANIFEST_KEYS.iter().filter(|(t, _)| *t == table);
    let keys = declared.flat_map(|(_, keys)| keys.iter().copied());
    keys.filter(|k| !tables.contains(k))
        .chain(["bogus"])
        .collect()
}

#[derive(Arbitrary, Debug)]
enum Value {
    Name(u8),
    Str(u8),
    Bool(bool),
    Int(u16),
    /// A list of names.
    Names(Vec<u8>),
    /// `{ name = "string", ... }`.
    Map(Vec<(u8, u8)>),
    /// `{ name = 3, ... }`.
    Sizes(Vec<(u8, u16)>),
    /// Free text, escaped as a TOML string.
    Text(String),
}

#[derive(Arbitrary, Debug)]
struct Table {
    /// `[KIND.NAME]` or `[[KIND]]` header.
    kind: Kind,
    name: u8,
    keys: Vec<(u8, Value)>,
    /// `[layer.suffix]` under a layer.
    suffix: Option<Vec<(u8, Value)>>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Kind {
    Layer,
    Layer2,
    Layer3,
    Fact,
    Knob,
    Flags,
    Budget,
    Formulation,
    Order,
    ReminderState,
    Reminder,
    Reminders,
    Skills,
    Cache,
}

#[derive(Arbitrary, Debug)]
struct Manifest {
    top: Vec<(u8, Value)>,
    tables: Vec<Table>,
}

fn pick<'a>(list: &[&'a str], i: u8) -> &'a str {
    list[usize::from(i) % list.len()]
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A TOML key: bare when it can be, quoted otherwise.
fn key(s: &str) -> String {
    let bare = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        s.to_string()
    } else {
        quote(s)
    }
}

fn value(v: &Value) -> String {
    match v {
        Value::Name(i) => quote(pick(NAMES, *i)),
        Value::Str(i) => quote(pick(STRINGS, *i)),
        Value::Bool(b) => b.to_string(),
        Value::Int(n) => n.to_string(),
        Value::Names(list) => {
            let items: Vec<String> = list.iter().map(|i| quote(pick(NAMES, *i))).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Map(pairs) => table(
            pairs
                .iter()
                .map(|(k, v)| (pick(NAMES, *k), quote(pick(STRINGS, *v)))),
        ),
        Value::Sizes(pairs) => table(pairs.iter().map(|(k, v)| (pick(NAMES, *k), v.to_string()))),
        Value::Text(s) => quote(s),
    }
}

/// An inline table, each key once (TOML refuses a key twice).
fn table<'a>(pairs: impl Iterator<Item = (&'a str, String)>) -> String {
    let mut seen = Vec::new();
    let mut items = Vec::new();
    for (k, v) in pairs {
        if !seen.contains(&k) {
            seen.push(k);
            items.push(format!("{} = {v}", key(k)));
        }
    }
    format!("{{ {} }}", items.join(", "))
}

/// `key = value` lines, each key once.
fn lines(out: &mut String, keys: &[&str], pairs: &[(u8, Value)], skip: &[&str]) {
    let mut seen: Vec<&str> = skip.to_vec();
    for (k, v) in pairs {
        let k = pick(keys, *k);
        if !seen.contains(&k) {
            seen.push(k);
            out.push_str(&format!("{k} = {}\n", value(v)));
        }
    }
}

fn render(m: &Manifest) -> String {
    let mut out = String::new();
    let tables = [
        "flags",
        "knobs",
        "facts",
        "budget",
        "formulation",
        "layer",
        "order",
        "reminders",
        "skills",
        "cache",
    ];
    lines(&mut out, &keys("top level", &tables), &m.top, &[]);
    // `[KIND.NAME]` tables may appear once each; `[flags]`, `[budget]` and
    // `[formulation]` once in all.
    let mut headers: Vec<String> = Vec::new();
    for t in &m.tables {
        let name = key(pick(NAMES, t.name));
        let (header, allowed) = match t.kind {
            Kind::Layer | Kind::Layer2 | Kind::Layer3 => {
                ("[[layer]]".to_string(), keys("[[layer]]", &["suffix"]))
            }
            Kind::Order => ("[[order]]".to_string(), keys("[[order]]", &[])),
            Kind::Fact => (format!("[facts.{name}]"), keys("[facts.NAME]", &[])),
            Kind::Knob => (format!("[knobs.{name}]"), keys("[knobs.NAME]", &[])),
            Kind::Flags => ("[flags]".to_string(), Vec::new()),
            Kind::Budget => ("[budget]".to_string(), keys("[budget]", &[])),
            Kind::Formulation => ("[formulation]".to_string(), keys("[formulation]", &[])),
            Kind::ReminderState => ("[reminders.state]".to_string(), Vec::new()),
            Kind::Reminder => (
                "[[reminders.kind]]".to_string(),
                keys("[[reminders.kind]]", &[]),
            ),
            Kind::Reminders => (
                "[reminders]".to_string(),
                keys("[reminders]", &["state", "kind"]),
            ),
            Kind::Skills => ("[skills]".to_string(), keys("[skills]", &[])),
            Kind::Cache => ("[cache]".to_string(), keys("[cache]", &[])),
        };
        if !header.starts_with("[[") {
            if headers.contains(&header) {
                continue;
            }
            headers.push(header.clone());
        }
        out.push_str(&format!("\n{header}\n"));
        match t.kind {
            Kind::Flags | Kind::ReminderState => {
                // Names with a value each (a flag's default, a state field's shape).
                let mut seen = Vec::new();
                for (k, v) in &t.keys {
                    let k = pick(NAMES, *k);
                    if !seen.contains(&k) {
                        seen.push(k);
                        out.push_str(&format!("{} = {}\n", key(k), value(v)));
                    }
                }
            }
            Kind::Layer | Kind::Layer2 | Kind::Layer3 => {
                // Nearly always named, so that layers get past the first check.
                out.push_str(&format!("name = {}\n", quote(pick(NAMES, t.name))));
                lines(&mut out, &allowed, &t.keys, &["name"]);
                if let Some(suffix) = &t.suffix {
                    out.push_str("[layer.suffix]\n");
                    lines(&mut out, &keys("[layer.suffix]", &[]), suffix, &[]);
                }
            }
            _ => lines(&mut out, &allowed, &t.keys, &[]),
        }
    }
    out
}

fuzz_target!(|m: Manifest| {
    doctrine_fuzz::manifest::check(render(&m).as_bytes());
});
