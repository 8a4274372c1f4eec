//! A list fact's `ListStyle` as data: what generated code holds as its `const` style, for a
//! tool that gives a list at run time.

use super::leak::{one, slice, text};
use crate::model::{Fact, ItemPiece};
use doctrine_core::__internals::list::{ItemPiece as Piece, ListStyle};

/// How list fact `f` prints; `None` for a fact that is no list.
pub fn list_style(f: &Fact) -> Option<&'static ListStyle> {
    let l = f.list.as_ref()?;
    let item = l.item.iter().map(|p| match p {
        ItemPiece::Text(t) => Piece::Text(text(t)),
        ItemPiece::Field(i) => match f.escape.get(*i).copied().flatten() {
            Some(e) => Piece::Escaped(*i, e),
            None => Piece::Field(*i),
        },
        ItemPiece::Open(i, negated) => Piece::Open(*i, *negated),
        ItemPiece::Close => Piece::Close,
    });
    Some(one(ListStyle {
        item: slice(item.collect()),
        join: text(&l.join),
        sort: l.sort,
        max: l.max,
        more: text(&l.more),
    }))
}
