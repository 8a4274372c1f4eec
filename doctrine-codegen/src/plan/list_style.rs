//! A list fact's `ListStyle` as data: what generated code holds as its `const` style, for a
//! tool that gives a list at run time; and each loop's.

use super::leak::{one, slice, text};
use crate::model::{Doctrine, Fact, ItemPiece, ItemStep, ListSpec};
use doctrine_core::__internals::list::{ItemPiece as Piece, ListStyle};

/// How list fact `f` prints; `None` for a fact that is no list.
pub fn list_style(f: &Fact) -> Option<&'static ListStyle> {
    f.list.as_ref().map(|l| style(l, f))
}

/// Each loop of `d`, in the order of its value: the index of the list fact it prints, and
/// the style it prints it in.
pub fn loop_styles(d: &Doctrine) -> Vec<(usize, &'static ListStyle)> {
    d.loops()
        .into_iter()
        .map(|(f, l)| (f.0, style(l, &d.facts[f.0])))
        .collect()
}

/// `l` as fact `f`'s style, each field printed as its `escape` says (by field index).
fn style(l: &ListSpec, f: &Fact) -> &'static ListStyle {
    let escape = &f.escape;
    let item = l.item.iter().map(|p| match p {
        ItemPiece::Text(t) => Piece::Text(text(t)),
        ItemPiece::Field(i) => match escape.get(*i).copied().flatten() {
            Some(e) => Piece::Escaped(*i, e),
            None => Piece::Field(*i),
        },
        ItemPiece::Html(i) => Piece::Escaped(*i, doctrine_core::__private::Escaping::Html),
        ItemPiece::Open(i, negated) => Piece::Open(*i, *negated),
        ItemPiece::When(steps) => {
            use doctrine_core::__private::Check;
            let checks = steps.iter().map(|s| match s {
                ItemStep::Given(i) => Check::Given(*i),
                ItemStep::Is(i, t) => Check::Is(*i, text(t)),
                ItemStep::Not => Check::Not,
                ItemStep::And => Check::And,
                ItemStep::Or => Check::Or,
            });
            Piece::When(slice(checks.collect()))
        }
        ItemPiece::Close => Piece::Close,
    });
    one(ListStyle {
        item: slice(item.collect()),
        join: text(&l.join),
        sort: l.sort,
        max: l.max,
        more: text(&l.more),
        max_bytes: l.max_bytes,
        budget_items: l.budget_items,
        join_ends_line: l.join_ends_line,
        skip_blank: l.skip_blank,
        fact: text(&f.name),
    })
}
