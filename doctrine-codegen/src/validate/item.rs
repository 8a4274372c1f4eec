//! An item template's pieces resolved against its list's fields: a list fact's `item` (or
//! `item_file`), and the body of a `{#list}…{/list}` loop in a layer's text. Both print one
//! item: its fields by name (a plain list's item is `{0}` or `{.}`) and sections on them.

use super::placeholder::Piece;
use crate::model::{FieldKind, ItemPiece};
use crate::names::shown;

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
                Piece::When(_, written, at) => {
                    return Err(ItemError {
                        at: *at,
                        message: format!(
                            "section `{{?{}}}` in an item of list fact `{}`: a section in an item tests one field",
                            shown(written),
                            self.list
                        ),
                        help: "nest sections for `and` (`{?a}{?b}…{/b}{/a}`), or give the item a bool field the caller computes".into(),
                    })
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
        let reads_last = item
            .iter()
            .any(|p| matches!(p, ItemPiece::Field(i) | ItemPiece::Html(i) | ItemPiece::Open(i, _) if *i + 1 == width));
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
            _ => Ok(i),
        }
    }

    /// The index of field `n` (`{0}` or `{.}`: a plain list's item).
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

fn listed(names: &[String]) -> String {
    format!("`{}`", names.join("`, `"))
}
