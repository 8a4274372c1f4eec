//! A layer's bytes drawn with the stretches marked in them (inserted, user content…) and
//! the stretches a review removed: what the prompt's blocks and a message's wrapper both
//! draw, below both.

use std::fmt::Write as _;
use std::ops::Range;

use super::escape;

/// A marked stretch inside a layer's bytes.
pub(super) struct Span<'a> {
    range: Range<usize>,
    class: &'static str,
    attr: &'static str,
    value: &'a str,
}

impl<'a> Span<'a> {
    pub(super) fn new(
        range: Range<usize>,
        class: &'static str,
        attr: &'static str,
        value: &'a str,
    ) -> Self {
        Span {
            range,
            class,
            attr,
            value,
        }
    }
}

/// `text[range]`, cut wherever a span starts or ends, each piece in an element carrying
/// every span it is in; each removed stretch drawn (from an attribute, adding no text) at
/// its byte.
pub(super) fn write_bytes(
    out: &mut String,
    text: &str,
    range: Range<usize>,
    spans: &[Span<'_>],
    removed: &[&(usize, String)],
) {
    let mut cuts: Vec<usize> = vec![range.start, range.end];
    for s in spans {
        cuts.extend([s.range.start, s.range.end]);
    }
    cuts.extend(removed.iter().map(|(at, _)| *at));
    cuts.retain(|&c| c >= range.start && c <= range.end && text.is_char_boundary(c));
    cuts.sort_unstable();
    cuts.dedup();
    for pair in cuts.windows(2) {
        let (start, end) = (pair[0], pair[1]);
        for (_, old) in removed.iter().filter(|(at, _)| *at == start) {
            out.push_str("<span class=\"del\" data-old=\"");
            escape::attr(out, old);
            out.push_str("\"></span>");
        }
        let inside: Vec<&Span<'_>> = spans
            .iter()
            .filter(|s| s.range.start <= start && end <= s.range.end)
            .collect();
        if inside.is_empty() {
            escape::text(out, &text[start..end]);
            continue;
        }
        out.push_str("<span class=\"");
        let classes: Vec<&str> = inside.iter().map(|s| s.class).collect();
        out.push_str(&classes.join(" "));
        out.push('"');
        for s in &inside {
            let _ = write!(out, " {}=\"", s.attr);
            escape::attr(out, s.value);
            out.push('"');
        }
        out.push('>');
        escape::text(out, &text[start..end]);
        out.push_str("</span>");
    }
}
