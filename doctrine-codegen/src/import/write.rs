//! The manifest and markdown an import writes.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use crate::names::snake_ident_problem;

use super::infer::{ListUse, Use, Uses};
#[cfg(feature = "jinja")]
use super::walk::Out;

/// A layer's name from its template's file name: the stem (before the first `.`), snake
/// case, `t_` before one that does not start with a letter, `_layer` after a Rust keyword
/// (with why it was renamed). `Err` says why the file name gives none.
pub(super) fn layer_name(file: &str) -> Result<(String, Option<String>), String> {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base.split('.').next().unwrap_or(base);
    if !stem.chars().any(|c| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "the file name `{base}` gives no layer name: its stem (before the first `.`) has no \
             ASCII letter or digit; rename the file, e.g. `system.jinja` (nothing imported \
             from this template)"
        ));
    }
    let mut name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        name.insert_str(0, "t_");
    }
    // The generator's own test: a layer names a constant and a builder method.
    if snake_ident_problem(&name).is_none() {
        return Ok((name, None));
    }
    let renamed = format!("{name}_layer");
    match snake_ident_problem(&renamed) {
        None => Ok((
            renamed.clone(),
            Some(format!("layer `{renamed}`: `{name}` is a Rust keyword, which the generated code cannot name a layer")),
        )),
        Some(problem) => Err(format!(
            "the file name `{base}` gives layer `{renamed}`, which {problem} (nothing imported from this template)"
        )),
    }
}

/// Each template's layer name, in order, or why its file name gives none. Names that
/// clash (two `sys.jinja` from different folders, `a-b` and `a_b`) are told apart by
/// order: the first keeps the name, the next takes `NAME_2`, `NAME_3`…, the first of
/// them that no template's own name is; each such renaming is said.
pub(super) fn layer_names(files: &[&str]) -> Vec<Result<(String, Option<String>), String>> {
    let own: Vec<_> = files.iter().map(|f| layer_name(f)).collect();
    let wanted: HashSet<&str> = own
        .iter()
        .filter_map(|n| n.as_ref().ok().map(|(n, _)| n.as_str()))
        .collect();
    let mut taken: HashMap<String, &str> = HashMap::new();
    let mut out = Vec::with_capacity(files.len());
    for (file, named) in files.iter().zip(&own) {
        let Ok((name, note)) = named else {
            out.push(named.clone());
            continue;
        };
        let Some(first) = taken.get(name.as_str()).copied() else {
            taken.insert(name.clone(), file);
            out.push(named.clone());
            continue;
        };
        let apart = (2..)
            .map(|k| format!("{name}_{k}"))
            .find(|n| !taken.contains_key(n) && !wanted.contains(n.as_str()))
            .unwrap_or_default();
        taken.insert(apart.clone(), file);
        let why = note.as_ref().map(|n| format!("; {n}")).unwrap_or_default();
        out.push(Ok((
            apart.clone(),
            Some(format!(
                "layer `{apart}`, as layer `{name}` is {first}'s{why}"
            )),
        )));
    }
    out
}

#[cfg(feature = "jinja")]
/// The markdown: text with its braces doubled, tags in single braces, then `tail`, the
/// line breaks Jinja drops from the template's end before reading it.
pub(super) fn markdown(out: &[Out], tail: &str) -> String {
    let mut md = String::new();
    for piece in out {
        match piece {
            Out::Lit(text) => md.push_str(&text.replace('{', "{{").replace('}', "}}")),
            Out::Tag(tag) => {
                md.push('{');
                md.push_str(tag);
                md.push('}');
            }
            Out::Gap(_) => {}
        }
    }
    // The layer drops one `\n`, then one `\r`, from its text's end, as Jinja does from the
    // template's: the template's own break where it has one. Where Jinja's reading ends in
    // a dropped tag (a comment), the text before it may end in a break the layer would
    // take instead, so it gets one to take.
    let drops_exactly = |tail: &str| {
        let whole = format!("{md}{tail}");
        let cut = whole.strip_suffix('\n').unwrap_or(&whole);
        let cut = cut.strip_suffix('\r').unwrap_or(cut);
        cut.len() == md.len()
    };
    let tail = [tail, "\n", "\r\n"]
        .into_iter()
        .find(|t| drops_exactly(t))
        .unwrap_or(tail);
    md.push_str(tail);
    md
}

/// The language templates were imported from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Language {
    #[cfg_attr(not(feature = "jinja"), allow(dead_code))]
    Jinja,
    #[cfg_attr(not(feature = "handlebars"), allow(dead_code))]
    Handlebars,
}

/// `doctrine.toml`: a fact per name, a layer per template.
pub(super) fn manifest(uses: &Uses, layers: &[String], language: Language) -> String {
    let mut toml = String::from(match language {
        Language::Jinja => "# Imported from Jinja by `cargo doctrine import jinja`. Each template is a layer whose\n\
         # block tags take whitespace as Jinja's `trim_blocks` + `lstrip_blocks`; each fact's kind\n\
         # was guessed from how the templates use it (see the comments): check them.\n",
        Language::Handlebars => "# Imported by `cargo doctrine import handlebars`. Each template is a layer that embeds\n\
         # its `.hbs` file as written (`placeholders = \"handlebars\"`); each fact's kind was\n\
         # guessed from how the templates use it (see the comments): check them.\n",
    });
    for (name, fact) in &uses.facts {
        let _ = writeln!(toml, "\n[facts.{name}]");
        match &fact.list {
            Some(list) => list_fact(&mut toml, list),
            None => plain_fact(&mut toml, fact.at),
        }
    }
    for layer in layers {
        let _ = match language {
            Language::Jinja => write!(
                toml,
                "\n[[layer]]\nname = \"{layer}\"\nfile = \"{layer}.md\"\ninterpolate = true\nwhitespace = \"jinja\"\n"
            ),
            Language::Handlebars => write!(
                toml,
                "\n[[layer]]\nname = \"{layer}\"\nfile = \"{layer}.hbs\"\ninterpolate = true\nplaceholders = \"handlebars\"\n"
            ),
        };
    }
    toml
}

fn plain_fact(toml: &mut String, at: Use) {
    let guess = match (at.printed, at.tested) {
        // A JSON-escaped value not given prints `""`, so it needs no gate.
        (true, false) if at.json => "# guessed: optional text (printed as JSON, `\"\"` when not given)\noptional = [\"*\"]",
        (true, false) => "# guessed: text, required (printed and never tested; the template prints a missing value as nothing)\nrequired = [\"*\"]",
        // Doctrine prints an optional fact only inside a section testing it.
        (true, true) if at.unchecked && !at.json => "# guessed: text, required (tested, but also printed outside a test of it, which doctrine allows a required fact alone; the template prints a missing value as nothing)\nrequired = [\"*\"]",
        (true, true) => "# guessed: optional text (printed and tested)\noptional = [\"*\"]",
        _ => "# guessed: tested and never printed, so given (any text) or not, as a flag would be\noptional = [\"*\"]",
    };
    let _ = writeln!(toml, "tier = \"stable\"\n{guess}");
    trimmed(toml, at);
    if at.json {
        let _ = writeln!(toml, "# printed through `tojson` there\nescape = \"json\"");
    }
}

fn list_fact(toml: &mut String, list: &ListUse) {
    let _ = writeln!(toml, "tier = \"stable\"\noptional = [\"*\"]");
    if list.fields.is_empty() {
        let _ = writeln!(
            toml,
            "# guessed: a list of text (its items print whole)\nlist = {{}}"
        );
        trimmed(toml, list.item);
        return;
    }
    // An item needs a text field (the generator refuses a list of flags alone): with no
    // field printed, the fields tested are taken as optional text.
    let any_printed = list.fields.values().any(|u| u.printed);
    // A field read through `outer.field` (handlebars' `{{rules_file.path}}` in a loop) is
    // a nested optional struct's: `outer` is written as a table of its fields.
    let outers: std::collections::BTreeSet<&str> = list
        .fields
        .keys()
        .filter_map(|f| f.split_once('.').map(|(o, _)| o))
        .collect();
    let mut tops: Vec<&str> = list.fields.keys().map(String::as_str).collect();
    tops.retain(|f| !f.contains('.') && !outers.contains(f));
    tops.extend(outers.iter().copied());
    tops.sort_unstable();
    let mut kinds = Vec::new();
    for field in tops {
        if !outers.contains(field) {
            let kind = guessed_kind(toml, field, list.fields[field], any_printed);
            kinds.push(format!("{field} = \"{kind}\""));
            continue;
        }
        let _ = writeln!(toml, "# guessed: field `{field}` is a nested optional struct (its fields are read as `{field}.name`)");
        let prefix = format!("{field}.");
        let inner = list
            .fields
            .iter()
            .filter_map(|(f, u)| Some((f, f.strip_prefix(&prefix)?, *u)));
        let inner: Vec<String> = inner
            .map(|(f, name, u)| format!("{name} = \"{}\"", guessed_kind(toml, f, u, any_printed)))
            .collect();
        kinds.push(format!("{field} = {{ {} }}", inner.join(", ")));
    }
    let _ = writeln!(toml, "list = {{ fields = {{ {} }} }}", kinds.join(", "));
}

/// The kind of item field `field` guessed from its use, said in a comment.
fn guessed_kind(toml: &mut String, field: &str, usage: Use, any_printed: bool) -> &'static str {
    let kind = match (usage.printed, usage.tested) {
        (true, false) => "text",
        (true, true) => "text?",
        _ if !any_printed => "text?",
        _ => "bool",
    };
    let why = match (kind, usage.printed) {
        ("text", _) => "printed, never tested",
        ("text?", true) => "printed and tested",
        ("text?", false) => "tested, never printed, and an item needs a text field",
        _ => "tested, never printed",
    };
    let _ = writeln!(toml, "# guessed: field `{field}` is {kind} ({why})");
    trimmed(toml, usage);
    kind
}

/// `| trim` has no doctrine counterpart: the value is printed as given.
fn trimmed(toml: &mut String, at: Use) {
    if at.trimmed {
        let _ = writeln!(
            toml,
            "# printed through `| trim` there: give it trimmed (doctrine prints values as given)"
        );
    }
}
