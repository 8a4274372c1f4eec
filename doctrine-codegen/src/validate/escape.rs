//! A fact's `escape = "json"` or `"xml"`: which of its fields print escaped, and the
//! checks against where they are printed. A JSON string literal comes with its quotes, so
//! `"{x}"` in a template would print two pairs; an entity is not read inside CDATA, so an
//! xml-escaped value there would print `&lt;` to the model. Anywhere else an escaped value
//! is fine, a markdown layer included: the model reads the escaped text as written. A
//! loop's body is its list's item template there, so its fields are checked the same way.

use std::ops::Range;

use doctrine_core::__private::Escaping;

use super::at::{report, At};
use super::hint::hint;
use super::placeholder::Piece;
use crate::diag::Sink;
use crate::model::{Fact, ItemPiece, ListSpec};
use crate::names::shown;
use crate::raw::{self, EscapeKind, EscapeSpec};

fn escaping(kind: EscapeKind) -> Escaping {
    match kind {
        EscapeKind::Json => Escaping::Json,
        EscapeKind::Xml => Escaping::Xml,
    }
}

/// How each field of fact `name` prints (by field index; one entry for a text fact or a
/// plain list), empty when nothing is escaped. `closed`: the fact has a closed set, whose
/// values are the manifest's own text.
pub(super) fn escapes(
    name: &str,
    fact: &raw::Fact,
    list: Option<&ListSpec>,
    closed: bool,
    sink: &mut Sink<'_>,
) -> Vec<Option<Escaping>> {
    let Some(spec) = &fact.escape else {
        return Vec::new();
    };
    if closed {
        sink.error(
            Some(spec.span()),
            format!("fact `{name}` has a closed set of values: there is nothing to escape"),
            Some("its values are the manifest's own text, written as they should print: remove `escape`".into()),
        );
        return Vec::new();
    }
    let fields = list.map_or(&[][..], |l| l.fields.as_slice());
    match spec.get_ref() {
        EscapeSpec::All(kind) => vec![Some(escaping(*kind.get_ref())); fields.len().max(1)],
        EscapeSpec::Fields(map) if fields.is_empty() => {
            let what = if list.is_some() {
                "a plain list (`{0}`)"
            } else {
                "no list"
            };
            let first = map.keys().next().map(|k| k.span());
            sink.error(
                first.or(Some(spec.span())),
                format!("fact `{name}` is {what}: its items have no fields to escape by name"),
                Some("write `escape = \"json\"` (or `\"xml\"`) for the value as a whole".into()),
            );
            Vec::new()
        }
        EscapeSpec::Fields(map) => {
            let mut out = vec![None; fields.len()];
            for (field, kind) in map {
                match fields.iter().position(|f| f == field.get_ref()) {
                    Some(i) => out[i] = Some(escaping(*kind.get_ref())),
                    None => sink.error(
                        Some(field.span()),
                        format!(
                            "list fact `{name}` has no field `{}` to escape",
                            shown(field.get_ref())
                        ),
                        Some(hint(
                            field.get_ref(),
                            fields.iter().map(String::as_str),
                            "the item template's fields",
                        )),
                    ),
                }
            }
            out
        }
    }
}

/// Why printing a value escaped as `escaping` between `before` and `after` is a mistake,
/// and its help.
fn misplaced(
    escaping: Escaping,
    before: &str,
    after: &str,
    shown: &str,
) -> Option<(String, String)> {
    match escaping {
        Escaping::Json if before.ends_with('"') || after.starts_with('"') => Some((
            format!("`{shown}` prints a JSON string with its quotes: the quotes around it would double them"),
            format!("remove the `\"` around `{shown}`: `escape = \"json\"` writes `\"…\"` itself"),
        )),
        Escaping::Xml if in_cdata(before) => Some((
            format!("`{shown}` prints XML entities inside a CDATA section, where they are not read as entities"),
            "move it out of `<![CDATA[…]]>` (entities are read everywhere else), or remove `escape`".into(),
        )),
        _ => None,
    }
}

/// Whether the end of `before` is inside a CDATA section.
fn in_cdata(before: &str) -> bool {
    before
        .rfind("<![CDATA[")
        .is_some_and(|open| !before[open..].contains("]]>"))
}

/// Checks fact `fact`'s placeholder at byte `offset` of `body` (a layer's text) against
/// what surrounds it.
pub(super) fn placed(fact: &Fact, body: &str, offset: usize, at: &At, sink: &mut Sink<'_>) {
    let Some(Some(escaping)) = fact.escape.first().filter(|_| fact.list.is_none()) else {
        return;
    };
    placed_as(*escaping, body, offset, at, sink);
}

/// Checks the fields a loop over list fact `fact` prints in its body (`pieces`, read from
/// `body`, a layer's text), each against what surrounds it there, as a fact's placeholder
/// is: the body is that loop's item template.
pub(super) fn placed_in_loop(
    fact: &Fact,
    pieces: &[Piece],
    body: &str,
    locate: &dyn Fn(usize) -> At,
    sink: &mut Sink<'_>,
) {
    let Some(list) = &fact.list else {
        return;
    };
    for piece in pieces {
        let Piece::Name(name, offset) = piece else {
            continue;
        };
        let field = match name.as_str() {
            "." | "0" => Some(0),
            name => list.fields.iter().position(|f| f == name),
        };
        if let Some(Some(escaping)) = field.and_then(|f| fact.escape.get(f)) {
            placed_as(*escaping, body, *offset, &locate(*offset), sink);
        }
    }
}

/// Checks a value printed escaped as `escaping` by the placeholder at byte `offset` of
/// `body` against what surrounds it.
fn placed_as(escaping: Escaping, body: &str, offset: usize, at: &At, sink: &mut Sink<'_>) {
    // As many braces close it as opened it: one in braces, two or three in mustache (a
    // braces text's `{{` is a literal brace, never a placeholder's start).
    let braces = body[offset..]
        .bytes()
        .take(3)
        .take_while(|&b| b == b'{')
        .count();
    let close = &"}}}"[..braces.max(1)];
    let end = body[offset..]
        .find(close)
        .map_or(body.len(), |e| offset + e + close.len());
    let placeholder = &body[offset..end];
    if let Some((message, help)) = misplaced(escaping, &body[..offset], &body[end..], placeholder) {
        report(sink, at, message, &help);
    }
}

/// Checks each escaped field of list fact `fact` against what surrounds it in the item
/// template (reported at `item`, the template's span).
pub(super) fn placed_in_items(fact: &Fact, item: Option<Range<usize>>, sink: &mut Sink<'_>) {
    let Some(list) = &fact.list else {
        return;
    };
    fn text(p: Option<&ItemPiece>) -> &str {
        match p {
            Some(ItemPiece::Text(t)) => t.as_str(),
            _ => "",
        }
    }
    for (i, piece) in list.item.iter().enumerate() {
        let ItemPiece::Field(f) = piece else {
            continue;
        };
        let Some(Some(escaping)) = fact.escape.get(*f) else {
            continue;
        };
        let before = text(i.checked_sub(1).and_then(|b| list.item.get(b)));
        let field = list.fields.get(*f).map_or("0", String::as_str);
        let shown = format!("{{{field}}}");
        if let Some((message, help)) =
            misplaced(*escaping, before, text(list.item.get(i + 1)), &shown)
        {
            let message = format!("the item template of list fact `{}`: {message}", fact.name);
            sink.error(item.clone(), message, Some(help));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_value_in_quotes_and_an_xml_value_in_cdata_are_mistakes() {
        let json = |b, a| misplaced(Escaping::Json, b, a, "{x}").is_some();
        assert!(json("say \"", "\""));
        assert!(json("{\"k\": \"", ""));
        assert!(!json("{\"k\": ", "}"));
        let xml = |b, a| misplaced(Escaping::Xml, b, a, "{x}").is_some();
        assert!(xml("<a><![CDATA[", "]]></a>"));
        assert!(!xml("<![CDATA[x]]><a href=\"", "\">"));
        assert!(!xml("# Heading\n", ""));
    }
}
