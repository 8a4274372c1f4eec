//! A segment of a text with placeholders ([`Seg`]): what the plan's texts, the layers'
//! headers and the composer all read, kept below each of them.

use super::emit::rebuilt;
use super::escape::Escaping;

rebuilt! {
/// A segment of a text with placeholders: literal text, or the [`Value`](super::part::Value) at an index of the
/// `values` given to [`compose`](super::compose::compose) (facts, then knobs, then flags, in
/// manifest order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    Lit(text: &'static str),
    Value(value: usize),
    /// Value `.0` printed escaped as `.1` says (handlebars' `{{value}}`: HTML).
    Escaped(value: usize, escaping: Escaping),
    /// `{?name}…{/name}`: when value `.0` is empty (a fact not given, a flag off), or with
    /// `.1` (negated) when it is not, the next `.2` segments are left out.
    If(value: usize, negated: bool, len: usize),
    /// `{?list:one}` (`.1` false) / `{?list:many}` (`.1` true): when list value `.0` holds
    /// not exactly one item / fewer than two, or with `.2` (negated) when it does, the next
    /// `.3` segments are left out.
    Count(value: usize, many: bool, negated: bool, len: usize),
    /// `{?a and not b}`, `{?mode = plan}`, `{?tools has grep}`: when the condition, its
    /// tests in postfix order, does not hold, the next `.1` segments are left out.
    When(test: &'static [Check], len: usize),
}
}

rebuilt! {
/// One step of a section's condition ([`Seg::When`]), in postfix order: a test pushes
/// whether it holds, `Not` flips the last, `And` and `Or` join the last two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// Value `.0` is given: not empty, as `{?name}` reads it.
    Given(value: usize),
    /// List value `.0` holds exactly one item, or (`.1`) two or more.
    Count(value: usize, many: bool),
    /// Text value `.0` is this text.
    Is(value: usize, text: &'static str),
    /// List value `.0` holds an item that is this text.
    Has(value: usize, text: &'static str),
    Not,
    And,
    Or,
}
}

impl Check {
    /// The value it reads, if it reads one.
    pub fn value(self) -> Option<usize> {
        match self {
            Check::Given(v) | Check::Count(v, _) | Check::Is(v, _) | Check::Has(v, _) => Some(v),
            Check::Not | Check::And | Check::Or => None,
        }
    }
}

/// The most tests a condition holds, and so how deep its evaluation stack goes: the code
/// generator refuses more.
pub(crate) const MAX_CHECKS: usize = 16;

/// What a step of a condition in postfix order does with the stack.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    Test,
    Not,
    And,
    Or,
}

impl Check {
    fn op(&self) -> Op {
        match self {
            Check::Not => Op::Not,
            Check::And => Op::And,
            Check::Or => Op::Or,
            _ => Op::Test,
        }
    }
}

/// Whether a condition holds, `test(check)` deciding each test: the bits of a `u32` as its
/// stack (a condition of at most [`MAX_CHECKS`] tests never stacks more). A malformed
/// condition (none generated) reads as not holding.
#[inline]
pub(super) fn holds(checks: &[Check], mut test: impl FnMut(Check) -> bool) -> bool {
    // A condition of one test (most): no stack.
    if let [c] = checks {
        return !matches!(c, Check::Not | Check::And | Check::Or) && test(*c);
    }
    holds_by(checks, Check::op, |c| test(*c))
}

/// [`holds`] over steps of any kind (a user's template's own, whose values are its text),
/// `op` saying what each step is.
#[inline]
pub(super) fn holds_by<T>(
    checks: &[T],
    op: impl Fn(&T) -> Op,
    mut test: impl FnMut(&T) -> bool,
) -> bool {
    let (mut stack, mut depth) = (0u32, 0u32);
    for c in checks {
        match op(c) {
            Op::Not if depth > 0 => stack ^= 1,
            o @ (Op::And | Op::Or) if depth > 1 => {
                let (b, a) = (stack & 1, (stack >> 1) & 1);
                stack >>= 2;
                let joined = if o == Op::And { a & b } else { a | b };
                stack = (stack << 1) | joined;
                depth -= 1;
            }
            Op::Not | Op::And | Op::Or => return false,
            _ if depth as usize >= MAX_CHECKS => return false,
            Op::Test => {
                stack = (stack << 1) | u32::from(test(c));
                depth += 1;
            }
        }
    }
    depth == 1 && stack & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postfix_conditions_hold_as_written() {
        let on = |c: Check| matches!(c, Check::Given(1) | Check::Given(3));
        let cases: [(&[Check], bool); 7] = [
            (&[Check::Given(1)], true),
            (&[Check::Given(2), Check::Not], true),
            (&[Check::Given(1), Check::Given(2), Check::And], false),
            (&[Check::Given(1), Check::Given(2), Check::Or], true),
            // (2 or 3) and not 1
            (
                &[
                    Check::Given(2),
                    Check::Given(3),
                    Check::Or,
                    Check::Given(1),
                    Check::Not,
                    Check::And,
                ],
                false,
            ),
            // Malformed: never generated, never true.
            (&[Check::Given(1), Check::Given(3)], false),
            (&[Check::And], false),
        ];
        for (checks, want) in cases {
            assert_eq!(holds(checks, on), want, "{checks:?}");
        }
        let deep = [Check::Given(1); MAX_CHECKS + 1];
        assert!(!holds(&deep, on));
    }
}
