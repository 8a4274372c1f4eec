//! List facts (`list = { item, join, sort, max, more }`) and the skill index: how a list
//! prints, checked.

use std::ops::Range;

use super::at::{report, At};
use super::hint::hint;
use super::placeholder::{item_placeholders, placeholders, Piece};
use crate::diag::{Sink, Span};
use crate::load::Loader;
use crate::model::{FieldKind, ItemPiece, ListSpec};
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
    loader: &mut Loader,
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
    let l = list.get_ref();
    let item = match (&l.item, &l.item_file) {
        (Some(_), Some(file)) => {
            sink.error(
                Some(file.span()),
                format!("list fact `{name}` has both `item` and `item_file`"),
                Some("an item template is written once: keep one of them".into()),
            );
            return None;
        }
        (_, Some(file)) => Some(item_file(file, loader, sink)?),
        (Some(item), None) => Some(ItemText::inline(item)),
        (None, None) => None,
    };
    let spec = list_body(name, l, item, sink);
    spec.filter(|_| ok)
}

/// An item template's text, and where a problem at one of its offsets is reported.
pub(super) struct ItemText {
    text: String,
    /// The file it was read from, as a span of its whole text.
    file: Option<Span>,
    manifest: Range<usize>,
}

impl ItemText {
    /// `item = "..."` in the manifest.
    pub(super) fn inline(item: &toml::Spanned<String>) -> Self {
        ItemText {
            text: crate::text::normalise(item.get_ref()),
            file: None,
            manifest: item.span(),
        }
    }

    fn at(&self, offset: usize) -> At {
        match &self.file {
            Some(f) => {
                let at = f.start().unwrap_or(0) + offset;
                At::File(Span::new(f.file, at..at))
            }
            None => At::Manifest(self.manifest.clone()),
        }
    }
}

/// `item_file = "path.md"`: the file's text (normalised, without the line break that ends
/// its last line), located in the file.
fn item_file(
    path: &toml::Spanned<String>,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<ItemText> {
    let canonical = loader.resolve(path, sink)?;
    let mut text = loader.read_text(&canonical, path.span(), sink)?;
    if text.ends_with('\n') {
        text.pop();
    }
    let display = loader.display(&canonical);
    let len = text.len();
    let file = Span::new(sink.add_file(display, text.clone()), 0..len);
    Some(ItemText {
        text,
        file: Some(file),
        manifest: path.span(),
    })
}

/// A list's item template, fields, join, sort and cap, checked.
pub(super) fn list_body(
    name: &str,
    l: &raw::List,
    item: Option<ItemText>,
    sink: &mut Sink<'_>,
) -> Option<ListSpec> {
    let mut ok = true;
    let declared = l
        .fields
        .as_ref()
        .and_then(|f| declared_fields(name, f, sink));
    ok &= l.fields.is_none() || declared.is_some();
    let template = match (item, &declared) {
        (Some(item), _) => item_template(name, &item, declared.as_ref(), sink),
        (None, Some((names, kinds))) => Some(keep_all(name, names, kinds)),
        (None, None) => item_template(name, &plain_item(l), None, sink),
    };
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
    let (item, fields, kinds, printable) = template?;
    let sort = match l.sort.as_ref() {
        None => None,
        Some(s) => Some(sort_by(name, s, &fields, sink)?).flatten(),
    };
    let text =
        |s: Option<&str>, default: &str| s.map_or(default.to_string(), crate::text::normalise);
    let join = l.join.as_ref().map(|j| j.get_ref());
    ok.then(|| ListSpec {
        item,
        printable,
        fields,
        kinds,
        join: text(join.map(raw::Join::text), "\n"),
        sort,
        max: l.max.as_ref().map(|m| *m.get_ref()),
        more: text(
            l.more.as_ref().map(|m| m.get_ref().as_str()),
            "(and {n} more)",
        ),
        max_bytes: None,
        budget_items: false,
        join_ends_line: join.is_some_and(raw::Join::ends_line),
        skip_blank: l.skip.as_ref().map(|s| *s.get_ref()) == Some(raw::ListSkip::Blank),
    })
}

/// A plain list's default item template, `{0}`, at the list's own place.
fn plain_item(l: &raw::List) -> ItemText {
    let at = (l.join.as_ref().map(|j| j.span())).or(l.more.as_ref().map(|s| s.span()));
    ItemText {
        text: "{0}".into(),
        file: None,
        manifest: at.unwrap_or_default(),
    }
}

/// `sort`: `Some(None)` for no sort, `None` when it names no field (reported).
fn sort_by(
    name: &str,
    s: &toml::Spanned<raw::ListSort>,
    fields: &[String],
    sink: &mut Sink<'_>,
) -> Option<Option<usize>> {
    match (s.get_ref(), fields.is_empty()) {
        (raw::ListSort::On(false), _) => Some(None),
        (raw::ListSort::On(true), true) => Some(Some(0)),
        (raw::ListSort::On(true), false) => {
            sink.error(
                Some(s.span()),
                format!("list fact `{name}` has fields: `sort = true` does not say which one to sort by"),
                Some(format!("name a field of the item template, e.g. `sort = \"{}\"`", fields[0])),
            );
            None
        }
        (raw::ListSort::By(by), true) => {
            sink.error(
                Some(s.span()),
                format!(
                    "list fact `{name}` is a plain list (`{{0}}`): it has no field `{}` to sort by",
                    shown(by)
                ),
                Some("a plain list sorts by its items: write `sort = true`".into()),
            );
            None
        }
        (raw::ListSort::By(by), false) => match fields.iter().position(|f| f == by) {
            Some(i) => Some(Some(i)),
            None => {
                sink.error(
                    Some(s.span()),
                    format!("list fact `{name}` has no field `{}` to sort by", shown(by)),
                    Some(hint(
                        by,
                        fields.iter().map(String::as_str),
                        "the item's fields",
                    )),
                );
                None
            }
        },
    }
}

/// `fields = { ... }`: each name a field of the generated item struct, at least one text.
/// A nested table's fields follow its own entry (a [`FieldKind::Struct`]), each named
/// `outer.field`: the runtime reads them by index as it reads flat fields.
fn declared_fields(
    name: &str,
    fields: &toml::Spanned<raw::FieldTypes>,
    sink: &mut Sink<'_>,
) -> Option<(Vec<String>, Vec<FieldKind>)> {
    let mut ok = true;
    let (mut names, mut kinds) = (Vec::new(), Vec::new());
    for (field, ty) in &fields.get_ref().0 {
        let outer = field.get_ref();
        ok &= super::idents::check_ident(
            sink,
            field.span(),
            "item field",
            outer,
            "a field of the item struct",
        );
        names.push(outer.clone());
        match ty {
            raw::FieldType::Kind(k) => kinds.push(kind(*k.get_ref())),
            raw::FieldType::Nested(nested) => {
                kinds.push(FieldKind::Struct);
                if nested.get_ref().is_empty() {
                    sink.error(
                        Some(nested.span()),
                        format!("item field `{outer}` of list fact `{name}` is a nested table with no field"),
                        Some(format!("give it fields, e.g. `{outer} = {{ path = \"text\" }}`, or make it a flag: `{outer} = \"bool\"`")),
                    );
                    ok = false;
                }
                for (inner, k) in nested.get_ref() {
                    ok &= super::idents::check_ident(
                        sink,
                        inner.span(),
                        "item field",
                        inner.get_ref(),
                        "a field of the nested struct",
                    );
                    names.push(format!("{outer}.{}", inner.get_ref()));
                    kinds.push(kind(*k.get_ref()));
                }
            }
        }
    }
    if !kinds.iter().any(|k| k.printed()) {
        sink.error(
            Some(fields.span()),
            format!("list fact `{name}` declares no text field"),
            Some("an item needs a field of text (`\"text\"` or `\"text?\"`): a list of flags alone prints nothing to tell its items apart".into()),
        );
        ok = false;
    }
    ok.then_some((names, kinds))
}

fn kind(k: raw::FieldKind) -> FieldKind {
    match k {
        raw::FieldKind::Text => FieldKind::Text,
        raw::FieldKind::Bool => FieldKind::Bool,
        raw::FieldKind::OptText => FieldKind::OptText,
    }
}

/// What a list with declared fields and no item template prints where `{list}` stands:
/// nothing (refused where it is written); only its loops print it. Its items are still
/// kept or left out by every field, for `{?list}` and the count.
fn keep_all(name: &str, names: &[String], kinds: &[FieldKind]) -> Template {
    let fields = super::item::Fields {
        list: name,
        names,
        kinds,
        in_loop: false,
    };
    let item = fields.resolve(&[]).unwrap_or_default();
    (item, names.to_vec(), kinds.to_vec(), false)
}

/// An item template, its fields and their kinds, and whether it prints.
type Template = (Vec<ItemPiece>, Vec<String>, Vec<FieldKind>, bool);

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
                Piece::Name(n, _) | Piece::Html(n, _) => {
                    Some(format!("`{{{}}}` is not `{{n}}`", shown(n)))
                }
                Piece::Open(n, ..)
                | Piece::Count(n, ..)
                | Piece::Loop(n, _)
                | Piece::Close(n, _)
                | Piece::When(_, n, _) => Some(format!(
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

/// A list's item template as pieces, and its named fields: the declared ones, or (for a
/// list without `fields`) the names the template prints, in order of first use (none for
/// a plain list, whose item is `{0}` or `{.}`). The standalone-tag rule applies, as in a
/// layer. Errors are reported at the template.
fn item_template(
    name: &str,
    item: &ItemText,
    declared: Option<&(Vec<String>, Vec<FieldKind>)>,
    sink: &mut Sink<'_>,
) -> Option<Template> {
    let pieces = match item_placeholders(&item.text) {
        Ok(p) => super::standalone(p),
        Err(e) => {
            let help = e.help_or("write `{0}` for a plain list's item, or `{field}` for each field of an item; `{{` and `}}` print braces");
            let message = format!("the item template of list fact `{name}`: {}", e.message);
            report(sink, &item.at(e.at), message, &help);
            return None;
        }
    };
    if !pieces.iter().any(|p| matches!(p, Piece::Name(..))) && declared.is_none() {
        let message =
            format!("the item template of list fact `{name}` has no `{{0}}` and no field");
        let help = "write where each item goes, e.g. `item = \"- {0}\"`, or its fields, e.g. `item = \"- {name}: {when}\"`";
        report(sink, &item.at(0), message, help);
        return None;
    }
    let (names, kinds) = match declared {
        Some((names, kinds)) => (names.clone(), kinds.clone()),
        None => {
            let names = inferred_fields(name, &pieces, item, sink)?;
            let kinds = vec![FieldKind::Text; names.len()];
            (names, kinds)
        }
    };
    let fields = super::item::Fields {
        list: name,
        names: &names,
        kinds: &kinds,
        in_loop: false,
    };
    match fields.resolve(&pieces) {
        Ok(resolved) => Some((resolved, names, kinds, true)),
        Err(e) => {
            let message = format!("the item template of list fact `{name}`: {}", e.message);
            report(sink, &item.at(e.at), message, &e.help);
            None
        }
    }
}

/// The fields a template without `fields` names, in order of first use; none when it
/// prints `{0}` or `{.}` (a plain list), and an error when it mixes the two.
fn inferred_fields(
    name: &str,
    pieces: &[Piece],
    item: &ItemText,
    sink: &mut Sink<'_>,
) -> Option<Vec<String>> {
    let names = pieces.iter().filter_map(|p| match p {
        Piece::Name(n, _) | Piece::Open(n, _, _) => Some(n.as_str()),
        _ => None,
    });
    let plain = names.clone().any(|n| n == "0" || n == ".");
    let mut fields: Vec<String> = Vec::new();
    for n in names.filter(|n| *n != "0" && *n != ".") {
        if !fields.iter().any(|f| f == n) {
            fields.push(n.to_string());
        }
    }
    if let Some(dotted) = fields.iter().find(|f| f.contains('.')) {
        let (outer, inner) = dotted.split_once('.').unwrap_or_default();
        let message = format!("the item template of list fact `{name}` reads `{dotted}`, a field of a nested struct, and the list declares no fields");
        let help = format!("declare the item's fields, the nested struct as a table: `fields = {{ {outer} = {{ {inner} = \"text\" }} }}`");
        report(sink, &item.at(0), message, &help);
        return None;
    }
    if plain && !fields.is_empty() {
        let message = format!(
            "the item template of list fact `{name}` mixes `{{0}}` with named fields (`{}`)",
            fields.join("`, `")
        );
        let help = "a plain list's items are strings (`{0}`); items with fields name each one (`{name}`): use one or the other";
        report(sink, &item.at(0), message, help);
        return None;
    }
    Some(fields)
}
