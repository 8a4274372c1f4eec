//! Building a generated `Facts` value from untyped `(name, value)` pairs, as a command
//! line or a wire protocol delivers them. The typed facts structs need none of this: there
//! a missing or foreign fact does not compile.

use std::error::Error;
use std::fmt;

use super::choice::{Choice, ParseChoiceError};

/// Why a set of `(name, value)` pairs does not make the facts of a role (mode).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FactError {
    /// A fact the role requires was not given.
    Missing {
        /// The role (mode).
        role: &'static str,
        /// The fact it requires.
        fact: &'static str,
    },
    /// The role does not take a fact of that name (or no fact has that name).
    NotTaken {
        /// The role (mode).
        role: &'static str,
        /// The name given.
        fact: String,
        /// The facts the role takes.
        takes: &'static [&'static str],
    },
    /// The same fact was given twice.
    Repeated(&'static str),
    /// A closed-set fact got a value outside its set.
    Value(ParseChoiceError),
    /// A list fact named in a pair: a list is given on the facts struct, as `&[&str]`.
    List(&'static str),
}

impl fmt::Display for FactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FactError::Missing { role, fact } => write!(f, "`{role}` requires fact `{fact}`"),
            FactError::NotTaken { role, fact, takes } => write!(
                f,
                "`{role}` does not take fact `{fact}`; it takes: {}",
                if takes.is_empty() {
                    "none".to_string()
                } else {
                    takes.join(", ")
                }
            ),
            FactError::Repeated(fact) => write!(f, "fact `{fact}` is given twice"),
            FactError::Value(e) => e.fmt(f),
            FactError::List(fact) => write!(
                f,
                "fact `{fact}` is a list: set it on the facts struct as a slice"
            ),
        }
    }
}

impl Error for FactError {}

/// Fills `slots` (one per declared fact, in manifest order) from `pairs`, accepting only
/// the facts whose index is in `takes`. Used by generated `Facts::from_pairs`.
pub fn collect<'a, const F: usize>(
    role: &'static str,
    names: &'static [&'static str; F],
    takes: &'static [&'static str],
    lists: &'static [&'static str],
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<[Option<&'a str>; F], FactError> {
    let mut slots = [None; F];
    for (name, value) in pairs {
        if let Some(list) = lists.iter().find(|l| **l == name) {
            return Err(FactError::List(list));
        }
        let Some(i) = names
            .iter()
            .position(|n| *n == name)
            .filter(|&i| takes.contains(&names[i]))
        else {
            return Err(FactError::NotTaken {
                role,
                fact: name.to_string(),
                takes,
            });
        };
        if slots[i].replace(value).is_some() {
            return Err(FactError::Repeated(names[i]));
        }
    }
    Ok(slots)
}

/// A required free-text fact.
pub fn required<'a>(
    role: &'static str,
    fact: &'static str,
    value: Option<&'a str>,
) -> Result<&'a str, FactError> {
    value.ok_or(FactError::Missing { role, fact })
}

/// A required fact given to `Facts::builder`, of any type.
pub fn need<T>(value: Option<T>, role: &'static str, fact: &'static str) -> Result<T, FactError> {
    value.ok_or(FactError::Missing { role, fact })
}

/// `Facts::builder`'s check that the role takes every fact given: `given[i]` for fact `i`
/// of `names`, `taken[i]` whether the role takes it, `takes` what it takes (for the
/// message).
pub fn taken(
    role: &'static str,
    (given, taken): (&[bool], &[bool]),
    names: &[&'static str],
    takes: &'static [&'static str],
) -> Result<(), FactError> {
    let foreign = (0..given.len()).find(|&i| given[i] && !taken[i]);
    match foreign {
        None => Ok(()),
        Some(i) => Err(FactError::NotTaken {
            role,
            fact: names[i].to_string(),
            takes,
        }),
    }
}

/// An optional closed-set fact.
pub fn choice<T: Choice>(value: Option<&str>) -> Result<Option<T>, FactError> {
    value.map(T::parse).transpose().map_err(FactError::Value)
}

/// A required closed-set fact.
pub fn required_choice<T: Choice>(
    role: &'static str,
    fact: &'static str,
    value: Option<&str>,
) -> Result<T, FactError> {
    T::parse(required(role, fact, value)?).map_err(FactError::Value)
}

/// An optional fact given as `""` is not given: `Some("")` and `None` compose the same.
/// Used by generated code.
#[inline]
pub fn present(value: Option<&str>) -> Option<&str> {
    value.filter(|v| !v.is_empty())
}

/// A slot value as the layer takes it: trimmed where the manifest trims the layer, and not
/// given when empty after that. Used by generated code.
#[inline]
pub fn given(value: Option<&str>, trim: bool) -> Option<&str> {
    let value = if trim { value.map(str::trim) } else { value };
    present(value)
}

/// What a fact with value texts prints: the text of its value, or the value itself when it
/// is not a key (free text, with `other = "verbatim"`); `""` when not given. Used by
/// generated code.
#[inline]
pub fn value_text<'a>(
    value: Option<&'a str>,
    texts: &'static [(&'static str, &'static str)],
) -> &'a str {
    match value {
        None => "",
        Some(v) => texts.iter().find(|(k, _)| *k == v).map_or(v, |(_, t)| t),
    }
}

/// How a list fact prints: the manifest's `list = { item, join, sort, max, more }`. Used
/// by generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListStyle {
    /// The item template: text, fields (`{0}` is field 0 of a plain list) and sections.
    pub item: &'static [ItemPiece],
    pub join: &'static str,
    /// The field the items are sorted by (ties by the others in order).
    pub sort: Option<usize>,
    pub max: Option<usize>,
    /// After `max` items: this line, `{n}` the number left out (`{{` and `}}` a brace).
    pub more: &'static str,
}

/// One piece of a list's item template. Used by generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemPiece {
    Text(&'static str),
    /// The item's field of this index.
    Field(usize),
    /// `{?field}` (`true`: `{?!field}`): what follows up to the matching `Close` prints
    /// only when the field is non-empty (empty).
    Open(usize, bool),
    Close,
}

/// A plain list fact as it prints: each non-empty item through the template (sorted if
/// asked), joined, at most `max` of them and then a line saying how many were left out
/// (never a silent cut). An empty list, or one of empty items, prints nothing: it is
/// absent.
pub fn render_list(items: &[&str], style: &ListStyle) -> String {
    render(items, |item, _| item, style)
}

/// A list fact with named fields, each item given as its fields in template order: as
/// [`render_list`], an item is left out when all its fields are empty.
pub fn render_rows<const N: usize>(rows: &[[&str; N]], style: &ListStyle) -> String {
    render(rows, |row, i| row[i], style)
}

fn render<R>(rows: &[R], field: impl Fn(&R, usize) -> &str, style: &ListStyle) -> String {
    let fields = style
        .item
        .iter()
        .filter_map(|p| match p {
            ItemPiece::Field(i) | ItemPiece::Open(i, _) => Some(*i + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let mut kept: Vec<&R> = rows
        .iter()
        .filter(|r| (0..fields).any(|i| !field(r, i).is_empty()))
        .collect();
    if let Some(by) = style.sort {
        // Ties on the key are broken by the other fields, so the order given never shows.
        kept.sort_by(|a, b| {
            std::iter::once(by)
                .chain(0..fields)
                .map(|i| field(a, i).cmp(field(b, i)))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
    }
    // Two passes over the same pieces: the first measures, so the text is allocated once at
    // its exact length.
    let mut len = 0;
    write(&kept, &field, style, &mut |piece| len += piece.len());
    let mut out = String::with_capacity(len);
    write(&kept, &field, style, &mut |piece| out.push_str(piece));
    out
}

/// Hands each piece of the rendered list of `kept` items to `out`, in order.
fn write<R>(
    kept: &[&R],
    field: &impl Fn(&R, usize) -> &str,
    style: &ListStyle,
    out: &mut impl FnMut(&str),
) {
    let shown = style.max.map_or(kept.len(), |m| m.min(kept.len()));
    for (n, row) in kept[..shown].iter().enumerate() {
        if n > 0 {
            out(style.join);
        }
        write_item(style.item, |i| field(row, i), out);
    }
    write_more(kept.len() - shown, style, out);
}

/// Hands each piece of one item, printed through the item template, to `out`.
pub(crate) fn write_item<'r>(
    item: &'r [ItemPiece],
    field: impl Fn(usize) -> &'r str,
    out: &mut impl FnMut(&'r str),
) {
    // Sections skipped from here: the depth of the outermost one that is off.
    let (mut depth, mut off_at) = (0usize, None);
    for piece in item {
        match *piece {
            ItemPiece::Open(i, negated) => {
                depth += 1;
                if off_at.is_none() && field(i).is_empty() != negated {
                    off_at = Some(depth);
                }
            }
            ItemPiece::Close => {
                if off_at == Some(depth) {
                    off_at = None;
                }
                depth = depth.saturating_sub(1);
            }
            _ if off_at.is_some() => {}
            ItemPiece::Text(t) => out(t),
            ItemPiece::Field(i) => out(field(i)),
        }
    }
}

/// After a list cut at `max`: the join, then the `more` line with `{n}` the number left
/// out (nothing when none was).
pub(crate) fn write_more(left: usize, style: &ListStyle, out: &mut impl FnMut(&str)) {
    if left > 0 {
        out(style.join);
        more_line(style.more, &left.to_string(), out);
    }
}

/// Hands the pieces of a `more` line to `out`: `{n}` as `left`, `{{` and `}}` as one
/// brace (the manifest's checks admit no other brace).
fn more_line(mut more: &str, left: &str, out: &mut impl FnMut(&str)) {
    while let Some(at) = more.find(['{', '}']) {
        out(&more[..at]);
        let rest = &more[at..];
        let (piece, skip) = if rest.starts_with("{n}") {
            (left, 3)
        } else {
            // `{{` or `}}`: one brace.
            (&rest[..1], 2.min(rest.len()))
        };
        out(piece);
        more = &rest[skip..];
    }
    out(more);
}

#[cfg(test)]
mod tests {
    use super::ItemPiece::{Close, Field, Open, Text};
    use super::*;

    #[test]
    fn item_sections_nest_and_negate() {
        // `{0}{?1} ({1}{?2}, {2}{/2}){/1}{?!1} (no when){/1}`
        const ITEM: &[ItemPiece] = &[
            Field(0),
            Open(1, false),
            Text(" ("),
            Field(1),
            Open(2, false),
            Text(", "),
            Field(2),
            Close,
            Text(")"),
            Close,
            Open(1, true),
            Text(" (no when)"),
            Close,
        ];
        let style = ListStyle {
            item: ITEM,
            join: "|",
            sort: None,
            max: None,
            more: "",
        };
        let rows = [
            ["a", "w", "x"],
            ["b", "w", ""],
            ["c", "", "x"],
            ["", "", ""],
        ];
        assert_eq!(render_rows(&rows, &style), "a (w, x)|b (w)|c (no when)");
    }

    #[test]
    fn a_more_line_prints_its_count_and_escaped_braces() {
        let style = ListStyle {
            item: &[Field(0)],
            join: ",",
            sort: None,
            max: Some(1),
            more: "{{{n}}} more ({n} left out)}}",
        };
        assert_eq!(
            render_list(&["a", "b", "c"], &style),
            "a,{2} more (2 left out)}"
        );
    }

    #[test]
    fn a_cap_says_how_many_it_left_out() {
        let style = ListStyle {
            item: &[Text("- "), Field(0)],
            join: "\n",
            sort: Some(0),
            max: Some(2),
            more: "({n} more)",
        };
        assert_eq!(
            render_list(&["c", "", "b", "a", "d"], &style),
            "- a\n- b\n(2 more)"
        );
        assert_eq!(render_list(&["", ""], &style), "");
    }
}
