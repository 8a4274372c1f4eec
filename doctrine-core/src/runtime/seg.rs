//! A segment of a text with placeholders ([`Seg`]): what the plan's texts, the layers'
//! headers and the composer all read, kept below each of them.

use super::emit::rebuilt;

rebuilt! {
/// A segment of a text with placeholders: literal text, or the [`Value`](super::part::Value) at an index of the
/// `values` given to [`compose`](super::compose::compose) (facts, then knobs, then flags, in
/// manifest order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    Lit(text: &'static str),
    Value(value: usize),
    /// `{?name}…{/name}`: when value `.0` is empty (a fact not given, a flag off), or with
    /// `.1` (negated) when it is not, the next `.2` segments are left out.
    If(value: usize, negated: bool, len: usize),
    /// `{?list:one}` (`.1` false) / `{?list:many}` (`.1` true): when list value `.0` holds
    /// not exactly one item / fewer than two, or with `.2` (negated) when it does, the next
    /// `.3` segments are left out.
    Count(value: usize, many: bool, negated: bool, len: usize),
}
}
