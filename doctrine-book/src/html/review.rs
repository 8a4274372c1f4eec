//! The review's section: the change's sides, the simulated cache before → after, each
//! changed layer text once as a line diff with the prompts it reaches, and the prompts
//! added and removed.

use super::escape;
use crate::{Book, DiffLine, Review};

impl Book {
    pub(crate) fn write_review(&self, out: &mut String, review: &Review) {
        out.push_str("<section id=\"review\">\n<h2>Review: ");
        escape::text(out, &review.old);
        out.push_str(" → ");
        escape::text(out, &review.new);
        out.push_str("</h2>\n<ul class=\"cache\">");
        for line in &review.summary {
            out.push_str("<li>");
            escape::text(out, line);
            out.push_str("</li>");
        }
        out.push_str("</ul>\n");
        if review.changes.is_empty() {
            out.push_str("<p>No layer text changed.</p>\n");
        }
        for change in &review.changes {
            out.push_str("<div class=\"change\"><div class=\"label\">layer <b>");
            escape::text(out, &change.layer);
            out.push_str("</b>, in ");
            out.push_str(&change.prompts.len().to_string());
            out.push_str(" prompts: ");
            escape::text(out, &change.prompts.join(", "));
            out.push_str("</div><div class=\"diff\">");
            for line in &change.lines {
                let (class, sign, text) = match line {
                    DiffLine::Same(t) => ("same", " ", t),
                    DiffLine::Removed(t) => ("removed", "-", t),
                    DiffLine::Added(t) => ("added", "+", t),
                };
                out.push_str("<div class=\"");
                out.push_str(class);
                out.push_str("\">");
                out.push_str(sign);
                escape::text(out, text);
                out.push_str("</div>");
            }
            out.push_str("</div></div>\n");
        }
        if !review.removed.is_empty() {
            out.push_str("<p>Prompts removed: ");
            escape::text(out, &review.removed.join(", "));
            out.push_str("</p>\n");
        }
        out.push_str("</section>\n");
    }
}
