//! How an interpolating layer's text is read: its tags (`placeholders`) and how its block
//! tags take whitespace (`whitespace`).

use super::names::Names;
use super::placeholder::{handlebars, mustache, placeholders, Piece, TemplateError};
use super::{jinja, standalone};
use crate::diag::Sink;
use crate::raw::{self, Placeholders, Whitespace};

/// A layer's reading of its texts.
#[derive(Clone, Copy)]
pub(super) struct Syntax {
    pub(super) placeholders: Placeholders,
    pub(super) whitespace: Whitespace,
}

/// The layer's `placeholders` and `whitespace`; either set on a layer that does not
/// interpolate is an error (it would read nothing).
pub(super) fn syntax(raw: &raw::Layer, interpolate: bool, sink: &mut Sink<'_>) -> Syntax {
    let set = [
        raw.placeholders
            .as_ref()
            .map(|p| ("placeholders", p.span())),
        raw.whitespace.as_ref().map(|w| ("whitespace", w.span())),
    ];
    for (key, span) in set.into_iter().flatten().filter(|_| !interpolate) {
        sink.error(
            Some(span),
            format!("`{key}` applies to a layer whose text has placeholders, and layer `{}` does not interpolate", raw.name.get_ref()),
            Some(format!("add `interpolate = true` to the layer, or remove `{key}`")),
        );
    }
    let handlebars = raw
        .placeholders
        .as_ref()
        .is_some_and(|p| *p.get_ref() == Placeholders::Handlebars);
    if let Some(w) = raw.whitespace.as_ref().filter(|_| handlebars) {
        sink.error(
            Some(w.span()),
            "`whitespace` does not apply to `placeholders = \"handlebars\"`, which takes whitespace as handlebars does (a block tag or comment alone on its line takes the line)",
            Some("remove `whitespace`".into()),
        );
    }
    Syntax {
        placeholders: raw
            .placeholders
            .as_ref()
            .map_or(Placeholders::Braces, |p| *p.get_ref()),
        whitespace: raw
            .whitespace
            .as_ref()
            .map_or(Whitespace::Standalone, |w| *w.get_ref()),
    }
}

impl Syntax {
    /// `body`'s pieces, whitespace rules applied; or its mistakes (a handlebars text
    /// reports each, the others their first).
    pub(super) fn read(
        &self,
        body: &str,
        names: &Names<'_>,
    ) -> Result<Vec<Piece>, Vec<TemplateError>> {
        let is_list = |n: &str| names.facts.iter().any(|f| f.name == n && f.list.is_some());
        let pieces = match self.placeholders {
            Placeholders::Braces => placeholders(body).map_err(|e| vec![e])?,
            Placeholders::Mustache => mustache(body, &is_list).map_err(|e| vec![e])?,
            // Handlebars' own standalone rule is applied as the text is read.
            Placeholders::Handlebars => return handlebars(body, &is_list),
        };
        Ok(match self.whitespace {
            Whitespace::Standalone => standalone(pieces),
            Whitespace::Jinja => jinja(pieces),
        })
    }

    /// How to write tags here, for an error's help.
    pub(super) fn help(&self) -> &'static str {
        match self.placeholders {
            Placeholders::Braces => "write `{fact}` or `{knob}`, `{?fact}…{/fact}` for text printed only when the fact is given, and `{{` / `}}` for literal braces",
            Placeholders::Mustache => "write `{{fact}}` or `{{knob}}`, `{{#fact}}…{{/fact}}` for text printed only when the fact is given (a loop over a list), `{{^fact}}…{{/fact}}` when it is not; single braces are literal",
            Placeholders::Handlebars => "write `{{fact}}` (escaped for HTML) or `{{{fact}}}` (as given), `{{#if fact}}…{{else}}…{{/if}}`, `{{#each list}}…{{/each}}`; single braces are literal",
        }
    }
}
