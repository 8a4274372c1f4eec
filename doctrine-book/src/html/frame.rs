//! A message's frame on a prompt's page: a box around its layers' blocks, headed by its
//! role, its place in the request (before or after the conversation's history) and the
//! cache breakpoint after it, its wrapper's opening text as the box's top band and its
//! closing text as its bottom band. The bands hold the wrapper's exact bytes in `data-seg`
//! elements, like a layer's block, so the page's text is still the prompt.

use std::fmt::Write as _;

use super::bytes::{write_bytes, Span};
use super::escape;
use crate::page::{Detail, Kind, Segment};

/// Said under the page's legend when the prompt has messages.
pub(super) const LEGEND: &str = "<p class=\"legend\">Each message of the request is a \
frame: its role and whether it is sent before or after the conversation's history at the \
top, then its wrapper's opening text; its closing text at the bottom.</p>\n";

/// Opens message `m`'s frame and writes its heading.
pub(super) fn start(out: &mut String, detail: &Detail, m: usize) {
    let message = &detail.messages[m];
    let place = if message.after_history {
        "after"
    } else {
        "before"
    };
    out.push_str("<div class=\"message\" data-role=\"");
    escape::attr(out, &message.role);
    let _ = write!(
        out,
        "\" data-place=\"{place}\" data-breakpoint=\"{}\">\n<div class=\"head\">message {} of {}: <b>",
        message.breakpoint,
        m + 1,
        detail.messages.len()
    );
    escape::text(out, &message.role);
    let _ = write!(out, "</b> · sent {place} the conversation's history");
    if message.breakpoint {
        out.push_str(" · cache breakpoint after it");
    }
    out.push_str("</div>\n");
}

/// Closes the open frame.
pub(super) fn end(out: &mut String) {
    out.push_str("</div>\n");
}

/// A wrapper's band: its bytes, with what a review marks in them.
pub(super) fn wrapper(
    out: &mut String,
    detail: &Detail,
    segment: &Segment,
    spans: &[Span<'_>],
    removed: &[&(usize, String)],
) {
    let (edge, label) = match segment.kind {
        Kind::Open => ("open", "opening text"),
        _ => ("close", "closing text"),
    };
    let _ = write!(
        out,
        "<div class=\"wrap {edge}\"><span class=\"label\">{label}</span>\
         <div class=\"bytes\" data-seg=\"{edge}\">"
    );
    write_bytes(out, &detail.text, segment.range.clone(), spans, removed);
    out.push_str("</div></div>\n");
}
