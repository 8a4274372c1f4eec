//! A layer's `wrap`: two texts written around its text when it prints, and what they
//! enclose. When the closing text ends what the opening text began (a tag pair, a code
//! fence), the wrapper is a container: run-time text inside it is written as given but for
//! what would close it, which is how an agent forwards a user's instruction file (headings
//! and all) beside a locked layer.

use super::literal::{check, Printed};
use super::names::Names;
use crate::diag::Sink;
use crate::raw;
use doctrine_core::__internals::container::{fence_closing, fence_opening};
use doctrine_core::introspect::{Container, Wrap};

/// Layer `raw`'s `wrap`, checked: two texts, not both empty, printed as written.
pub(super) fn wrap(
    raw: &raw::Layer,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) -> Option<&'static Wrap> {
    let w = raw.wrap.as_ref()?;
    let layer = raw.name.get_ref();
    let [open, close] = &w.get_ref()[..] else {
        sink.error(
            Some(w.span()),
            format!("the wrapper of layer `{layer}` is not two texts"),
            Some("write `wrap = [\"<name>\\n\", \"\\n</name>\"]`: the opening text, then the closing one".to_string()),
        );
        return None;
    };
    for text in [open, close] {
        let printed = Printed {
            key: "wrapper",
            layer: Some(layer),
        };
        check(printed, text, names, sink);
    }
    if open.get_ref().is_empty() && close.get_ref().is_empty() {
        sink.error(
            Some(w.span()),
            format!("both texts of layer `{layer}`'s wrapper are empty"),
            Some("give the texts written around the layer, or leave `wrap` out".to_string()),
        );
        return None;
    }
    let text = crate::plan::interned;
    let (open, close) = (open.get_ref(), close.get_ref());
    let container = container(open, close);
    Some(crate::plan::shared(Wrap::rebuild(
        text(open),
        text(close),
        container,
    )))
}

/// What `open` and `close` enclose: a code fence when the opening text ends with a fence
/// line and a line break and the closing text starts with a line break and a line that
/// closes it; else a tag pair when the closing text closes a tag the opening text opens
/// (the last such); else nothing.
pub(super) fn container(open: &str, close: &str) -> Container {
    if let Some((mark, len)) = fence(open, close) {
        return Container::Fence(mark, len);
    }
    let fold = doctrine_load::__internals::text::fold;
    let closed: Vec<String> = closing_tags(close).map(fold).collect();
    let opened: Vec<String> = opening_tags(open).map(fold).collect();
    let name = opened.iter().rev().find(|n| closed.contains(n));
    match name {
        Some(n) => Container::Tag(crate::plan::interned(n)),
        None => Container::None,
    }
}

/// The fence `open` begins and `close` ends, each on a line of its own.
fn fence(open: &str, close: &str) -> Option<(u8, u32)> {
    let line = open.strip_suffix('\n')?;
    let line = line.strip_suffix('\r').unwrap_or(line);
    let last = line.rsplit(['\n', '\r']).next()?;
    let (mark, len) = fence_opening(last)?;
    let rest = close.strip_prefix("\r\n").or(close.strip_prefix('\n'))?;
    let first = rest.split(['\n', '\r']).next()?;
    fence_closing(first, mark, len).then_some((mark, len))
}

/// The names of the opening tags in `text` (`<name`, not `</name`).
fn opening_tags(text: &str) -> impl Iterator<Item = &str> {
    tags(text).filter_map(|(closing, name)| (!closing).then_some(name))
}

/// The names of the closing tags in `text` (`</name`).
fn closing_tags(text: &str) -> impl Iterator<Item = &str> {
    tags(text).filter_map(|(closing, name)| closing.then_some(name))
}

/// Each tag in `text`: whether it closes, and its name as written.
pub(super) fn tags(text: &str) -> impl Iterator<Item = (bool, &str)> {
    text.match_indices('<').filter_map(move |(i, _)| {
        let rest = &text[i + 1..];
        let (closing, rest) = match rest.strip_prefix('/') {
            Some(r) => (true, r),
            None => (false, rest),
        };
        // A name ends where the guard's reading of one ends.
        let end = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '>' | '/' | '<'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        (!name.is_empty()).then_some((closing, name))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapper_is_a_container_when_its_texts_pair() {
        let tag = |n| Container::Tag(crate::plan::interned(n));
        assert_eq!(
            container("<INSTRUCTIONS>\n", "\n</INSTRUCTIONS>"),
            tag("instructions")
        );
        assert_eq!(
            container("# For {x}\n\n<rules kind=\"a\">\n", "\n</rules>\n"),
            tag("rules")
        );
        assert_eq!(container("<a>\n<b>\n", "\n</b>\n</a>"), tag("b"));
        assert_eq!(
            container("``````md\n", "\n``````"),
            Container::Fence(b'`', 6)
        );
        assert_eq!(
            container("<r>\n~~~\n", "\n~~~~\n</r>"),
            Container::Fence(b'~', 3)
        );
        // No closing text, a closing text that ends nothing, a fence not on its own line.
        assert_eq!(container("# Rules\n\n", ""), Container::None);
        assert_eq!(container("<a>", "</b>"), Container::None);
        assert_eq!(container("``````", "\n``````"), Container::None);
        assert_eq!(container("```\n", "\n``"), Container::None);
    }
}
