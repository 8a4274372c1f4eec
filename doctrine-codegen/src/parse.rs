//! TOML → [`raw::Manifest`], reporting every syntax error, every unknown key and the
//! first type error of each section, all with spans. The keys are declared once, in
//! `raw` (see `de::table!` and `sections::sections!`).

use toml::de::DeTable;

use super::diag::Sink;
use super::raw::Manifest;
use doctrine_load::__internals::frontmatter::toml_depth::{too_deep, MAX_DEPTH};

pub(super) fn parse(source: &str, sink: &mut Sink<'_>) -> Option<Manifest> {
    // Before the tree is built: deep enough nesting overflows the stack (see `toml_depth`).
    if let Some(span) = too_deep(source) {
        sink.error(
            Some(span),
            format!("the manifest nests deeper than {MAX_DEPTH} levels (arrays, inline tables, dotted key parts)"),
            Some("no manifest key takes values nested more than a few levels: remove the nesting".into()),
        );
        return None;
    }
    let (doc, errors) = DeTable::parse_recoverable(source);
    // Only the earliest syntax error: the parser recovers, but what it reports after the
    // first is mostly the same mistake seen again further on.
    if let Some(e) = errors
        .iter()
        .min_by_key(|e| e.span().map_or(0, |s| s.start))
    {
        sink.error(
            e.span(),
            format!("TOML syntax error: {}", e.message().trim_end()),
            Some("fix the TOML syntax at this position".into()),
        );
        return None;
    }
    Some(Manifest::read(&doc.into_inner(), sink))
}
