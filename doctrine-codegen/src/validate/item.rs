//! An item template's pieces resolved against its list's fields: a list fact's `item` (or
//! `item_file`), and the body of a `{#list}…{/list}` loop in a layer's text. Both print one
//! item: its fields by name (a plain list's item is `{0}` or `{.}`) and sections on them.

use super::placeholder::Piece;
use crate::model::{FieldKind, ItemPiece, ItemStep};
use crate::names::shown;
use doctrine_load::__internals::template::Cond;

/// The fields an item template may read.
pub(super) struct Fields<'a> {
    /// The list fact, for messages.
    pub(super) list: &'a str,
    /// Named fields; empty for a plain list.
    pub(super) names: &'a [String],
    pub(super) kinds: &'a [FieldKind],
    /// A loop's body (where a fact's name is no field either), not a list's `item`.
    pub(super) in_loop: bool,
}

/// Why an item template does not resolve: the byte offset of the tag, what, and the fix.
#[derive(Debug)]
pub(super) struct ItemError {
    pub(super) at: usize,
    pub(super) message: String,
    pub(super) help: String,
}

impl Fields<'_> {
    /// `pieces` (already through the standalone-tag rule) as the runtime's item template,
    /// followed by a section on the last field when the template does not read it, so an
    /// item is kept or left out by every field, whatever this template prints.
    pub(super) fn resolve(&self, pieces: &[Piece]) -> Result<Vec<ItemPiece>, ItemError> {
        let mut item = Vec::with_capacity(pieces.len() + 2);
        for p in pieces {
            item.push(match p {
                Piece::Lit(t) => ItemPiece::Text(t.clone()),
                Piece::Name(n, at) => ItemPiece::Field(self.printed(n, *at)?),
                Piece::Html(n, at) => ItemPiece::Html(self.printed(n, *at)?),
                Piece::Open(n, negated, at) => ItemPiece::Open(self.field(n, *at)?, *negated),
                Piece::Close(..) => ItemPiece::Close,
                Piece::When(cond, written, at) => {
                    let mut steps = Vec::new();
                    self.steps(cond, written, *at, &mut steps)?;
                    ItemPiece::When(steps)
                }
                Piece::Count(n, count, _, at) => {
                    return Err(ItemError {
                        at: *at,
                        message: format!(
                            "`{{?{}:{}}}` counts a list, and an item has no list",
                            shown(n),
                            count.word()
                        ),
                        help: format!(
                            "put the counted section outside the loop over `{}`",
                            self.list
                        ),
                    })
                }
                Piece::Loop(n, at) => {
                    return Err(ItemError {
                        at: *at,
                        message: format!(
                            "loop `{{#{}}}` inside an item of list fact `{}`: loops do not nest",
                            shown(n),
                            self.list
                        ),
                        help: "an item prints its own fields and sections on them".into(),
                    })
                }
            });
        }
        let width = self.names.len().max(1);
        let reads_last = item.iter().any(|p| match p {
            ItemPiece::Field(i) | ItemPiece::Html(i) | ItemPiece::Open(i, _) => *i + 1 == width,
            ItemPiece::When(steps) => steps
                .iter()
                .any(|s| matches!(s, ItemStep::Given(i) | ItemStep::Is(i, _) if *i + 1 == width)),
            ItemPiece::Text(_) | ItemPiece::Close => false,
        });
        if !reads_last {
            item.extend([ItemPiece::Open(width - 1, false), ItemPiece::Close]);
        }
        Ok(item)
    }

    /// The index of field `n`, which a placeholder prints: a bool field has no text.
    fn printed(&self, n: &str, at: usize) -> Result<usize, ItemError> {
        let i = self.field(n, at)?;
        match self.kinds.get(i) {
            Some(FieldKind::Bool) => Err(ItemError {
                at,
                message: format!("`{{{n}}}` prints bool field `{n}` of list fact `{}`, which has no text", self.list),
                help: format!("test it instead: `{{?{n}}}…{{/{n}}}` prints when it is true, `{{?!{n}}}…{{/{n}}}` when false"),
            }),
            Some(FieldKind::Struct) => Err(ItemError {
                at,
                message: format!("`{{{n}}}` prints nested struct `{n}` of list fact `{}`, which has no text of its own", self.list),
                help: format!("print one of its fields, e.g. `{{{}}}`, inside `{{?{n}}}…{{/{n}}}` (printed when it is there)", self.names[i + 1]),
            }),
            _ => Ok(i),
        }
    }

    /// The index of field `n` (`{0}` or `{.}`: a plain list's item).
    /// A condition over the item's fields, in postfix order: a field given (a bool on), a
    /// text field's value, joined; a list's count or items are not an item's.
    fn steps(
        &self,
        cond: &Cond,
        written: &str,
        at: usize,
        out: &mut Vec<ItemStep>,
    ) -> Result<(), ItemError> {
        match cond {
            Cond::Given(n) => out.push(ItemStep::Given(self.field(n, at)?)),
            Cond::Is(n, value) => {
                let i = self.field(n, at)?;
                if let Some(k @ (FieldKind::Bool | FieldKind::Struct)) = self.kinds.get(i) {
                    let what = match k {
                        FieldKind::Bool => "bool field",
                        _ => "nested struct",
                    };
                    return Err(ItemError {
                        at,
                        message: format!("section `{{?{}}}` compares {what} `{n}` to a value", shown(written)),
                        help: match k {
                            FieldKind::Bool => format!("test the field alone: `{n}` or `not {n}`"),
                            _ => format!("test whether it is there, `{n}` or `not {n}`, or compare one of its fields, e.g. `{} = \"{}\"`", self.names[i + 1], shown(value)),
                        },
                    });
                }
                out.push(ItemStep::Is(i, value.clone()));
            }
            Cond::Count(n, _) | Cond::Has(n, _) => {
                return Err(ItemError {
                    at,
                    message: format!(
                        "section `{{?{}}}` counts or searches `{}`, and an item's fields are text or bool, not lists",
                        shown(written),
                        shown(n)
                    ),
                    help: format!("test the list outside the loop over `{}`", self.list),
                })
            }
            Cond::Not(c) => {
                self.steps(c, written, at, out)?;
                out.push(ItemStep::Not);
            }
            Cond::All(cs) | Cond::Any(cs) => {
                let join = match cond {
                    Cond::All(_) => ItemStep::And,
                    _ => ItemStep::Or,
                };
                for (k, c) in cs.iter().enumerate() {
                    self.steps(c, written, at, out)?;
                    if k > 0 {
                        out.push(join.clone());
                    }
                }
            }
        }
        Ok(())
    }

    fn field(&self, n: &str, at: usize) -> Result<usize, ItemError> {
        let item = n == "0" || n == ".";
        if self.names.is_empty() {
            return match item {
                true => Ok(0),
                false => Err(ItemError {
                    at,
                    message: format!("`{}` is not a field: list fact `{}` is a plain list of strings", shown(n), self.list),
                    help: "a plain list's item is `{.}`; for items with fields, declare them: `fields = { name = \"text\", ... }`".into(),
                }),
            };
        }
        match self.names.iter().position(|f| f == n) {
            Some(i) => Ok(i),
            None if item => Err(ItemError {
                at,
                message: format!(
                    "`{{{n}}}` is a plain list's item, and list fact `{}` has fields",
                    self.list
                ),
                help: format!("name a field: {}", listed(self.names)),
            }),
            None if n.contains('.') => Err(self.no_nested(n, at)),
            None => {
                let mut help =
                    super::hint::hint(n, self.names.iter().map(String::as_str), "its fields");
                if self.in_loop {
                    help.push_str(
                        "; inside a loop only the item's fields print (print a fact outside it)",
                    );
                }
                Err(ItemError {
                    at,
                    message: format!("list fact `{}` has no field `{}`", self.list, shown(n)),
                    help,
                })
            }
        }
    }
}

impl Fields<'_> {
    /// Why dotted path `n` names no field: its first part is no nested struct, or the
    /// struct has no such field.
    fn no_nested(&self, n: &str, at: usize) -> ItemError {
        let (outer, _) = n.split_once('.').unwrap_or((n, ""));
        let list = self.list;
        let position = self.names.iter().position(|f| f == outer);
        let (message, help) = match position.map(|i| (i, self.kinds[i])) {
            Some((i, FieldKind::Struct)) => {
                let nested = self.names[i + 1..]
                    .iter()
                    .take_while(|f| f.starts_with(&format!("{outer}.")));
                (
                    format!("nested struct `{outer}` of list fact `{list}` has no field `{}`", shown(n)),
                    super::hint::hint(n, nested.map(String::as_str), "its fields"),
                )
            }
            Some(_) => (
                format!("`{}` reads a field of `{outer}`, a field of list fact `{list}` that is no nested struct", shown(n)),
                format!("print `{outer}` itself, or declare it a nested table: `{outer} = {{ field = \"text\" }}`"),
            ),
            None => (
                format!("list fact `{list}` has no nested struct `{}`", shown(outer)),
                super::hint::hint(
                    outer,
                    self.names.iter().zip(self.kinds).filter(|(_, k)| **k == FieldKind::Struct).map(|(f, _)| f.as_str()),
                    "its nested structs",
                ),
            ),
        };
        ItemError { at, message, help }
    }
}

fn listed(names: &[String]) -> String {
    format!("`{}`", names.join("`, `"))
}
