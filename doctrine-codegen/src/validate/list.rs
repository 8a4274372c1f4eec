//! List facts (`list = { item, join, sort, max, more }`) and the skill index: how a list
//! prints, checked.

use std::ops::Range;

use super::hint::hint;
use super::placeholder::{item_placeholders, placeholders, Piece};
use crate::diag::Sink;
use crate::model::{ItemPiece, ListSpec};
use crate::names::shown;
use crate::raw;

/// A list cannot be required: it is a slice on the facts struct whatever its need, an
/// empty slice is absent, and no type of the struct can rule one out (nor can
/// `from_pairs`, which cannot give a list, or `Facts::from(role)`, which gives none). What
/// `required` would add is printing it ungated, which prints "Tools: ." for an empty list.
pub(super) fn required_list(name: &str, at: &raw::Name, word: &str, sink: &mut Sink<'_>) {
    sink.error(
        Some(at.span()),
        format!("list fact `{name}` cannot be required: an empty list is absent, and nothing can make a caller give a non-empty one"),
        Some(format!("list the {word}s in `optional`, and gate each layer that prints it: `when = \"{name}\"`, or `{{?{name}}}…{{/{name}}}` around it; check that a list is non-empty where it is gathered")),
    );
}

/// A list fact's printing: item template, join, sort, cap. A list has no closed set,
/// default or value texts.
pub(super) fn list_spec(
    name: &str,
    fact: &raw::Fact,
    list: &toml::Spanned<raw::List>,
    sink: &mut Sink<'_>,
) -> Option<ListSpec> {
    let others = [
        ("values", fact.values.as_ref().map(|v| v.span())),
        ("default", fact.default.as_ref().map(|v| v.span())),
        ("other", fact.other.as_ref().map(|v| v.span())),
    ];
    let mut ok = true;
    for (key, span) in others {
        if let Some(span) = span {
            sink.error(
                Some(span),
                format!("list fact `{name}` cannot have `{key}`"),
                Some(
                    "a list is given as `&[&str]` and prints item by item: remove one of them"
                        .into(),
                ),
            );
            ok = false;
        }
    }
    let spec = list_body(name, list.get_ref(), sink);
    spec.filter(|_| ok)
}

/// A list's item template, join, sort and cap, checked.
pub(super) fn list_body(name: &str, l: &raw::List, sink: &mut Sink<'_>) -> Option<ListSpec> {
    let mut ok = true;
    let item_span = l.item.as_ref().map(|i| i.span());
    let item = l.item.as_ref().map_or("{0}", |i| i.get_ref().as_str());
    let template = item_template(name, item, item_span.clone(), sink);
    ok &= template.is_some();
    if let Some(m) = l.max.as_ref().filter(|m| *m.get_ref() == 0) {
        sink.error(
            Some(m.span()),
            format!("`max = 0` would print no item of list fact `{name}`"),
            Some("give the most items to print, or remove `max`".into()),
        );
        ok = false;
    }
    ok &= l.more.as_ref().is_none_or(|m| more_line(name, m, sink));
    let (item, fields) = template?;
    let sort = match l.sort.as_ref() {
        None => None,
        Some(s) => match (s.get_ref(), fields.is_empty()) {
            (raw::ListSort::On(false), _) => None,
            (raw::ListSort::On(true), true) => Some(0),
            (raw::ListSort::On(true), false) => {
                sink.error(
                    Some(s.span()),
                    format!("list fact `{name}` has fields: `sort = true` does not say which one to sort by"),
                    Some(format!("name a field of the item template, e.g. `sort = \"{}\"`", fields[0])),
                );
                return None;
            }
            (raw::ListSort::By(by), true) => {
                sink.error(
                    Some(s.span()),
                    format!("list fact `{name}` is a plain list (`{{0}}`): it has no field `{}` to sort by", shown(by)),
                    Some("a plain list sorts by its items: write `sort = true`".into()),
                );
                return None;
            }
            (raw::ListSort::By(by), false) => match fields.iter().position(|f| f == by) {
                Some(i) => Some(i),
                None => {
                    sink.error(
                        Some(s.span()),
                        format!("list fact `{name}` has no field `{}` to sort by", shown(by)),
                        Some(hint(
                            by,
                            fields.iter().map(String::as_str),
                            "the item template's fields",
                        )),
                    );
                    return None;
                }
            },
        },
    };
    let text = |s: Option<&toml::Spanned<String>>, default: &str| {
        s.map_or(default.to_string(), |s| crate::text::normalise(s.get_ref()))
    };
    ok.then(|| ListSpec {
        item,
        fields,
        join: text(l.join.as_ref(), "\n"),
        sort,
        max: l.max.as_ref().map(|m| *m.get_ref()),
        more: text(l.more.as_ref(), "(and {n} more)"),
    })
}

/// A list's `more` line holds `{n}` (the number of items left out) and no other
/// placeholder; `{{` and `}}` print braces, as in a layer. True when it does.
fn more_line(name: &str, more: &toml::Spanned<String>, sink: &mut Sink<'_>) -> bool {
    let generic = "`{n}` is the number of items left out; write `{{` and `}}` for braces";
    let (problem, help) = match placeholders(&crate::text::normalise(more.get_ref())) {
        Err(e) => (Some(e.message.clone()), e.help_or(generic)),
        Ok(pieces) => {
            let problem = pieces.iter().find_map(|p| match p {
                Piece::Lit(_) => None,
                Piece::Name(n, _) if n == "n" => None,
                Piece::Name(n, _) => Some(format!("`{{{}}}` is not `{{n}}`", shown(n))),
                Piece::Open(n, ..) | Piece::Close(n, _) => Some(format!(
                    "a section on `{}`, which a `more` line cannot have",
                    shown(n)
                )),
            });
            (problem, generic.to_string())
        }
    };
    let Some(problem) = problem else {
        return true;
    };
    sink.error(
        Some(more.span()),
        format!("the `more` line of list fact `{name}`: {problem}"),
        Some(help),
    );
    false
}

/// A list's item template as pieces, and its named fields (none for a plain list, whose
/// item is `{0}`). Errors are reported at the template.
fn item_template(
    name: &str,
    item: &str,
    span: Option<Range<usize>>,
    sink: &mut Sink<'_>,
) -> Option<(Vec<ItemPiece>, Vec<String>)> {
    let mut error = |message: String, help: &str| {
        sink.error(span.clone(), message, Some(help.into()));
    };
    let pieces = match item_placeholders(&crate::text::normalise(item)) {
        Ok(p) => p,
        Err(e) => {
            let help = e.help_or("write `{0}` for a plain list's item, or `{field}` for each field of an item; `{{` and `}}` print braces");
            error(
                format!("the item template of list fact `{name}`: {}", e.message),
                &help,
            );
            return None;
        }
    };
    let names = pieces.iter().filter_map(|p| match p {
        Piece::Name(n, _) | Piece::Open(n, _, _) => Some(n.as_str()),
        _ => None,
    });
    let plain = names.clone().any(|n| n == "0");
    let mut fields: Vec<String> = Vec::new();
    for n in names.clone().filter(|n| *n != "0") {
        if !fields.iter().any(|f| f == n) {
            fields.push(n.to_string());
        }
    }
    if plain && !fields.is_empty() {
        error(
            format!("the item template of list fact `{name}` mixes `{{0}}` with named fields (`{}`)", fields.join("`, `")),
            "a plain list's items are strings (`{0}`); items with fields name each one (`{name}`): use one or the other",
        );
        return None;
    }
    if !pieces.iter().any(|p| matches!(p, Piece::Name(..))) {
        error(
            format!("the item template of list fact `{name}` has no `{{0}}` and no field"),
            "write where each item goes, e.g. `item = \"- {0}\"`, or its fields, e.g. `item = \"- {name}: {when}\"`",
        );
        return None;
    }
    let index = |n: &str| fields.iter().position(|f| f == n).unwrap_or(0);
    let item = pieces
        .iter()
        .map(|p| match p {
            Piece::Lit(t) => ItemPiece::Text(t.clone()),
            Piece::Name(n, _) => ItemPiece::Field(index(n)),
            Piece::Open(n, negated, _) => ItemPiece::Open(index(n), *negated),
            Piece::Close(..) => ItemPiece::Close,
        })
        .collect();
    Some((item, fields))
}
