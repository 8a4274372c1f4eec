//! Layer text read as a template: the placeholders a layer that does not interpolate would
//! print as written.

use super::names::Names;
use crate::diag::Sink;
use crate::names::shown;
use doctrine_load::__internals::template as grammar;

/// In a layer without `interpolate = true`, `{name}` naming a declared fact or knob, or
/// `{?name}`, `{?!name}` or `{/name}` naming a fact or flag, is an error at `locate(offset)`:
/// it would be printed as written, and the value never. Read as interpolation reads text,
/// so `{{name}}` is no placeholder. Each name is reported once per layer (in `reported`):
/// one `interpolate = true` fixes every use.
pub(super) fn forgotten(
    layer: &str,
    body: &str,
    locate: impl Fn(usize) -> super::at::At,
    names: &Names<'_>,
    reported: &mut Vec<String>,
    sink: &mut Sink<'_>,
) {
    for Named {
        at,
        inner,
        name,
        kind,
    } in named(body, names)
    {
        if reported.iter().any(|r| r == name) {
            continue;
        }
        reported.push(name.to_string());
        let written = format!("{{{}}}", shown(inner));
        let escaped = written.replace('{', "{{").replace('}', "}}");
        super::at::report(
            sink,
            &locate(at),
            format!("`{written}` names {kind} `{name}`, but layer `{layer}` does not interpolate, so it would print as written"),
            &format!("add `interpolate = true` to the layer to print the value; to print `{written}` itself, add it too and write `{escaped}` (with interpolation, `{{{{` and `}}}}` are braces)"),
        );
    }
}

/// A `{…}` in text printed as written that names something declared.
pub(super) struct Named<'b> {
    /// The offset of its `{`.
    pub(super) at: usize,
    /// What is inside the braces (`?brief`, `today`).
    pub(super) inner: &'b str,
    pub(super) name: &'b str,
    /// What it names, for a message: `fact`, `knob`, `flag`, `the skill index`.
    pub(super) kind: &'static str,
}

/// Every `{name}` in `body` naming a declared fact or knob, and every `{?name}`, `{?!name}`
/// or `{/name}` naming a fact or flag: what interpolation would have filled in. Read as
/// interpolation reads text, so `{{name}}` is no placeholder.
pub(super) fn named<'b>(body: &'b str, names: &Names<'_>) -> Vec<Named<'b>> {
    let mut found = Vec::new();
    for (at, inner) in braced(body) {
        let (section, name) = match inner.strip_prefix(['?', '/']) {
            Some(rest) => (true, rest.strip_prefix('!').unwrap_or(rest)),
            None => (false, inner),
        };
        // A condition names what it tests: its first declared name is reported.
        let name = match section && grammar::is_condition(name) {
            true => {
                let cond = grammar::condition(name, 0, crate::names::snake_ident_problem);
                let tested = cond.ok().and_then(|c| {
                    let names_in = c.names();
                    let first = names_in
                        .into_iter()
                        .find(|n| declared(n, true, names).is_some())?;
                    let at = name.find(first)?;
                    Some(&name[at..at + first.len()])
                });
                match tested {
                    Some(n) => n,
                    None => continue,
                }
            }
            false => name,
        };
        if let Some(kind) = declared(name, section, names) {
            found.push(Named {
                at,
                inner,
                name,
                kind,
            });
        }
    }
    found
}

/// What a name in braces names, for a placeholder (a fact or knob) or a section tag (a
/// fact or flag); `None` when nothing declared.
fn declared(name: &str, section: bool, names: &Names<'_>) -> Option<&'static str> {
    if let Some(f) = names.facts.iter().find(|f| f.name == name) {
        Some(if f.skill_index {
            "the skill index"
        } else {
            "fact"
        })
    } else if !section && names.knobs.iter().any(|k| k.name == name) {
        Some("knob")
    } else if section && names.flags.iter().any(|f| f.name == name) {
        Some("flag")
    } else {
        None
    }
}

/// The `{…}` of one line in `body` (not `{{`), as the offset of `{` and what is inside.
fn braced(body: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut from = 0;
    std::iter::from_fn(move || loop {
        let at = from + body.get(from..)?.find('{')?;
        let rest = &body[at + 1..];
        if rest.starts_with('{') {
            from = at + 2;
            continue;
        }
        from = at + 1;
        let end = rest.find(['}', '{', '\n'])?;
        if rest[end..].starts_with('}') {
            from = at + 1 + end + 1;
            return Some((at, &rest[..end]));
        }
    })
}
