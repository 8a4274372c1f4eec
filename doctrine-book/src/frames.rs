//! Where a prompt's messages stand in its text. A manifest's `[[message]]`s group its layers
//! into the messages of a request, each wrapped in its opening and closing texts; the text
//! book and the web page both draw a message as a frame around its layers' texts, its
//! opening text at the top and its closing text at the bottom, rather than as stretches
//! between two layers.

use std::ops::Range;

use doctrine_core::cache::MessageInfo;
use doctrine_core::introspect::LayerInfo;

/// One message of a composed prompt.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub info: &'static MessageInfo,
    /// Its stretch of the prompt, wrapper included.
    pub range: Range<usize>,
    /// Its layers, as indices into the layers given to [`frames`].
    pub layers: Range<usize>,
}

impl Frame {
    /// Where its opening text stands (empty without a wrapper).
    pub(crate) fn open(&self) -> Range<usize> {
        self.range.start..self.range.start + self.info.open.len()
    }

    /// Where its closing text stands (empty without a wrapper).
    pub(crate) fn close(&self) -> Range<usize> {
        self.range.end - self.info.close.len()..self.range.end
    }

    pub(crate) fn opens_at(&self, layer: usize) -> bool {
        self.layers.start == layer
    }

    pub(crate) fn closes_at(&self, layer: usize) -> bool {
        self.layers.end == layer + 1
    }
}

/// The messages of the prompt `text` whose included layers lie at `layers`, in order and
/// not overlapping (the callers check it). None for a prompt without declared messages,
/// and none when a wrapper is not where the records put it (no composed prompt has that):
/// what stands between the layers is then shown as it is, so that nothing is lost.
pub(crate) fn frames<'a>(
    text: &str,
    layers: impl IntoIterator<Item = (&'a LayerInfo, Range<usize>)>,
) -> Vec<Frame> {
    let mut out: Vec<Frame> = Vec::new();
    for (i, (info, range)) in layers.into_iter().enumerate() {
        // A manifest puts every layer in a message or none.
        let Some(m) = info.message else {
            return Vec::new();
        };
        match out.last_mut() {
            Some(f) if *f.info == *m => {
                f.range.end = range.end;
                f.layers.end = i + 1;
            }
            _ => out.push(Frame {
                info: m,
                range,
                layers: i..i + 1,
            }),
        }
    }
    let mut at = 0;
    for f in &mut out {
        let (open, close) = (f.info.open, f.info.close);
        let start = f.range.start.checked_sub(open.len()).filter(|&s| s >= at);
        let end = f.range.end + close.len();
        let opens = start.is_some_and(|s| text.get(s..f.range.start) == Some(open));
        let Some(start) = start.filter(|_| opens && text.get(f.range.end..end) == Some(close))
        else {
            return Vec::new();
        };
        f.range = start..end;
        at = end;
    }
    out
}
