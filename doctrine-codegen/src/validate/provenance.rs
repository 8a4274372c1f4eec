//! `provenance` and `rank` on an instructions layer: the template of the line written
//! before each instruction, and what orders them.

use super::kind::Kind;
use super::literal::{self, Printed};
use super::names::Names;
use super::placeholder::{placeholders, Piece};
use crate::diag::Sink;
use crate::model::{LinePart, Provenance};
use crate::raw;

pub(super) fn provenance(
    raw: &raw::Layer,
    kind: Kind<'_>,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) -> Option<Provenance> {
    let keys = [
        ("provenance", raw.provenance.as_ref().map(|p| p.span())),
        ("rank", raw.rank.as_ref().map(|r| r.span())),
        ("verbatim", raw.verbatim.as_ref().map(|v| v.span())),
        ("join", raw.join.as_ref().map(|j| j.span())),
        ("max_bytes", raw.max_bytes.as_ref().map(|m| m.span())),
    ];
    if keys.iter().all(|(_, span)| span.is_none()) {
        return None;
    }
    if !matches!(kind, Kind::Instructions) {
        for (key, span) in keys {
            if let Some(span) = span {
                // A list's budget is its fact's key, which a layer's can be taken for.
                let elsewhere = match key {
                    "max_bytes" => " (a list fact's byte budget is the fact's `max_bytes`)",
                    _ => "",
                };
                sink.error(
                    Some(span),
                    format!("`{key}` applies to an `instructions` layer"),
                    Some(format!(
                        "remove `{key}` from layer `{}`{elsewhere}",
                        raw.name.get_ref()
                    )),
                );
            }
        }
        return None;
    }
    let by_source = raw
        .rank
        .as_ref()
        .is_some_and(|r| *r.get_ref() == raw::Rank::Source);
    let verbatim = raw.verbatim.as_ref().is_some_and(|v| *v.get_ref());
    let join = raw.join.as_ref().map(|j| {
        let printed = Printed {
            key: "join",
            layer: Some(raw.name.get_ref()),
        };
        let text = toml::Spanned::new(j.span(), j.get_ref().text().to_string());
        literal::check(printed, &text, names, sink);
        crate::text::normalise(text.get_ref())
    });
    let join_ends_line = raw.join.as_ref().is_some_and(|j| j.get_ref().ends_line());
    if let Some(m) = &raw.max_bytes {
        budget_method_taken(raw.name.get_ref(), m.span(), names, sink);
    }
    let max_bytes = raw.max_bytes.as_ref().map(|m| *m.get_ref());
    let Some(template) = &raw.provenance else {
        return Some(Provenance {
            line: None,
            by_source,
            verbatim,
            join,
            join_ends_line,
            max_bytes,
        });
    };
    if verbatim {
        sink.error(
            Some(template.span()),
            "a verbatim instructions layer writes no provenance line",
            Some(format!(
                "remove `provenance` from layer `{}`, or `verbatim = true` to keep the line",
                raw.name.get_ref()
            )),
        );
        return None;
    }
    let help = "write one line with `{source}` and `{scope}`, e.g. `<!-- {source}: {scope} -->` (`{{`/`}}` for literal braces)";
    if template.get_ref().contains(['\n', '\r']) {
        sink.error(
            Some(template.span()),
            "a provenance template is one line",
            Some(help.into()),
        );
        return None;
    }
    let pieces = match placeholders(template.get_ref()) {
        Ok(p) => p,
        Err(e) => {
            let help = e.help_or(help);
            sink.error(Some(template.span()), e.message, Some(help));
            return None;
        }
    };
    let mut line = Vec::new();
    for piece in pieces {
        line.push(match piece {
            Piece::Lit(t) => LinePart::Lit(t),
            Piece::Name(n, _) if n == "source" => LinePart::Source,
            Piece::Name(n, _) if n == "scope" => LinePart::Scope,
            Piece::Name(n, _) | Piece::Html(n, _) => {
                sink.error(
                    Some(template.span()),
                    format!("`{{{n}}}` in a provenance template names neither `source` nor `scope`"),
                    Some(help.into()),
                );
                return None;
            }
            Piece::Open(..) | Piece::Count(..) | Piece::Loop(..) | Piece::Close(..) | Piece::When(..) => {
                sink.error(
                    Some(template.span()),
                    "a provenance template has no sections: the line is left out when the scope is empty",
                    Some(help.into()),
                );
                return None;
            }
        });
    }
    if !line.contains(&LinePart::Scope) {
        sink.error(
            Some(template.span()),
            "a provenance template without `{scope}` cannot say where an instruction applies",
            Some(help.into()),
        );
        return None;
    }
    Some(Provenance {
        line: Some(line),
        by_source,
        verbatim,
        join,
        join_ends_line,
        max_bytes,
    })
}

/// An instructions layer's budget is lowered by the builder's `.max_bytes_<layer>()`, a list
/// fact's by `.max_bytes_<fact>()`: one name cannot be both.
fn budget_method_taken(
    layer: &str,
    at: std::ops::Range<usize>,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) {
    let budgeted = |f: &&crate::model::Fact| {
        f.name == layer
            && f.list.as_ref().is_some_and(|l| l.max_bytes.is_some())
            && f.need.iter().any(|n| *n != crate::model::Need::Absent)
    };
    if names.facts.iter().any(|f| budgeted(&f)) {
        sink.error(
            Some(at),
            format!("instructions layer `{layer}` and list fact `{layer}` both have a byte budget, and the builder's `.max_bytes_{layer}()` can lower only one"),
            Some("rename the layer or the fact, or remove one of the two `max_bytes`".into()),
        );
    }
}
