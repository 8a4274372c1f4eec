//! A prompt's section: its names and sizes, a copy control, then its exact bytes as one
//! block per layer (labelled: name, source, tier, locked, run-time, overlay field, gate)
//! and per separator, each message a frame around its layers' blocks, with the
//! stable/volatile boundary and each cache breakpoint drawn between them, and the layers
//! left out with their reasons.
//!
//! Every byte of the prompt is in exactly one element marked `data-seg`, in order, and
//! nothing else is inside those elements: labels sit outside them or are drawn by the
//! style sheet from attributes (`::before`), so the text a reader selects, the text a
//! test reads back from the DOM and the prompt are the same.

use std::fmt::Write as _;
use std::ops::Range;

use super::bytes::{write_bytes, Span};
use super::{escape, frame};
use crate::page::{Breakpoint, Detail, Kind, Layer, Segment};
use crate::Book;

impl Book {
    pub(crate) fn write_prompt(
        &self,
        out: &mut String,
        group: usize,
        members: &[usize],
        detail: &Detail,
    ) {
        let id = Self::anchor(group);
        let _ = write!(
            out,
            "<section class=\"prompt\" id=\"{id}\">\n<h2>P{n}</h2>\n<p class=\"names\">",
            n = group + 1
        );
        self.write_names(out, members);
        let _ = writeln!(
            out,
            "</p>\n<p class=\"sizes\">{} bytes, {} tokens; stable prefix {} bytes, {} tokens. \
             <button type=\"button\" class=\"copy\" data-copy=\"t-{id}\">Copy prompt</button> \
             <span class=\"copied\" aria-live=\"polite\"></span> · <a href=\"#index\">index</a></p>",
            detail.text.len(),
            detail.tokens,
            detail.stable,
            detail.stable_tokens,
        );
        let _ = write!(out, "<script type=\"application/json\" id=\"t-{id}\">");
        escape::json(out, &detail.text);
        out.push_str("</script>\n");
        let names: Vec<&str> = members
            .iter()
            .map(|&p| self.pages[p].name.as_str())
            .collect();
        let review = self.page_review(&names);
        if let Some(review) = review {
            self.write_cache_lines(out, review);
        }
        out.push_str(LEGEND);
        if !detail.messages.is_empty() {
            out.push_str(frame::LEGEND);
        }
        out.push_str("<div class=\"text\">\n");
        let mut marks = Marks::new(detail);
        // The message whose frame is open.
        let mut open = None;
        for segment in &detail.segments {
            let (was, now) = (open, segment.message);
            if was.is_some() && was != now {
                frame::end(out);
            }
            marks.before(out, segment.range.start);
            if let Some(m) = now.filter(|_| was != now) {
                frame::start(out, detail, m);
            }
            open = now;
            self.write_segment(out, detail, segment, review);
        }
        if open.is_some() {
            frame::end(out);
        }
        marks.before(out, usize::MAX);
        out.push_str("</div>\n");
        write_skipped(out, &detail.skipped);
        out.push_str("</section>\n");
    }

    fn write_segment(
        &self,
        out: &mut String,
        detail: &Detail,
        segment: &Segment,
        review: Option<&crate::PageReview>,
    ) {
        let bytes = &detail.text[segment.range.clone()];
        let layer = match &segment.kind {
            Kind::Open | Kind::Close => {
                let (spans, points) = review_marks(review, &segment.range);
                frame::wrapper(out, detail, segment, &spans, &points);
                return;
            }
            Kind::Between => {
                out.push_str("<div class=\"sep\"><span class=\"label\">separator ");
                escape::text(out, &escape::spelled(bytes));
                out.push_str("</span><div class=\"bytes\" data-seg=\"between\">");
                escape::text(out, bytes);
                out.push_str("</div></div>\n");
                return;
            }
            Kind::Layer(layer) => layer,
        };
        let mut class = String::from("layer");
        for (on, name) in [
            (layer.locked, " locked"),
            (layer.runtime, " runtime"),
            (!layer.user.is_empty(), " user"),
        ] {
            if on {
                class.push_str(name);
            }
        }
        out.push_str("<div class=\"");
        out.push_str(&class);
        out.push_str("\" data-layer=\"");
        escape::attr(out, &layer.name);
        out.push_str("\">");
        self.write_label(out, layer, bytes);
        out.push_str("<div class=\"bytes\" data-seg=\"layer\">");
        let user = layer.user.iter();
        let user = user.map(|(r, source)| Span::new(r.clone(), "user", "data-user", source));
        let values = layer.values.iter();
        let values = values.map(|(r, source)| Span::new(r.clone(), "val", "data-val", source));
        let (spans, points) = review_marks(review, &segment.range);
        let mut marked: Vec<Span> = user.chain(values).collect();
        marked.extend(spans);
        write_bytes(out, &detail.text, segment.range.clone(), &marked, &points);
        out.push_str("</div></div>\n");
    }

    fn write_label(&self, out: &mut String, layer: &Layer, bytes: &str) {
        out.push_str("<div class=\"label\"><b>");
        escape::text(out, &layer.name);
        out.push_str("</b>");
        if layer.locked {
            out.push_str(" <span class=\"tag lock\">LOCKED</span>");
        }
        if layer.runtime {
            out.push_str(" <span class=\"tag rt\">RUN-TIME VALUE</span>");
        }
        if !layer.values.is_empty() {
            out.push_str(" <span class=\"tag rt\">HOLDS CALLER'S VALUES</span>");
        }
        if !layer.user.is_empty() {
            out.push_str(" <span class=\"tag usr\">USER FILE BYTES</span>");
        }
        let about = self.about.get(&layer.name);
        let mut field = |key: &str, value: &str| {
            let _ = write!(out, " · {key} <code>");
            escape::text(out, value);
            out.push_str("</code>");
        };
        field("source", &layer.source);
        field("tier", &layer.tier);
        if let Some(overlay) = about.and_then(|a| a.overlay.as_deref()) {
            field("overlay field", overlay);
        }
        if let Some(gate) = about.and_then(|a| a.gate.as_deref()) {
            field("gate", gate);
        }
        let _ = write!(out, " · {} bytes", bytes.len());
        let invisible = escape::invisibles(bytes);
        if !invisible.is_empty() {
            out.push_str(" · <span class=\"tag warn\">invisible characters: ");
            escape::text(out, &invisible.join(", "));
            out.push_str("</span>");
        }
        out.push_str("</div>");
    }

    /// The review of the prompt named first in `names` that has one.
    fn page_review(&self, names: &[&str]) -> Option<&crate::PageReview> {
        let review = self.review.as_ref()?;
        names.iter().find_map(|n| review.pages.get(*n))
    }

    fn write_cache_lines(&self, out: &mut String, review: &crate::PageReview) {
        out.push_str("<ul class=\"cache\">");
        for line in &review.cache {
            out.push_str("<li>");
            escape::text(out, line);
            out.push_str("</li>");
        }
        out.push_str("</ul>\n");
    }
}

const LEGEND: &str = "<p class=\"legend\">Each block is one layer's bytes, labelled; \
<span class=\"tag lock\">LOCKED</span> no user file or run-time value can change it; \
<span class=\"tag rt\">RUN-TIME VALUE</span> the caller's text; \
<span class=\"val\" data-val=\"fact\">a value</span> the caller's value inside shipped text; \
<span class=\"user\" data-user=\"file\">user-file bytes</span> a user's file supplied them; \
separators are drawn as their escaped bytes.</p>\n";

/// What a review marks in `range`: the new stretches, and the old bytes removed at a byte
/// inside it.
fn review_marks<'r>(
    review: Option<&'r crate::PageReview>,
    range: &Range<usize>,
) -> (Vec<Span<'r>>, Vec<&'r (usize, String)>) {
    let Some(review) = review else {
        return (Vec::new(), Vec::new());
    };
    let inserted = review.inserted.iter();
    let spans = inserted.map(|r| Span::new(r.clone(), "ins", "data-ins", ""));
    let deleted = review.deleted.iter();
    let points = deleted.filter(|(at, _)| range.contains(at)).collect();
    (spans.collect(), points)
}

/// Draws the stable/volatile boundary and the breakpoints as the segments go by.
struct Marks<'d> {
    detail: &'d Detail,
    next: usize,
    boundary: bool,
}

impl<'d> Marks<'d> {
    fn new(detail: &'d Detail) -> Self {
        Marks {
            detail,
            next: 0,
            boundary: false,
        }
    }

    /// Draws what falls at or before byte `at`.
    fn before(&mut self, out: &mut String, at: usize) {
        while let Some(bp) = self
            .detail
            .breakpoints
            .get(self.next)
            .filter(|b| b.at <= at)
        {
            write_breakpoint(out, bp);
            self.next += 1;
        }
        let d = self.detail;
        if !self.boundary && d.stable <= at && d.stable < d.text.len() {
            self.boundary = true;
            let _ = writeln!(
                out,
                "<div class=\"boundary\" data-stable=\"{}\">── stable prefix ends: {} bytes, {} tokens; \
                 the volatile part follows ──</div>",
                d.stable, d.stable, d.stable_tokens
            );
        }
    }
}

fn write_breakpoint(out: &mut String, bp: &Breakpoint) {
    out.push_str("<div class=\"bp\" data-at=\"");
    let _ = write!(
        out,
        "{}\" data-tokens=\"{}\" data-tier=\"",
        bp.at, bp.tokens
    );
    escape::attr(out, &bp.tier);
    let _ = write!(out, "\">▼ cache breakpoint after tier <code>");
    escape::text(out, &bp.tier);
    let _ = writeln!(
        out,
        "</code>: {} bytes, {} tokens up to here</div>",
        bp.at, bp.tokens
    );
}

fn write_skipped(out: &mut String, skipped: &[(String, String)]) {
    if skipped.is_empty() {
        return;
    }
    out.push_str("<h3>Layers left out</h3>\n<ul class=\"skipped\">");
    for (layer, reason) in skipped {
        out.push_str("<li><b>");
        escape::text(out, layer);
        out.push_str("</b>: ");
        escape::text(out, reason);
        out.push_str("</li>");
    }
    out.push_str("</ul>\n");
}
