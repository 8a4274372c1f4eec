//! The manifest and markdown an import writes.

use std::fmt::Write;

use super::infer::{ListUse, Use, Uses};
use super::walk::Out;

/// A layer's name from its template's file name: the stem, snake case.
pub(super) fn layer_name(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base.split('.').next().unwrap_or(base);
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
    name
}

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

/// `doctrine.toml`: a fact per name, a layer per template.
pub(super) fn manifest(uses: &Uses, layers: &[String]) -> String {
    let mut toml = String::from(
        "# Imported from Jinja by `cargo doctrine import jinja`. Each template is a layer whose\n\
         # block tags take whitespace as Jinja's `trim_blocks` + `lstrip_blocks`; each fact's kind\n\
         # was guessed from how the templates use it (see the comments): check them.\n",
    );
    for (name, fact) in &uses.facts {
        let _ = writeln!(toml, "\n[facts.{name}]");
        match &fact.list {
            Some(list) => list_fact(&mut toml, list),
            None => plain_fact(&mut toml, fact.at),
        }
    }
    for layer in layers {
        let _ = write!(
            toml,
            "\n[[layer]]\nname = \"{layer}\"\nfile = \"{layer}.md\"\ninterpolate = true\nwhitespace = \"jinja\"\n"
        );
    }
    toml
}

fn plain_fact(toml: &mut String, at: Use) {
    let guess = match (at.printed, at.tested) {
        // A JSON-escaped value not given prints `""`, so it needs no gate.
        (true, false) if at.json => "# guessed: optional text (printed as JSON, `\"\"` when not given)\noptional = [\"*\"]",
        (true, false) => "# guessed: text, required (printed and never tested; Jinja prints a missing value as nothing)\nrequired = [\"*\"]",
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
    let mut kinds = Vec::new();
    for (field, usage) in &list.fields {
        let kind = match (usage.printed, usage.tested) {
            (true, false) => "text",
            (true, true) => "text?",
            _ => "bool",
        };
        let why = match kind {
            "text" => "printed, never tested",
            "text?" => "printed and tested",
            _ => "tested, never printed",
        };
        let _ = writeln!(toml, "# guessed: field `{field}` is {kind} ({why})");
        trimmed(toml, *usage);
        kinds.push(format!("{field} = \"{kind}\""));
    }
    let _ = writeln!(toml, "list = {{ fields = {{ {} }} }}", kinds.join(", "));
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
