//! List facts: how one prints (the manifest's `list = { item, join, sort, max, more }`),
//! and a list as a composition is given it ([`List`]), walked piece by piece where its
//! placeholder stands, so the prompt's one allocation holds it and it needs no text of
//! its own.

use std::fmt;

use super::escape::{Escaping, Within};
use super::heading_marks::may_mark_a_heading;
use super::seg::{holds, Check};

/// What a byte budget cut: a list fact (its whole output, or its items alone), or an
/// instructions layer's texts. What it printed and what it would have printed are counted
/// as the budget counts them. [`Prompt::notices`](crate::Prompt::notices) says so, and
/// [`Prompt::explain`](crate::Prompt::explain) has a line for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListCut {
    /// The list fact's name, or the instructions layer's ([`ListCut::counted`] says which).
    pub name: &'static str,
    /// What the budget counts, and so what `printed` and `full` count.
    pub counted: Counted,
    /// The bytes it counts that were printed (at most its budget).
    pub printed: usize,
    /// The bytes it counts that would have been printed without the budget.
    pub full: usize,
}

/// What a byte budget counts ([`ListCut::counted`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Counted {
    /// A list fact's whole output (`max_bytes = n`): its items, joins and `more` line.
    List,
    /// A list fact's items alone (`max_bytes = { items = n }`): the fields they print, not
    /// the joins, the item template's own text or the `more` line.
    ListItems,
    /// An instructions layer's texts (its `max_bytes`), not their provenance lines or
    /// joins; an instruction given `locked: true` is neither counted nor cut.
    Instructions,
}

impl Counted {
    /// What was cut, and what of it the bytes count, as a notice and `explain()` say it.
    fn words(self) -> (&'static str, &'static str) {
        match self {
            Counted::List => ("list fact", ""),
            Counted::ListItems => ("list fact", " of its items"),
            Counted::Instructions => ("instructions layer", " of its texts"),
        }
    }
}

impl ListCut {
    /// What it is about, as a notice names it: "fact `docs`", "layer `project_docs`".
    pub(crate) fn subject(&self) -> String {
        let (what, _) = self.counted.words();
        let word = what.rsplit(' ').next().unwrap_or(what);
        format!("{word} `{}`", self.name)
    }

    /// What was cut, in a notice's words.
    pub(crate) fn message(&self) -> String {
        let (_, of) = self.counted.words();
        format!(
            "cut to {} of {} bytes{of} by its byte budget (`max_bytes`), at a character boundary",
            self.printed, self.full
        )
    }
}

impl fmt::Display for ListCut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, of) = self.counted.words();
        write!(
            f,
            "{what} `{}` cut to {} of {} bytes{of} by its byte budget",
            self.name, self.printed, self.full
        )
    }
}

/// How many characters the given fields of `rows` leave out where they print as XML.
/// Used by generated code, for the prompt's notices.
pub fn xml_dropped<R: Row>(rows: &[R], fields: &[usize]) -> usize {
    (rows.iter())
        .map(|row| {
            fields
                .iter()
                .map(|&f| Escaping::Xml.dropped(row.field(f)))
                .sum::<usize>()
        })
        .sum()
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
    /// `max_bytes` counts the bytes the items' fields print alone (`max_bytes = { items =
    /// n }`), not the joins, the item template's own text or the `more` line.
    pub budget_items: bool,
    /// A line break goes before `join`, only when the text before it does not end with one
    /// (`join = { end_line = true, text = "..." }`).
    pub join_ends_line: bool,
    /// An item whose fields are all whitespace is left out too (`skip = "blank"`), not only
    /// one whose fields are all empty.
    pub skip_blank: bool,
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

    /// The bytes of piece `p` (an item's field or not) its byte budget counts.
    #[inline]
    fn cost(&self, p: &str, field: Printed) -> usize {
        match field.is_field() || !self.budget_items {
            true => p.len(),
            false => 0,
        }
    }

    /// What its byte budget counts, for the notice a cut makes.
    fn counted(&self) -> Counted {
        match self.budget_items {
            true => Counted::ListItems,
            false => Counted::List,
        }
    }

    /// Hands the join written after text that ends with a line break (`ends_line`) or not
    /// to `out`: the style's `join`, with a line break first where it says so.
    #[inline]
    fn write_join(&self, ends_line: bool, out: &mut impl FnMut(&str, Printed)) {
        if self.join_ends_line && !ends_line {
            out("\n", Printed::Own);
        }
        out(self.join, Printed::Own);
    }

    /// Its items printed as they are (`{0}`), joined, none left out but empty ones: the
    /// most common list, walked without the item template, `max` or a line's end (a tool
    /// list's walk was a tenth of its prompt's cost, see BENCHMARKS.md, issue 37).
    #[inline(always)]
    fn plain(&self) -> bool {
        matches!(self.item, [ItemPiece::Field(0)])
            && self.max.is_none()
            && !self.join_ends_line
            && !self.skip_blank
    }

    /// How many fields the item template reads: an item is kept when one is non-empty.
    pub fn fields(&self) -> usize {
        let mut n = 0;
        for piece in self.item {
            match *piece {
                ItemPiece::Field(i) | ItemPiece::Escaped(i, _) | ItemPiece::Open(i, _) => {
                    n = n.max(i + 1)
                }
                ItemPiece::When(checks) => {
                    n = checks
                        .iter()
                        .filter_map(|c| c.value())
                        .fold(n, |n, i| n.max(i + 1))
                }
                ItemPiece::Text(_) | ItemPiece::Close => {}
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
    /// `{?a and not b}` on the item's fields: what follows up to the matching `Close`
    /// prints only when the condition holds (`Check::Given` and `Check::Is` read fields).
    When(&'static [Check]),
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

/// What a piece a list prints is: the list's own text (its joins, its item template's
/// text, its `more` line) or an item's field (the caller's text), and of a field, whether
/// it is written inside a JSON string (`escape = "json"`) or escaped markup (`"xml"`,
/// handlebars' `{{field}}`), where a section boundary is escaped that way. Used by
/// generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Printed {
    Own,
    Field,
    Json,
    Markup,
}

impl Printed {
    /// Whether it is an item's field.
    #[inline(always)]
    pub fn is_field(self) -> bool {
        self != Printed::Own
    }

    /// What a field is written inside.
    #[inline(always)]
    pub(crate) fn within(self) -> Within {
        match self {
            Printed::Json => Within::Json,
            Printed::Markup => Within::Markup,
            Printed::Own | Printed::Field => Within::Text,
        }
    }

    /// A field printed with `escaping`.
    #[inline(always)]
    fn escaped(escaping: Escaping) -> Printed {
        match escaping {
            Escaping::Json => Printed::Json,
            Escaping::Xml | Escaping::Html => Printed::Markup,
        }
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
    fn each_piece(&self, out: &mut dyn FnMut(&str, Printed));
    /// Appends what it prints to `out`.
    fn write(&self, out: &mut String);
    /// Whether an item field it prints holds a character a heading's mark is made of
    /// (`#`, `=`, `-`): without one, a manifest without section tags has nothing to look
    /// for in it.
    fn may_mark_a_heading(&self) -> bool {
        true
    }
    /// What its byte budget cut, when it cut it.
    fn cut(&self) -> Option<ListCut> {
        None
    }
    /// Whether it prints a field inside escaped markup (`escape = "xml"`, handlebars'
    /// `{{field}}`), where the guard escapes the markup's way.
    fn prints_markup(&self) -> bool {
        false
    }
    /// Whether an item's first field is `text` (a plain list's item: what `{?list has
    /// text}` reads), whether or not `max` prints it.
    fn holds(&self, text: &str) -> bool;
    /// Appends what it prints to `out`, calling `field(out, start)` after each item field
    /// (the caller's text, from `start` to `out`'s end): one virtual call per field, the
    /// walk itself monomorphic.
    fn write_fields(&self, out: &mut String, field: &mut dyn FnMut(&mut String, usize, Printed));
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
    /// The most bytes it prints (`usize::MAX`: no budget), counted as the style says.
    cap: usize,
    /// What it prints, in bytes its budget counts.
    counted: usize,
    /// What it would print without the budget, in bytes its budget counts.
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
    budget_items: false,
    join_ends_line: false,
    skip_blank: false,
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
            counted: 0,
            full: 0,
        }
    }
}

impl<'a, R: Row> List<'a, R> {
    pub fn new(rows: &'a [R], style: &'static ListStyle) -> Self {
        if rows.is_empty() {
            // What measuring no rows gives, without the walk: a list fact not given is
            // built on every compose.
            return List {
                rows,
                style,
                order: style.sort.map(|_| Vec::new()),
                len: 0,
                items: 0,
                marks: false,
                cap: style.max_bytes.unwrap_or(usize::MAX),
                counted: 0,
                full: 0,
            };
        }
        let order = style.sort.map(|by| {
            let fields = style.fields();
            let mut kept: Vec<usize> = (0..rows.len())
                .filter(|&i| kept(&rows[i], style, fields))
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
            counted: 0,
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
        let style = self.style;
        let (mut len, mut counted, mut full, mut marks) = (0, 0, 0, false);
        let mut measure = |p: &str, field: Printed| {
            len += p.len();
            marks |= field.is_field() && may_mark_a_heading(p.as_bytes());
        };
        let items = if self.cap == usize::MAX {
            // No budget: what it prints is all it would, measured in one walk.
            let items = walk_all(self.rows, self.order.as_deref(), style, &mut measure);
            (counted, full) = (len, len);
            items
        } else {
            let items = walk_all(self.rows, self.order.as_deref(), style, &mut |p, field| {
                full += style.cost(p, field)
            });
            self.walk(&mut |p, field| {
                measure(p, field);
                counted += style.cost(p, field);
            });
            items
        };
        // Cut to nothing by its budget, it is absent: `{?list}` does not hold. (A list
        // printed by loops only prints nothing of its own and keeps its items.)
        let items = if len == 0 && (counted < full || self.cap == 0) {
            0
        } else {
            items
        };
        (self.len, self.counted, self.full) = (len, counted, full);
        (self.items, self.marks) = (items, marks);
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
    /// and nothing after is written. A budget that counts the items alone cuts the first
    /// item whose text does not fit so (none of its text fitting, it is not begun). A list
    /// whose items print an escaped field is cut after its last whole item instead: a cut
    /// inside one would leave a JSON string unclosed or an XML entity half written. A
    /// budget of 0 prints nothing.
    #[inline]
    fn walk(&self, out: &mut impl FnMut(&str, Printed)) {
        if self.cap == usize::MAX {
            walk_all(self.rows, self.order.as_deref(), self.style, out);
            return;
        }
        if self.cap == 0 {
            return;
        }
        if self.style.escapes() || self.style.budget_items {
            let whole = self.style.escapes();
            match self.order.as_deref() {
                Some(order) => by_item(order.iter().map(|&i| &self.rows[i]), self, whole, out),
                None => by_item(self.rows.iter(), self, whole, out),
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

/// Hands `list`'s kept items to `out` as `walk` does, item by item, as far as its byte
/// budget goes (counted as its style says). With `whole`, only the items that fit it whole
/// are written, then, if it fits too, the `more` line counting every item left out, by
/// `max` or by the budget. Without, the first item that does not fit whole is cut at the
/// last character boundary of its text that does (left out when none does), and nothing
/// after it is written.
fn by_item<'r, R: Row + 'r>(
    rows: impl Iterator<Item = &'r R>,
    list: &List<'_, R>,
    whole: bool,
    out: &mut impl FnMut(&str, Printed),
) {
    let style = list.style;
    let (fields, max) = (style.fields(), style.max.unwrap_or(usize::MAX));
    let (mut left, mut shown, mut over, mut ends_line) = (list.cap, 0, 0, false);
    let mut cut = false;
    for row in rows.filter(|r| kept(*r, style, fields)) {
        // Past `max`, or once one item did not fit, the rest are only counted.
        if shown == max || cut {
            over += 1;
            continue;
        }
        let (mut cost, mut first) = (0, "");
        if shown > 0 {
            style.write_join(ends_line, &mut |p, f| cost += style.cost(p, f));
        }
        write_item(style.item, |f| row.field(f), &mut |p, f| {
            cost += style.cost(p, f);
            if f.is_field() && first.is_empty() {
                first = p;
            }
        });
        if cost > left {
            (over, cut) = (over + 1, true);
            // The budget counts only fields here, so its first one says whether any of
            // the item's text fits.
            if !whole && floor_char_boundary(first, left) > 0 {
                if shown > 0 {
                    style.write_join(ends_line, out);
                }
                cut_item(style, row, left, out);
                return;
            }
            continue;
        }
        left -= cost;
        if shown > 0 {
            style.write_join(ends_line, out);
        }
        write_item(style.item, |f| row.field(f), &mut |p, f| {
            ends_line = ended(p, ends_line);
            out(p, f)
        });
        shown += 1;
    }
    if !whole {
        // No `more` line after a cut; past `max`, one as `walk` writes it.
        if !cut {
            write_more(over, style, ends_line, &mut |p| out(p, Printed::Own));
        }
        return;
    }
    if over == 0 {
        return;
    }
    let mut digits = [0; 20];
    let n = decimal(over, &mut digits);
    let mut more = 0;
    let line = |out: &mut dyn FnMut(&str, Printed)| {
        if shown > 0 {
            style.write_join(ends_line, &mut |p, f| out(p, f));
        }
        more_line(style.more, n, &mut |p| out(p, Printed::Own));
    };
    line(&mut |p, f| more += style.cost(p, f));
    if more <= left {
        line(out);
    }
}

/// Hands `row`, printed through the item template, to `out` as far as `left` bytes of its
/// fields go: the field that crosses it is cut at the last character boundary before it,
/// and nothing after is written.
fn cut_item<R: Row>(
    style: &ListStyle,
    row: &R,
    mut left: usize,
    out: &mut impl FnMut(&str, Printed),
) {
    let mut done = false;
    write_item(
        style.item,
        |f| row.field(f),
        &mut |p, field| match (done, field.is_field()) {
            (true, _) => {}
            (false, false) => out(p, field),
            (false, true) if p.len() <= left => {
                left -= p.len();
                out(p, field);
            }
            (false, true) => {
                let keep = &p[..floor_char_boundary(p, left)];
                if !keep.is_empty() {
                    out(keep, field);
                }
                done = true;
            }
        },
    );
}

/// Whether the text written so far ends with a line break, `p` written after text that
/// did (`before`) or not.
#[inline(always)]
fn ended(p: &str, before: bool) -> bool {
    p.as_bytes().last().map_or(before, |&b| b == b'\n')
}

/// The largest character boundary of `s` at or before `at`.
pub(super) fn floor_char_boundary(s: &str, at: usize) -> usize {
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
    out: &mut impl FnMut(&str, Printed),
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

    fn prints_markup(&self) -> bool {
        (self.style.item.iter())
            .any(|p| matches!(p, ItemPiece::Escaped(_, Escaping::Xml | Escaping::Html)))
    }

    #[inline]
    fn items(&self) -> usize {
        self.items
    }

    fn holds(&self, text: &str) -> bool {
        self.rows.iter().any(|r| r.field(0) == text)
    }

    fn each_piece(&self, mut out: &mut dyn FnMut(&str, Printed)) {
        self.walk(&mut out);
    }

    fn cut(&self) -> Option<ListCut> {
        (self.counted < self.full).then_some(ListCut {
            name: self.style.fact,
            counted: self.style.counted(),
            printed: self.counted,
            full: self.full,
        })
    }

    fn write(&self, out: &mut String) {
        self.walk(&mut |p, _| out.push_str(p));
    }

    #[inline]
    fn may_mark_a_heading(&self) -> bool {
        self.marks
    }

    fn write_fields(&self, out: &mut String, field: &mut dyn FnMut(&mut String, usize, Printed)) {
        self.walk(&mut |p, printed| {
            let start = out.len();
            out.push_str(p);
            if printed.is_field() {
                field(out, start, printed);
            }
        });
    }
}

/// An item is left out when every field its template reads is empty (with `skip =
/// "blank"`, empty or whitespace, as `str::trim` reads it).
#[inline]
fn kept(row: &impl Row, style: &ListStyle, fields: usize) -> bool {
    match style.skip_blank {
        false => (0..fields).any(|f| !row.field(f).is_empty()),
        true => (0..fields).any(|f| !row.field(f).trim().is_empty()),
    }
}

/// Hands each piece of a list of `rows` (in print order) to `out`: each kept item through
/// the item template, joined, at most `max` of them and then a line saying how many were
/// left out (never a silent cut). An empty list, or one of empty items, hands nothing: it
/// is absent. Returns how many items were kept, shown or not.
#[inline]
fn walk<'r, R: Row + 'r>(
    rows: impl Iterator<Item = &'r R>,
    style: &ListStyle,
    out: &mut impl FnMut(&str, Printed),
) -> usize {
    if style.plain() {
        return walk_plain(rows, style.join, out);
    }
    let fields = style.fields();
    let cap = style.max.unwrap_or(usize::MAX);
    let (mut shown, mut left, mut ends_line) = (0, 0, false);
    for row in rows.filter(|r| kept(*r, style, fields)) {
        if shown == cap {
            left += 1;
            continue;
        }
        if shown > 0 {
            style.write_join(ends_line, out);
        }
        // Where each item ends is read only by a join that ends the line.
        match style.join_ends_line {
            true => write_item(style.item, |f| row.field(f), &mut |p, f| {
                ends_line = ended(p, ends_line);
                out(p, f)
            }),
            false => write_item(style.item, |f| row.field(f), out),
        }
        shown += 1;
    }
    write_more(left, style, ends_line, &mut |p| out(p, Printed::Own));
    shown + left
}

/// [`walk`] for a [`ListStyle::plain`] list: each non-empty item, joined.
#[inline(always)]
fn walk_plain<'r, R: Row + 'r>(
    rows: impl Iterator<Item = &'r R>,
    join: &str,
    out: &mut impl FnMut(&str, Printed),
) -> usize {
    let mut shown = 0;
    for row in rows {
        let field = row.field(0);
        if field.is_empty() {
            continue;
        }
        if shown > 0 {
            out(join, Printed::Own);
        }
        out(field, Printed::Field);
        shown += 1;
    }
    shown
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
    out: &mut impl FnMut(&'r str, Printed),
) {
    // The most common template, `{0}`, without the walk.
    if let [ItemPiece::Field(i)] = item {
        return out(field(*i), Printed::Field);
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
            ItemPiece::When(checks) => {
                depth += 1;
                let test = |c: Check| match c {
                    Check::Given(i) => !field(i).is_empty(),
                    Check::Is(i, text) => field(i) == text,
                    _ => false,
                };
                if off_at.is_none() && !holds(checks, test) {
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
            ItemPiece::Text(t) => out(t, Printed::Own),
            ItemPiece::Field(i) => out(field(i), Printed::Field),
            ItemPiece::Escaped(i, e) => {
                let printed = Printed::escaped(e);
                e.each_piece(field(i), &mut |p| out(p, printed))
            }
        }
    }
}

/// After a list cut at `max`: the join (after text that ends with a line break, or not:
/// `ends_line`), then the `more` line with `{n}` the number left out (nothing when none
/// was).
pub fn write_more(left: usize, style: &ListStyle, ends_line: bool, out: &mut impl FnMut(&str)) {
    if left > 0 {
        style.write_join(ends_line, &mut |p, _| out(p));
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

    /// A plain list (`{0}` joined by line breaks) with nothing else set: what the tests of
    /// one more key start from.
    const PLAIN: ListStyle = ListStyle {
        item: &[Field(0)],
        join: "\n",
        ..NONE
    };

    /// What a list's budget cut: its name, the bytes printed and those it would have.
    fn cut<R: Row>(list: &List<'_, R>) -> Option<(&'static str, usize, usize)> {
        Rows::cut(list).map(|c| (c.name, c.printed, c.full))
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
            budget_items: false,
            join_ends_line: false,
            skip_blank: false,
            fact: "docs",
        };
        let rows = ["abé", "second"];
        // "- abé\n- s": 10 bytes; "- abé" is 6, the join 1, then "- s" of "- second".
        assert_eq!(render(&rows, &STYLE), "- abé\n- s");
        let list = List::new(&rows[..], &STYLE);
        assert_eq!(cut(&list), Some(("docs", 10, 15)));
        // 5 bytes end inside `é`: cut before it.
        let lower = List::new(&rows[..], &STYLE).capped(5);
        let mut out = String::new();
        lower.write(&mut out);
        assert_eq!((out.as_str(), lower.printed_len()), ("- ab", 4));
        assert_eq!(
            cut(&List::new(&rows[..], &STYLE).capped(100)),
            Some(("docs", 10, 15))
        );
        let none = List::new(&rows[..], &STYLE).capped(0);
        assert_eq!((none.printed_len(), none.items()), (0, 0));
        const WHOLE: ListStyle = ListStyle {
            max_bytes: Some(usize::MAX),
            ..STYLE
        };
        assert_eq!(render(&rows, &WHOLE), "- abé\n- second");
        assert_eq!(cut(&List::new(&rows[..], &WHOLE)), None);
    }

    /// A list whose items print an escaped field is cut after its last whole item: a cut
    /// inside one would end in the middle of `\"` or before the closing quote. The `more`
    /// line counts what the budget left out, when it fits.
    #[test]
    fn a_byte_budget_keeps_escaped_items_whole() {
        const JSON: ListStyle = ListStyle {
            item: &[Escaped(0, Escaping::Json)],
            join: ",",
            more: "\"+{n}\"",
            max_bytes: Some(16),
            fact: "docs",
            ..PLAIN
        };
        let rows = ["a\"b", "c\"d", "e"];
        // `"a\"b"` is 6 bytes; with the join and the second, 13; the third would make
        // 17. Char-cut at 16, the list would end inside `"e"`.
        assert_eq!(render(&rows, &JSON), r#""a\"b","c\"d""#);
        let list = List::new(&rows[..], &JSON);
        assert_eq!(cut(&list), Some(("docs", 13, 17)));
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
        // A budget of the items alone leaves the joins and the `more` line free: both
        // first items fit in 12 bytes of text, and the line counting the third follows.
        const ITEMS: ListStyle = ListStyle {
            max_bytes: Some(12),
            budget_items: true,
            ..JSON
        };
        assert_eq!(render(&rows, &ITEMS), r#""a\"b","c\"d","+1""#);
        assert_eq!(cut(&List::new(&rows[..], &ITEMS)), Some(("docs", 12, 15)));
        assert_eq!(render_capped(&rows, &ITEMS, 3), r#""+3""#);
    }

    /// A budget that counts the items alone: the joins and the item template's own text
    /// print free; the first item whose text does not fit is cut at a character boundary
    /// (nothing after it written), and one none of whose text fits is not begun, so no
    /// join dangles. The cut is told in the bytes the budget counts.
    #[test]
    fn a_budget_of_items_counts_their_text_alone() {
        const STYLE: ListStyle = ListStyle {
            item: &[Text("<"), Field(0), Text(">")],
            join: "\n\n",
            max_bytes: Some(7),
            budget_items: true,
            fact: "docs",
            ..PLAIN
        };
        let rows = ["abc", "dé", "xyz"];
        // "abc" (3) and "dé" (3) fit; one byte of "xyz" does, the joins and brackets free.
        assert_eq!(render(&rows, &STYLE), "<abc>\n\n<dé>\n\n<x");
        let list = List::new(&rows[..], &STYLE);
        assert_eq!(cut(&list), Some(("docs", 7, 9)));
        assert_eq!(Rows::cut(&list).unwrap().counted, Counted::ListItems);
        // Spent exactly at an item's end: the next one is not begun.
        assert_eq!(render_capped(&rows, &STYLE, 6), "<abc>\n\n<dé>");
        // 4 ends inside `é`: "d" alone.
        assert_eq!(render_capped(&rows, &STYLE, 4), "<abc>\n\n<d");
        assert_eq!(render_capped(&rows, &STYLE, 3), "<abc>");
        let none = List::new(&rows[..], &STYLE).capped(0);
        assert_eq!((none.printed_len(), none.items()), (0, 0));
        // Within it, the list prints whole and nothing is cut.
        const NINE: ListStyle = ListStyle {
            max_bytes: Some(9),
            ..STYLE
        };
        assert_eq!(render(&rows, &NINE), "<abc>\n\n<dé>\n\n<xyz>");
        assert_eq!(cut(&List::new(&rows[..], &NINE)), None);
        // Counting the output instead, the joins and brackets take their share.
        const OUTPUT: ListStyle = ListStyle {
            budget_items: false,
            ..STYLE
        };
        assert_eq!(render(&rows, &OUTPUT), "<abc>\n\n");
    }

    /// `join = { end_line = true, text = "\n" }`: documents that end with a line break
    /// are parted by one blank line, as are those that do not; the `more` line too.
    #[test]
    fn a_join_ends_the_line_only_where_it_is_open() {
        const STYLE: ListStyle = ListStyle {
            max: Some(3),
            more: "({n} more)",
            join_ends_line: true,
            ..PLAIN
        };
        let rows = ["One.\n", "Two.", "Three.\n", "Four."];
        assert_eq!(render(&rows, &STYLE), "One.\n\nTwo.\n\nThree.\n\n(1 more)");
        assert_eq!(render(&rows[1..2], &STYLE), "Two.");
        // Under a budget of the whole output, the line break it adds is counted.
        const CAPPED: ListStyle = ListStyle {
            max_bytes: Some(11),
            ..STYLE
        };
        assert_eq!(render(&rows, &CAPPED), "One.\n\nTwo.\n");
    }

    /// `skip = "blank"`: an item of whitespace alone is left out, as an empty one is: not
    /// printed, not sorted, not counted (what `{?list}` reads); without it, it prints.
    #[test]
    fn blank_items_are_left_out_when_the_list_says_so() {
        const STYLE: ListStyle = ListStyle {
            item: &[Text("- "), Field(0)],
            sort: Some(0),
            skip_blank: true,
            ..PLAIN
        };
        let rows = ["b", " \n", "\t", "", "a"];
        assert_eq!(render(&rows, &STYLE), "- a\n- b");
        assert_eq!(List::new(&rows[..], &STYLE).items(), 2);
        assert_eq!(List::new(&rows[1..3], &STYLE).items(), 0);
        const KEEP: ListStyle = ListStyle {
            skip_blank: false,
            ..STYLE
        };
        assert_eq!(render(&rows, &KEEP), "- \t\n-  \n\n- a\n- b");
        let items = [Item([" ", "\u{2003}", ""]), Item([" ", "x", ""])];
        const FIELDS: ListStyle = ListStyle {
            item: &[Field(0), Field(1)],
            sort: None,
            ..STYLE
        };
        assert_eq!(render(&items, &FIELDS), " x");
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
            ..PLAIN
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
            ..PLAIN
        };
        let rows = [Item(["a", "say \"hi\"\n", ""]), Item(["b", "", ""])];
        assert_eq!(render(&rows, &STYLE), "a: \"say \\\"hi\\\"\\n\"\nb");
    }

    #[test]
    fn a_more_line_prints_its_count_and_escaped_braces() {
        const STYLE: ListStyle = ListStyle {
            item: &[Field(0)],
            join: ",",
            max: Some(1),
            more: "{{{n}}} more ({n} left out)}}",
            ..PLAIN
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
            sort: Some(0),
            max: Some(2),
            more: "({n} more)",
            ..PLAIN
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
            ..PLAIN
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
