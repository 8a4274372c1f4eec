//! Manifest strings printed as written, never interpolated: a layer's `title`, the
//! `separator` and a layer's `overlay_separator`. A `{name}` in one that a placeholder or
//! section tag of layer text would fill in (a fact, knob, flag or the skill index) would
//! print its braces and never the value, so it is an error, found as in layer text that
//! does not interpolate: `{{name}}` and undeclared names are left alone. The defaults of
//! the separators are here too.

use toml::Spanned;

use super::names::Names;
use super::template::{named, Named};
use crate::diag::Sink;
use crate::names::shown;

/// Between layers, without `separator`.
pub(super) const DEFAULT_SEPARATOR: &str = "\n\n---\n\n";
/// Between a layer's text and an overlay's or a suffix's, without their own separator.
pub(super) const DEFAULT_JOIN: &str = "\n\n";

/// Where a string printed as written sits: its key in messages and the layer it belongs
/// to, if any.
pub(super) struct Printed<'a> {
    /// `title`, `separator`, `overlay separator`.
    pub(super) key: &'a str,
    pub(super) layer: Option<&'a str>,
}

/// Reports each declared name written in braces in `text`, once per name, at the string.
pub(super) fn check(
    printed: Printed<'_>,
    text: &Spanned<String>,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) {
    let mut reported: Vec<&str> = Vec::new();
    let key = printed.key;
    let (whose, text_of) = match printed.layer {
        Some(layer) => (format!("the {key} of layer `{layer}`"), "the layer's text"),
        None => (format!("the {key}"), "a layer's text"),
    };
    for Named {
        inner, name, kind, ..
    } in named(text.get_ref(), names)
    {
        if reported.contains(&name) {
            continue;
        }
        reported.push(name);
        sink.error(
            Some(text.span()),
            format!(
                "`{{{}}}` in {whose} names {kind} `{name}`, but titles and separators are not interpolated, so it would print as written",
                shown(inner)
            ),
            Some(match (key, printed.layer) {
                // A layer's wrapper: the value goes in the header, written just before it.
                ("wrapper", Some(_)) => "take the braces out of the wrapper; to print the value before the layer's text, put it in the layer's `header` (`header = \"# Notes for {cwd}\\n\\n\"`), which takes placeholders".to_string(),
                _ => format!("take the braces out of the {key}; to print the value, put it in {text_of}, with `interpolate = true`"),
            }),
        );
    }
}
