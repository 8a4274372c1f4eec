//! A user's overlay file read as a template (`overlay_interpolate = true`): checked when it
//! is loaded (by `doctrine-load`, against the names its layer may use), then rendered per
//! composition with the caller's values. The user's literal bytes are recorded as user
//! content; the values inside them are the caller's, and are not.

use std::ops::Range;

use super::escape::Escaping;
use super::part::Value;
use super::seg::{holds_by, Op};
use super::user_content::{Rendered, UserFile};

/// One piece of a checked user template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UserSeg {
    /// The user's text: a range of [`UserTemplate::lits`].
    Lit(Range<usize>),
    /// The value at this index of the composition's values.
    Value(usize),
    /// The value at this index printed escaped as `.1` says (handlebars' `{{value}}`).
    Escaped(usize, Escaping),
    /// `{?name}`: when value `.0` is empty (or, `.1` negated, when it is not), the next
    /// `.2` pieces are left out.
    If(usize, bool, usize),
    /// `{?list:one}` (`.1` false) / `{?list:many}` (`.1` true), negated by `.2`: as in a
    /// shipped text, the next `.3` pieces are left out when the count does not match.
    Count(usize, bool, bool, usize),
    /// A section on a condition, its tests in postfix order: when it does not hold, the
    /// next `.1` pieces are left out.
    When(Vec<UserCheck>, usize),
}

/// One step of a condition in a user's template, in postfix order, as
/// [`Check`](super::part::Check) is in a shipped one (its texts the user's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UserCheck {
    /// Value `.0` is given.
    Given(usize),
    /// List value `.0` holds exactly one item, or (`.1`) two or more.
    Count(usize, bool),
    /// Text value `.0` is this text.
    Is(usize, String),
    /// List value `.0` holds an item that is this text.
    Has(usize, String),
    Not,
    And,
    Or,
}

impl UserCheck {
    fn op(&self) -> Op {
        match self {
            UserCheck::Not => Op::Not,
            UserCheck::And => Op::And,
            UserCheck::Or => Op::Or,
            _ => Op::Test,
        }
    }

    /// Whether this test holds of `values` (a step that is no test: false).
    fn test(&self, values: &[Value<'_>]) -> bool {
        let value = |v: usize| values.get(v).copied().unwrap_or(Value::Text(""));
        match self {
            UserCheck::Given(v) => !value(*v).is_empty(),
            UserCheck::Count(v, many) => value(*v).counts(*many),
            UserCheck::Is(v, text) => value(*v).is(text),
            UserCheck::Has(v, text) => value(*v).has(text),
            UserCheck::Not | UserCheck::And | UserCheck::Or => false,
        }
    }
}

/// A user's template, checked: its literal text (braces undoubled, the whitespace rule
/// applied) and its pieces, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserTemplate {
    pub lits: String,
    pub segs: Vec<UserSeg>,
}

/// The most bytes a user's template may print beyond its own text and one printing of
/// each value it names: a value printed again and again is the one way a small file makes
/// a large prompt (a 15 KB file naming a 100 KB fact 3,000 times would print 300 MB).
pub const MAX_REPEATED_BYTES: usize = 64 * 1024;

/// What a user's template prints with some values, measured before it is rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measured {
    /// The bytes it would print (before trimming).
    pub printed: usize,
    /// The most it may: its literal text, each value it prints once, and
    /// [`MAX_REPEATED_BYTES`].
    pub bound: usize,
}

impl Measured {
    /// Whether it prints more than it may.
    pub fn over(&self) -> bool {
        self.printed > self.bound
    }
}

/// One step of a template rendered with values: a literal range or a value.
enum Step<'t, 'v> {
    Lit(&'t str),
    Value(usize, Value<'v>),
}

/// Hands each piece `template` prints with `values` to `f`, sections decided.
fn walk<'t, 'v>(template: &'t UserTemplate, values: &[Value<'v>], mut f: impl FnMut(Step<'t, 'v>)) {
    let segs = &template.segs;
    let mut i = 0;
    while let Some(seg) = segs.get(i) {
        match seg {
            UserSeg::Lit(r) => f(Step::Lit(&template.lits[r.clone()])),
            UserSeg::Value(v) => f(Step::Value(*v, values[*v])),
            UserSeg::Escaped(v, e) => f(Step::Value(*v, values[*v].escaped(*e))),
            UserSeg::If(v, negated, len) => {
                if values[*v].is_empty() != *negated {
                    i += len;
                }
            }
            UserSeg::Count(v, many, negated, len) => {
                if values[*v].counts(*many) == *negated {
                    i += len;
                }
            }
            UserSeg::When(checks, len) => {
                if !holds_by(checks, UserCheck::op, |c| c.test(values)) {
                    i += len;
                }
            }
        }
        i += 1;
    }
}

/// How many bytes `template` prints with `values`, and the most it may.
pub fn measure_user(template: &UserTemplate, values: &[Value<'_>]) -> Measured {
    let mut printed = 0usize;
    let mut once = 0usize;
    let mut seen = vec![false; values.len()];
    // Each value's printed length, as given and escaped, measured once: an escaped
    // length is a pass over the value, and a small file may print a large one thousands
    // of times.
    let mut lens: Vec<[Option<usize>; 2]> = vec![[None; 2]; values.len()];
    walk(template, values, |step| match step {
        Step::Lit(t) => printed = printed.saturating_add(t.len()),
        Step::Value(v, value) => {
            let slot = &mut lens[v][usize::from(matches!(value, Value::Escaped(..)))];
            let len = *slot.get_or_insert_with(|| value.len());
            printed = printed.saturating_add(len);
            if !std::mem::replace(&mut seen[v], true) {
                once = once.saturating_add(len);
            }
        }
    });
    let bound = template
        .lits
        .len()
        .saturating_add(once)
        .saturating_add(MAX_REPEATED_BYTES);
    Measured { printed, bound }
}

/// What `template` prints with `values`, trimmed as an overlay's text is, with the
/// stretches of it the user's file supplied (`file`): its literal pieces as far as kept.
/// The caller measures first ([`measure_user`]) and renders only what is within bound.
pub fn render_user(template: &UserTemplate, values: &[Value<'_>], file: &'static str) -> Rendered {
    let mut text = String::with_capacity(template.lits.len());
    let mut user: Vec<Range<usize>> = Vec::new();
    walk(template, values, |step| match step {
        Step::Lit(lit) => {
            let from = text.len();
            text.push_str(lit);
            match user.last_mut() {
                Some(last) if last.end == from => last.end = text.len(),
                _ => user.push(from..text.len()),
            }
        }
        Step::Value(_, value) => print(value, &mut text),
    });
    trimmed(text, user, file)
}

/// Appends what `value` prints.
fn print(value: Value<'_>, out: &mut String) {
    match value {
        Value::Text(t) => out.push_str(t),
        Value::List(list) => list.write(out),
        Value::Escaped(t, e) => e.each_piece(t, &mut |p| out.push_str(p)),
    }
}

/// `text` trimmed (as a replacing overlay is), the user's stretches moved with it and cut
/// to what is kept.
fn trimmed(text: String, user: Vec<Range<usize>>, file: &'static str) -> Rendered {
    let start = text.len() - text.trim_start().len();
    let end = text.trim_end().len().max(start);
    let user = user
        .into_iter()
        .filter_map(|r| {
            let (from, to) = (r.start.max(start), r.end.min(end));
            (from < to).then(|| (from - start..to - start, UserFile::OverlayFile(file)))
        })
        .collect();
    Rendered {
        text: text[start..end].to_string(),
        user,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::escape::Escaping;

    fn template(pieces: &[&str]) -> UserTemplate {
        // `$n` is value n, `?n`/`!n` a section on it over the next piece, else text.
        let mut t = UserTemplate::default();
        for p in pieces {
            let seg = match (p.chars().next(), p[1..].parse::<usize>()) {
                (Some('$'), Ok(v)) => UserSeg::Value(v),
                (Some('?'), Ok(v)) => UserSeg::If(v, false, 1),
                (Some('!'), Ok(v)) => UserSeg::If(v, true, 1),
                _ => {
                    let from = t.lits.len();
                    t.lits.push_str(p);
                    UserSeg::Lit(from..t.lits.len())
                }
            };
            t.segs.push(seg);
        }
        t
    }

    #[test]
    fn values_print_and_only_the_users_text_is_recorded() {
        let t = template(&["  Hi ", "$0", ", ", "?1", "$1", "!1", "nobody", ".\n"]);
        let values = [Value::Text("Ada"), Value::Text("")];
        let r = render_user(&t, &values, "me.md");
        assert_eq!(r.text, "Hi Ada, nobody.");
        let spans: Vec<&str> = r.user.iter().map(|(s, _)| &r.text[s.clone()]).collect();
        assert_eq!(spans, ["Hi ", ", nobody."]);
        assert!(r
            .user
            .iter()
            .all(|(_, f)| *f == UserFile::OverlayFile("me.md")));
    }

    #[test]
    fn escaped_values_print_escaped_and_an_empty_render_is_empty() {
        let t = template(&["v=", "$0"]);
        let r = render_user(&t, &[Value::Escaped("a\"b", Escaping::Json)], "x.md");
        assert_eq!(r.text, "v=\"a\\\"b\"");
        let t = template(&["?0", " x "]);
        let r = render_user(&t, &[Value::Text("")], "x.md");
        assert_eq!((r.text.as_str(), r.user.len()), ("", 0));
    }

    #[test]
    fn a_value_printed_again_and_again_is_measured_against_its_bound() {
        let big = "x".repeat(10_000);
        // Once, twice: each value printed once is free; the template's text too.
        let once = measure_user(&template(&["a", "$0", "b"]), &[Value::Text(&big)]);
        assert_eq!((once.printed, once.over()), (10_002, false));
        assert_eq!(once.bound, 2 + 10_000 + MAX_REPEATED_BYTES);
        // Seven printings repeat 60,000 bytes, within the bound; eight repeat 70,000.
        let seven = template(&["$0"; 7]);
        assert!(!measure_user(&seven, &[Value::Text(&big)]).over());
        let eight = template(&["$0"; 8]);
        let m = measure_user(&eight, &[Value::Text(&big)]);
        assert_eq!((m.printed, m.over()), (80_000, true));
        // A section left out prints nothing, and is not counted.
        let gated = template(&["?1", "$0", "$0", "$0", "$0", "$0", "$0", "$0", "$0"]);
        let values = [Value::Text(&big), Value::Text("")];
        assert_eq!(measure_user(&gated, &values).printed, 70_000);
    }
}
