//! List facts: how one prints (the manifest's `list = { item, join, sort, max, more }`),
//! and a list as a composition is given it ([`List`]), walked piece by piece where its
//! placeholder stands, so the prompt's one allocation holds it and it needs no text of
//! its own.

use std::fmt;

use super::boundary::may_mark_a_heading;
use super::escape::Escaping;

/// A list fact its byte budget (`max_bytes`, or the builder's lower one) cut: what it
/// printed and what it would have printed, in bytes. [`Prompt::notices`](crate::Prompt::notices)
/// says so, and [`Prompt::explain`](crate::Prompt::explain) has a line for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListCut {
    /// The list fact's name.
    pub fact: &'static str,
    /// The bytes it printed (at most its budget, cut at a character boundary).
    pub printed: usize,
    /// The bytes it would have printed without the budget.
    pub full: usize,
}

impl fmt::Display for ListCut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "list fact `{}` cut to {} of {} bytes by its byte budget",
            self.fact, self.printed, self.full
        )
    }
}

/// The cuts of the lists among `values`, each list fact once (a list printed through a
/// loop is another value of the same fact). Allocates only when one was cut.
pub(crate) fn cuts(values: &[super::part::Value<'_>]) -> Vec<ListCut> {
    let mut cuts: Vec<ListCut> = Vec::new();
    for value in values {
        if let super::part::Value::List(list) = value {
            if let Some((fact, printed, full)) = list.cut() {
                if !cuts.iter().any(|c| c.fact == fact) {
                    cuts.push(ListCut {
                        fact,
                        printed,
                        full,
                    });
                }
            }
        }
    }
    cuts
}

/// How a list fact prints. Used by generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ListStyle {
    /// The item template: text, fields (`{0}` is field 0 of a plain list) and sections.
    pub item: &'static [ItemPiece],
    pub join: &'static str,
    /// The field the items are sorted by (ties by the others in order).
    pub sort: Option<usize>,
    pub max: Option<usize>,
    /// After `max` items: this line, `{n}` the number left out (`{{` and `}}` a brace).
    pub more: &'static str,
    /// The most bytes the list prints (`max_bytes`): cut there, at a character boundary.
    pub max_bytes: Option<usize>,
    /// The fact's name, for the notice a cut makes.
    pub fact: &'static str,
}

impl ListStyle {
    /// Whether its item template prints a field escaped.
    fn escapes(&self) -> bool {
        self.item
            .iter()
            .any(|p| matches!(p, ItemPiece::Escaped(..)))
    }

    /// How many fields the item template reads: an item is kept when one is non-empty.
    pub fn fields(&self) -> usize {
        let mut n = 0;
        for piece in self.item {
            if let ItemPiece::Field(i) | ItemPiece::Escaped(i, _) | ItemPiece::Open(i, _) = piece {
                n = n.max(i + 1);
            }
        }
        n
    }
}

/// One piece of a list's item template. Used by generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemPiece {
    Text(&'static str),
    /// The item's field of this index.
    Field(usize),
    /// The item's field of this index, printed escaped (the list's `escape`).
    Escaped(usize, Escaping),
    /// `{?field}` (`true`: `{?!field}`): what follows up to the matching `Close` prints
    /// only when the field is non-empty (empty).
    Open(usize, bool),
    Close,
}

/// One item of a list fact: its fields by index, as the item template numbers them. A
/// plain list's item is a `&str`, which is every field; generated item structs (named
/// fields) implement it.
pub trait Row {
    fn field(&self, i: usize) -> &str;
}

impl Row for &str {
    #[inline]
    fn field(&self, _: usize) -> &str {
        self
    }
}

/// A list fact as composition reads it, whatever its item type: its printed length,
/// known before it is written, and its text, piece by piece or into the prompt.
pub trait Rows {
    /// How many bytes it prints.
    fn printed_len(&self) -> usize;
    /// How many items it holds: those not left out for being empty, counted before `max`
    /// (a `more` line stands for the others). What `{?list}` and `{?list:many}` read.
    fn items(&self) -> usize;
    /// Hands each piece it prints to `out`, in order, with whether it is an item's field
    /// (the caller's text) rather than the list's own (for a writer that needs them one by
    /// one: trimming, user-content ranges, run-time text checked for section boundaries).
    fn each_piece(&self, out: &mut dyn FnMut(&str, bool));
    /// Appends what it prints to `out`.
    fn write(&self, out: &mut String);
    /// Whether an item field it prints holds a character a heading's mark is made of
    /// (`#`, `=`, `-`): without one, a manifest without section tags has nothing to look
    /// for in it.
    fn may_mark_a_heading(&self) -> bool {
        true
    }
    /// `(fact, printed, full)` when its byte budget cut it: the bytes printed and those
    /// it would have printed.
    fn cut(&self) -> Option<(&'static str, usize, usize)> {
        None
    }
    /// Appends what it prints to `out`, calling `field(out, start)` after each item field
    /// (the caller's text, from `start` to `out`'s end): one virtual call per field, the
    /// walk itself monomorphic.
    fn write_fields(&self, out: &mut String, field: &mut dyn FnMut(&mut String, usize));
}

impl fmt::Debug for dyn Rows + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rows")
            .field("printed_len", &self.printed_len())
            .finish_non_exhaustive()
    }
}

/// A list fact as given to a composition: the caller's items, the list's style and its
/// printed length, measured once when the builder is made. A sorted list also holds the
/// order its kept items print in, its one allocation; an unsorted one allocates nothing.
/// Used by generated code.
#[derive(Clone, Debug)]
pub struct List<'a, R> {
    rows: &'a [R],
    style: &'static ListStyle,
    /// A sorted list's kept items (indices into `rows`), in print order.
    order: Option<Vec<usize>>,
    len: usize,
    /// How many items it holds (see [`Rows::items`]), counted as it is measured.
    items: usize,
    /// Whether a field it prints may mark a heading, found as it is measured.
    marks: bool,
    /// The most bytes it prints (`usize::MAX`: no budget).
    cap: usize,
    /// What it would print without the budget, in bytes.
    full: usize,
}

/// The style of a list that no role gave (it prints nothing, whatever its style).
const NONE: ListStyle = ListStyle {
    item: &[],
    join: "",
    sort: None,
    max: None,
    more: "",
    max_bytes: None,
    fact: "",
};

impl<R> Default for List<'_, R> {
    fn default() -> Self {
        List {
            rows: &[],
            style: &NONE,
            order: None,
            len: 0,
            items: 0,
            marks: false,
            cap: usize::MAX,
            full: 0,
        }
    }
}

impl<'a, R: Row> List<'a, R> {
    pub fn new(rows: &'a [R], style: &'static ListStyle) -> Self {
        let order = style.sort.map(|by| {
            let fields = style.fields();
            let mut kept: Vec<usize> = (0..rows.len())
                .filter(|&i| kept(&rows[i], fields))
                .collect();
            // Ties on the key are broken by the other fields, then by the order given, so
            // the order given never shows; an unstable sort needs no buffer.
            kept.sort_unstable_by(|&a, &b| {
                std::iter::once(by)
                    .chain(0..fields)
                    .map(|i| rows[a].field(i).cmp(rows[b].field(i)))
                    .find(|o| o.is_ne())
                    .unwrap_or(a.cmp(&b))
            });
            kept
        });
        let list = List {
            rows,
            style,
            order,
            len: 0,
            items: 0,
            marks: false,
            cap: style.max_bytes.unwrap_or(usize::MAX),
            full: 0,
        };
        list.measured()
    }

    /// The list with its byte budget lowered to `max` (a budget above the manifest's
    /// `max_bytes` leaves that one). Used by generated code (the builder's
    /// `.max_bytes_<fact>(n)`).
    pub fn capped(mut self, max: usize) -> Self {
        self.cap = self.cap.min(max);
        self.measured()
    }

    /// Its byte budget (`usize::MAX`: none): what a copy of other rows keeps. Used by
    /// generated code.
    pub fn budget(&self) -> usize {
        self.cap
    }

    /// Its printed length, items and heading marks, measured as it prints.
    fn measured(mut self) -> Self {
        let (mut len, mut full, mut marks) = (0, 0, false);
        let items = walk_all(self.rows, self.order.as_deref(), self.style, &mut |p, _| {
            full += p.len()
        });
        self.walk(&mut |p, field| {
            len += p.len();
            marks |= field && may_mark_a_heading(p.as_bytes());
        });
        // Cut to nothing by its budget, it is absent: `{?list}` does not hold. (A list
        // printed by loops only prints nothing of its own and keeps its items.)
        let items = if len == 0 && (len < full || self.cap == 0) {
            0
        } else {
            items
        };
        (self.len, self.full, self.items, self.marks) = (len, full, items, marks);
        self
    }

    /// The items as the caller gave them.
    pub fn rows(&self) -> &'a [R] {
        self.rows
    }

    /// How it prints.
    pub fn style(&self) -> &'static ListStyle {
        self.style
    }

    /// Hands each piece the list prints to `out`, in order, as far as its byte budget
    /// goes: the piece that crosses it is cut at the last character boundary before it,
    /// and nothing after is written. A list whose items print an escaped field is cut
    /// after its last whole item instead: a cut inside one would leave a JSON string
    /// unclosed or an XML entity half written.
    #[inline]
    fn walk(&self, out: &mut impl FnMut(&str, bool)) {
        if self.cap == usize::MAX {
            walk_all(self.rows, self.order.as_deref(), self.style, out);
            return;
        }
        if self.style.escapes() {
            match self.order.as_deref() {
                Some(order) => whole_items(order.iter().map(|&i| &self.rows[i]), self, out),
                None => whole_items(self.rows.iter(), self, out),
            }
            return;
        }
        let mut left = self.cap;
        walk_all(
            self.rows,
            self.order.as_deref(),
            self.style,
            &mut |p, field| {
                let keep = match p.len() <= left {
                    true => p,
                    false => &p[..floor_char_boundary(p, left)],
                };
                left = if p.len() <= left { left - p.len() } else { 0 };
                if !keep.is_empty() {
                    out(keep, field);
                }
            },
        );
    }
}

/// Hands `list`'s kept items to `out` as `walk` does, but only those that fit its byte
/// budget whole (with their joins); then, if it fits too, the `more` line counting every
/// item left out, by `max` or by the budget (after the join when an item printed).
fn whole_items<'r, R: Row + 'r>(
    rows: impl Iterator<Item = &'r R>,
    list: &List<'_, R>,
    out: &mut impl FnMut(&str, bool),
) {
    let style = list.style;
    let (fields, max) = (style.fields(), style.max.unwrap_or(usize::MAX));
    let (mut left, mut shown, mut over) = (list.cap, 0, 0);
    for row in rows.filter(|r| kept(*r, fields)) {
        // Past `max`, or once one item did not fit, the rest are only counted.
        if shown == max || over > 0 {
            over += 1;
            continue;
        }
        let mut len = if shown > 0 { style.join.len() } else { 0 };
        write_item(style.item, |f| row.field(f), &mut |p, _| len += p.len());
        if len > left {
            over += 1;
            continue;
        }
        left -= len;
        if shown > 0 {
            out(style.join, false);
        }
        write_item(style.item, |f| row.field(f), out);
        shown += 1;
    }
    if over == 0 {
        return;
    }
    let mut digits = [0; 20];
    let n = decimal(over, &mut digits);
    let join = if shown > 0 { style.join } else { "" };
    let mut more = join.len();
    more_line(style.more, n, &mut |p| more += p.len());
    if more <= left {
        out(join, false);
        more_line(style.more, n, &mut |p| out(p, false));
    }
}

/// The largest character boundary of `s` at or before `at`.
fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Hands each piece of `rows` (in `order`, when sorted) to `out`; returns how many items
/// they hold.
#[inline]
fn walk_all<R: Row>(
    rows: &[R],
    order: Option<&[usize]>,
    style: &ListStyle,
    out: &mut impl FnMut(&str, bool),
) -> usize {
    match order {
        Some(order) => walk(order.iter().map(|&i| &rows[i]), style, out),
        None => walk(rows.iter(), style, out),
    }
}

impl<R: Row> Rows for List<'_, R> {
    #[inline]
    fn printed_len(&self) -> usize {
        self.len
    }

    #[inline]
    fn items(&self) -> usize {
        self.items
    }

    fn each_piece(&self, mut out: &mut dyn FnMut(&str, bool)) {
        self.walk(&mut out);
    }

    fn cut(&self) -> Option<(&'static str, usize, usize)> {
        (self.len < self.full).then_some((self.style.fact, self.len, self.full))
    }

    fn write(&self, out: &mut String) {
        self.walk(&mut |p, _| out.push_str(p));
    }

    #[inline]
    fn may_mark_a_heading(&self) -> bool {
        self.marks
    }

    fn write_fields(&self, out: &mut String, field: &mut dyn FnMut(&mut String, usize)) {
        self.walk(&mut |p, is_field| {
            let start = out.len();
            out.push_str(p);
            if is_field {
                field(out, start);
            }
        });
    }
}

/// An item is left out when every field its template reads is empty.
#[inline]
fn kept(row: &impl Row, fields: usize) -> bool {
    (0..fields).any(|f| !row.field(f).is_empty())
}

/// Hands each piece of a list of `rows` (in print order) to `out`: each kept item through
/// the item template, joined, at most `max` of them and then a line saying how many were
/// left out (never a silent cut). An empty list, or one of empty items, hands nothing: it
/// is absent. Returns how many items were kept, shown or not.
#[inline]
fn walk<'r, R: Row + 'r>(
    rows: impl Iterator<Item = &'r R>,
    style: &ListStyle,
    out: &mut impl FnMut(&str, bool),
) -> usize {
    let fields = style.fields();
    let cap = style.max.unwrap_or(usize::MAX);
    let (mut shown, mut left) = (0, 0);
    for row in rows.filter(|r| kept(*r, fields)) {
        if shown == cap {
            left += 1;
            continue;
        }
        if shown > 0 {
            out(style.join, false);
        }
        write_item(style.item, |f| row.field(f), out);
        shown += 1;
    }
    write_more(left, style, &mut |p| out(p, false));
    shown + left
}

/// A plain list as one string (a reminder's text), allocated at its exact length.
pub fn render_list(items: &[&str], style: &'static ListStyle) -> String {
    let list = List::new(items, style);
    let mut out = String::with_capacity(list.len);
    list.write(&mut out);
    out
}

/// Hands each piece of one item, printed through the item template, to `out`, with
/// whether it is one of the item's fields.
pub fn write_item<'r>(
    item: &'r [ItemPiece],
    field: impl Fn(usize) -> &'r str,
    out: &mut impl FnMut(&'r str, bool),
) {
    // The most common template, `{0}`, without the walk.
    if let [ItemPiece::Field(i)] = item {
        return out(field(*i), true);
    }
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
            ItemPiece::Text(t) => out(t, false),
            ItemPiece::Field(i) => out(field(i), true),
            ItemPiece::Escaped(i, e) => e.each_piece(field(i), &mut |p| out(p, true)),
        }
    }
}

/// After a list cut at `max`: the join, then the `more` line with `{n}` the number left
/// out (nothing when none was).
pub fn write_more(left: usize, style: &ListStyle, out: &mut impl FnMut(&str)) {
    if left > 0 {
        out(style.join);
        let mut digits = [0; 20];
        more_line(style.more, decimal(left, &mut digits), out);
    }
}

/// `n` in decimal, written into `buf` (no allocation: a `usize` has at most 20 digits).
fn decimal(mut n: usize, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[at..]).unwrap_or_default()
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
    use super::ItemPiece::{Close, Escaped, Field, Open, Text};
    use super::*;

    /// The list as it prints, piece by piece and whole (which must agree, and agree with
    /// the length measured).
    fn render<R: Row>(rows: &[R], style: &'static ListStyle) -> String {
        let list = List::new(rows, style);
        let (mut pieces, mut whole) = (String::new(), String::new());
        list.each_piece(&mut |p, _| pieces.push_str(p));
        list.write(&mut whole);
        assert_eq!(pieces, whole);
        assert_eq!(list.printed_len(), whole.len());
        whole
    }

    /// A byte budget cuts the list where it is reached, at a character boundary (a
    /// two-byte `é` straddling it goes whole), the rest of it not written; measured as
    /// written; a budget of 0 leaves it absent, `usize::MAX` whole; the builder's lower
    /// budget wins over the manifest's, a higher one does not.
    #[test]
    fn a_byte_budget_cuts_at_a_character_boundary() {
        const STYLE: ListStyle = ListStyle {
            item: &[Text("- "), Field(0)],
            join: "\n",
            sort: None,
            max: None,
            more: "",
            max_bytes: Some(10),
            fact: "docs",
        };
        let rows = ["abé", "second"];
        // "- abé\n- s": 10 bytes; "- abé" is 6, the join 1, then "- s" of "- second".
        assert_eq!(render(&rows, &STYLE), "- abé\n- s");
        let list = List::new(&rows[..], &STYLE);
        assert_eq!(Rows::cut(&list), Some(("docs", 10, 15)));
        // 5 bytes end inside `é`: cut before it.
        let lower = List::new(&rows[..], &STYLE).capped(5);
        let mut out = String::new();
        lower.write(&mut out);
        assert_eq!((out.as_str(), lower.printed_len()), ("- ab", 4));
        assert_eq!(
            Rows::cut(&List::new(&rows[..], &STYLE).capped(100)),
            Some(("docs", 10, 15))
        );
        let none = List::new(&rows[..], &STYLE).capped(0);
        assert_eq!((none.printed_len(), none.items()), (0, 0));
        const WHOLE: ListStyle = ListStyle {
            max_bytes: Some(usize::MAX),
            ..STYLE
        };
        assert_eq!(render(&rows, &WHOLE), "- abé\n- second");
        assert_eq!(Rows::cut(&List::new(&rows[..], &WHOLE)), None);
    }

    /// A list whose items print an escaped field is cut after its last whole item: a cut
    /// inside one would end in the middle of `\"` or before the closing quote. The `more`
    /// line counts what the budget left out, when it fits.
    #[test]
    fn a_byte_budget_keeps_escaped_items_whole() {
        const JSON: ListStyle = ListStyle {
            item: &[Escaped(0, Escaping::Json)],
            join: ",",
            sort: None,
            max: None,
            more: "\"+{n}\"",
            max_bytes: Some(16),
            fact: "docs",
        };
        let rows = ["a\"b", "c\"d", "e"];
        // `"a\"b"` is 6 bytes; with the join and the second, 13; the third would make
        // 17. Char-cut at 16, the list would end inside `"e"`.
        assert_eq!(render(&rows, &JSON), r#""a\"b","c\"d""#);
        let list = List::new(&rows[..], &JSON);
        assert_eq!(Rows::cut(&list), Some(("docs", 13, 17)));
        // At 11 the second item does not fit whole; the `more` line (5 bytes with its
        // join) does.
        assert_eq!(render_capped(&rows, &JSON, 11), r#""a\"b","+2""#);
        // At 10 neither does: the first item alone.
        assert_eq!(render_capped(&rows, &JSON, 10), r#""a\"b""#);
        // No item fits whole: the `more` line alone, and below it nothing (absent).
        let list = List::new(&rows[..], &JSON).capped(4);
        assert_eq!((list.printed_len(), list.items()), (4, 3));
        assert_eq!(render_capped(&rows, &JSON, 4), r#""+3""#);
        assert_eq!(List::new(&rows[..], &JSON).capped(3).items(), 0);
        // With `max` too, the `more` line counts what either left out.
        const MAX_ONE: ListStyle = ListStyle {
            max: Some(1),
            ..JSON
        };
        assert_eq!(render(&rows, &MAX_ONE), r#""a\"b","+2""#);
    }

    fn render_capped<R: Row>(rows: &[R], style: &'static ListStyle, cap: usize) -> String {
        let mut out = String::new();
        List::new(rows, style).capped(cap).write(&mut out);
        out
    }

    /// Named fields, as a generated item struct has them.
    struct Item<'a>([&'a str; 3]);

    impl Row for Item<'_> {
        fn field(&self, i: usize) -> &str {
            self.0[i]
        }
    }

    #[test]
    fn item_sections_nest_and_negate() {
        // `{0}{?1} ({1}{?2}, {2}{/2}){/1}{?!1} (no when){/1}`
        const STYLE: ListStyle = ListStyle {
            item: &[
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
            ],
            join: "|",
            sort: None,
            max: None,
            more: "",
            max_bytes: None,
            fact: "",
        };
        let rows = [
            Item(["a", "w", "x"]),
            Item(["b", "w", ""]),
            Item(["c", "", "x"]),
            Item(["", "", ""]),
        ];
        assert_eq!(render(&rows, &STYLE), "a (w, x)|b (w)|c (no when)");
    }

    #[test]
    fn an_escaped_field_prints_escaped_and_is_tested_as_given() {
        // `{0}{?1}: {1}{/1}`, field 1 as JSON.
        const STYLE: ListStyle = ListStyle {
            item: &[
                Field(0),
                Open(1, false),
                Text(": "),
                Escaped(1, Escaping::Json),
                Close,
            ],
            join: "\n",
            sort: None,
            max: None,
            more: "",
            max_bytes: None,
            fact: "",
        };
        let rows = [Item(["a", "say \"hi\"\n", ""]), Item(["b", "", ""])];
        assert_eq!(render(&rows, &STYLE), "a: \"say \\\"hi\\\"\\n\"\nb");
    }

    #[test]
    fn a_more_line_prints_its_count_and_escaped_braces() {
        const STYLE: ListStyle = ListStyle {
            item: &[Field(0)],
            join: ",",
            sort: None,
            max: Some(1),
            more: "{{{n}}} more ({n} left out)}}",
            max_bytes: None,
            fact: "",
        };
        assert_eq!(render(&["a", "b", "c"], &STYLE), "a,{2} more (2 left out)}");
        let many: Vec<&str> = (0..1_235).map(|_| "x").collect();
        assert!(render(&many, &STYLE).ends_with("{1234} more (1234 left out)}"));
        let mut digits = [0; 20];
        assert_eq!(decimal(usize::MAX, &mut digits), usize::MAX.to_string());
        assert_eq!(decimal(0, &mut digits), "0");
    }

    #[test]
    fn a_cap_says_how_many_it_left_out() {
        const STYLE: ListStyle = ListStyle {
            item: &[Text("- "), Field(0)],
            join: "\n",
            sort: Some(0),
            max: Some(2),
            more: "({n} more)",
            max_bytes: None,
            fact: "",
        };
        assert_eq!(
            render_list(&["c", "", "b", "a", "d"], &STYLE),
            "- a\n- b\n(2 more)"
        );
        assert_eq!(render(&["", ""], &STYLE), "");
        assert_eq!(render(&["", "a"], &STYLE), "- a");
        assert_eq!(List::<&str>::default().printed_len(), 0);
    }

    #[test]
    fn a_sort_breaks_ties_by_the_other_fields_then_the_order_given() {
        const STYLE: ListStyle = ListStyle {
            item: &[Field(0), Text(":"), Field(1), Text(":"), Field(2)],
            join: " ",
            sort: Some(1),
            max: None,
            more: "",
            max_bytes: None,
            fact: "",
        };
        let rows = [
            Item(["b", "k", "1"]),
            Item(["a", "k", "2"]),
            Item(["a", "k", "1"]),
            Item(["z", "a", "9"]),
            Item(["a", "k", "1"]),
        ];
        assert_eq!(render(&rows, &STYLE), "z:a:9 a:k:1 a:k:1 a:k:2 b:k:1");
    }
}
