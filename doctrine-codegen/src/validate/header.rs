//! A layer's `header`: a template written before the layer's text when it prints (after its
//! title's opening delimiter, before its wrapper's opening text). Its placeholders are
//! checked as an interpolating layer's text's are: the fact declared, taken by every role
//! in scope, gated where it is optional, of a tier no later than the layer's. It takes no
//! section (the layer's `when` says when it prints), and it may not write its layer's own
//! wrapper: the wrapper's opening text is where the layer's text starts.

use super::at::{report, At};
use super::names::Names;
use super::placeholder::{placeholders, Piece};
use super::syntax::Syntax;
use super::uses::Uses;
use crate::diag::Sink;
use crate::model::{Header, Layer, RoleId, Segment};
use crate::raw::{self, Placeholders, Whitespace};
use doctrine_core::introspect::{Container, Wrap};

/// How a header's placeholders are written, for an error's help.
const HELP: &str = "write `{fact}` or `{knob}`, and `{{` / `}}` for literal braces";

/// Layer `raw`'s `header`, checked against `layer` (in scope for `roles`): its segments.
pub(super) fn header(
    raw: &raw::Layer,
    layer: &Layer,
    roles: &[RoleId],
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) -> Option<Header> {
    let h = raw.header.as_ref()?;
    let (name, text) = (&layer.name, h.get_ref());
    let at = At::Manifest(h.span());
    if text.is_empty() {
        let message = format!("the header of layer `{name}` is empty");
        let help = "give the text written before the layer's text, or leave `header` out";
        report(sink, &at, message, help);
        return None;
    }
    let pieces = match placeholders(text) {
        Ok(pieces) => pieces,
        Err(e) => {
            let message = format!("in the header of layer `{name}`: {}", e.message);
            report(sink, &at, message, &e.help_or(HELP));
            return None;
        }
    };
    let locate = |_| At::Manifest(h.span());
    let uses = Uses {
        layer,
        roles,
        locate: &locate,
        names,
        syntax: Syntax {
            placeholders: Placeholders::Braces,
            whitespace: Whitespace::Standalone,
        },
        sections: false,
    };
    let mut segments = Vec::new();
    for piece in pieces {
        let tag = match piece {
            Piece::Lit(s) => {
                segments.push(Segment::Lit(s));
                continue;
            }
            Piece::Name(n, offset) | Piece::Html(n, offset) => {
                segments.extend(placeholder(&uses, text, (&n, offset), &at, sink));
                continue;
            }
            Piece::Open(n, negated, _) => format!("{{?{}{n}}}", if negated { "!" } else { "" }),
            Piece::Count(n, count, negated, _) => {
                let not = if negated { "!" } else { "" };
                format!("{{?{not}{n}:{}}}", count.word())
            }
            Piece::Loop(n, _) => format!("{{#{n}}}"),
            Piece::Close(n, _) => format!("{{/{n}}}"),
            Piece::When(_, written, _) => format!("{{?{written}}}"),
        };
        let message = format!("the header of layer `{name}` has a section tag `{tag}`, and a header takes placeholders only");
        let help = "a header prints when its layer does: gate the layer with `when` to print it only when a fact is given, or put the section in the layer's text";
        report(sink, &at, message, help);
        return None;
    }
    if let Some(w) = layer.info.wrap {
        opens_wrapper(name, text, w, &at, sink);
    }
    Some(Header {
        template: text.clone(),
        segments,
        at: h.span(),
    })
}

/// `{n}` at `offset` of header `text`: a fact or a knob, checked as in a layer's text; the
/// skill index is refused (its lines are a layer's text, and its users' lines user content).
fn placeholder(
    uses: &Uses<'_, '_>,
    text: &str,
    (n, offset): (&str, usize),
    at: &At,
    sink: &mut Sink<'_>,
) -> Option<Segment> {
    let fact = uses.names.facts.iter().find(|f| f.name == n);
    if fact.is_some_and(|f| f.skill_index) {
        let message = format!(
            "the header of layer `{}` prints the skill index (`{{{n}}}`), which is lines of its own",
            uses.layer.name
        );
        let help = format!("print `{{{n}}}` in the text of a layer of its own");
        report(sink, at, message, &help);
        return None;
    }
    let segment = uses.placeholder(n, offset, |_| false, sink);
    if let Some(fact) = fact {
        super::escape::placed(fact, text, offset, at, sink);
    }
    segment
}

/// Reports a header that writes its layer's wrapper: its opening text, a tag of its tag
/// container's name, or a line that opens a fence of its fence's mark. The wrapper opens
/// once, after the header, and that is where the layer's text starts.
fn opens_wrapper(name: &str, text: &str, w: &Wrap, at: &At, sink: &mut Sink<'_>) {
    let fold = doctrine_load::__internals::text::fold;
    let written = match w.container {
        _ if !w.open.is_empty() && text.contains(w.open) => Some(format!(
            "its wrapper's opening text `{}`",
            w.open.escape_debug()
        )),
        Container::Tag(tag) => {
            super::wrap::tags(text)
                .find(|(_, n)| fold(n) == tag)
                .map(|(closing, n)| {
                    let slash = if closing { "/" } else { "" };
                    format!("a tag of its wrapper, `<{slash}{n}`")
                })
        }
        Container::Fence(mark, _) => {
            let run = String::from(mark as char).repeat(3);
            text.split(['\n', '\r'])
                .find(|line| {
                    let body = line.trim_start_matches(' ');
                    line.len() - body.len() <= 3 && body.starts_with(&run)
                })
                .map(|line| format!("a line that opens a code fence, `{line}`"))
        }
        _ => None,
    };
    if let Some(written) = written {
        report(
            sink,
            at,
            format!("the header of layer `{name}` writes {written}: the layer's text would seem to start there"),
            "take it out of the header: the wrapper is written once, after the header, where the layer's text starts",
        );
    }
}
