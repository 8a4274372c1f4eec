//! The manifest's loops (`{#list}…{/list}`), numbered: each is a value of its own in a
//! composition, with its own item template and its own measured list.

use crate::diag::Sink;
use crate::model::{Segment, Text};

use super::placeholder::MAX_LOOPS;

/// Numbers every loop in text order; more than [`MAX_LOOPS`] is an error naming the text
/// where the limit is passed.
pub(super) fn number(texts: &mut [Text], sink: &mut Sink<'_>) {
    let mut site = 0;
    for text in texts {
        for segment in text.segments.iter_mut().flatten() {
            if let Segment::Loop { site: s, .. } = segment {
                *s = site;
                site += 1;
                if site == MAX_LOOPS + 1 {
                    let place = text
                        .file
                        .as_ref()
                        .map_or("inline text", |f| f.display.as_str());
                    sink.error(
                        None,
                        format!("the manifest holds more than {MAX_LOOPS} loops (`{{#list}}…{{/list}}`); the {} is in {place} (layer `{}`)", MAX_LOOPS + 1, text.layer),
                        Some("print a list in one loop and reuse the layer, or print it with `{list}` and its `item` template".into()),
                    );
                }
            }
        }
    }
}
