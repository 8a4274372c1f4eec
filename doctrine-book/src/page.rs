//! The data model of one prompt's page, recorded from the composed prompt when the book
//! adds it: the prompt cut into segments (each layer's text, what stands between, each
//! message's wrapper), each layer's labels, the user-file stretches inside it, the
//! messages the segments are framed in, the skipped layers and why, and the cache
//! breakpoints with the tokens up to each.

use std::ops::Range;

use doctrine_core::introspect::{Origin, Section, Supplied};
use doctrine_core::Prompt;

use crate::count::Counter;
use crate::frames::frames;

/// One prompt's page.
#[derive(Clone, Debug)]
pub(crate) struct Detail {
    pub text: String,
    /// The stable prefix's length in bytes.
    pub stable: usize,
    pub tokens: usize,
    pub stable_tokens: usize,
    /// The whole text, cut in order: every byte is in exactly one segment.
    pub segments: Vec<Segment>,
    /// The messages of a manifest that declares them, in order; the segments name theirs.
    pub messages: Vec<Message>,
    /// Each layer left out, and why.
    pub skipped: Vec<(String, String)>,
    /// Each cache breakpoint, in order.
    pub breakpoints: Vec<Breakpoint>,
}

/// A stretch of the prompt.
#[derive(Clone, Debug)]
pub(crate) struct Segment {
    pub range: Range<usize>,
    pub kind: Kind,
    /// The message it is inside (an index into `Detail::messages`), if any.
    pub message: Option<usize>,
}

#[derive(Clone, Debug)]
pub(crate) enum Kind {
    /// A layer's text (its title's delimiters included).
    Layer(Layer),
    /// What stands between two layers (the manifest's separator), or before the first or
    /// after the last.
    Between,
    /// Its message's opening text, written before its first layer.
    Open,
    /// Its message's closing text, written after its last layer.
    Close,
}

/// One message: a frame around its segments.
#[derive(Clone, Debug)]
pub(crate) struct Message {
    pub role: String,
    /// Sent after the conversation's history, not before it.
    pub after_history: bool,
    /// A cache breakpoint follows it in a request (the runtime's `Message::breakpoint`).
    pub breakpoint: bool,
}

/// What the page says of one included layer.
#[derive(Clone, Debug)]
pub(crate) struct Layer {
    pub name: String,
    /// Where its text came from (`Origin`'s `Display`: a file, a slot, an overlay file).
    pub source: String,
    pub tier: String,
    pub locked: bool,
    /// Its text was given at run time (a slot, instructions): the caller's bytes.
    pub runtime: bool,
    /// The stretches (within the prompt) a user's file supplied, and which file.
    pub user: Vec<(Range<usize>, String)>,
    /// The stretches the caller's values wrote inside shipped text (a fact, a list item's
    /// field, a fact in the layer's header), and whose: recorded only when the prompt was
    /// composed with a recording guard, as the tool composes. A layer that is all run-time
    /// text (`runtime`) and a user's file (`user`) are marked whole already, but for the
    /// facts in a header.
    pub values: Vec<(Range<usize>, String)>,
}

/// A cache breakpoint: the end of a cached tier's block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Breakpoint {
    /// The byte it falls after.
    pub at: usize,
    pub tier: String,
    /// The tokens of the prompt up to it.
    pub tokens: usize,
}

impl Detail {
    pub(crate) fn of<S: AsRef<[Section]>>(prompt: &Prompt<S>, counter: &mut Counter) -> Detail {
        let text = prompt.as_str();
        let stable = prompt.stable().len();
        let mut breakpoints = Vec::new();
        let mut end = 0;
        for block in prompt.blocks() {
            end += block.text.len();
            if block.breakpoint {
                breakpoints.push(Breakpoint {
                    at: end,
                    tier: block.tier.to_string(),
                    tokens: counter.count(&text[..end]),
                });
            }
        }
        let skipped = prompt
            .sections()
            .iter()
            .filter_map(|s| {
                s.state
                    .skip()
                    .map(|r| (s.info.name.to_string(), r.to_string()))
            })
            .collect();
        let (segments, messages) = segments(prompt);
        Detail {
            text: text.to_string(),
            stable,
            tokens: counter.count(text),
            stable_tokens: counter.count(&text[..stable]),
            segments,
            messages,
            skipped,
            breakpoints,
        }
    }
}

/// The prompt cut into segments, and the messages they are framed in. Layers out of order
/// or overlapping (no composed prompt has them) make the whole prompt one `Between`
/// segment, so that nothing is lost.
fn segments<S: AsRef<[Section]>>(prompt: &Prompt<S>) -> (Vec<Segment>, Vec<Message>) {
    let text = prompt.as_str();
    let included: Vec<(&Section, Range<usize>)> = prompt
        .sections()
        .iter()
        .filter_map(|s| s.state.range().map(|r| (s, r)))
        .collect();
    let ordered = included
        .iter()
        .try_fold(0, |at, (_, r)| {
            (at <= r.start && r.start <= r.end && r.end <= text.len()).then_some(r.end)
        })
        .is_some();
    if !ordered {
        return (vec![plain(0..text.len(), Kind::Between, None)], Vec::new());
    }
    let frames = frames(text, included.iter().map(|(s, r)| (s.info, r.clone())));
    let sent = prompt.messages();
    let messages = frames
        .iter()
        .map(|f| Message {
            role: f.info.role.to_string(),
            after_history: f.info.after_history,
            breakpoint: sent.iter().any(|m| m.range == f.range && m.breakpoint),
        })
        .collect();
    let mut out = Vec::new();
    // Pushes a segment; no stretch between layers or wrapper is empty (a message without
    // one), but a layer is kept whatever it holds.
    let mut push = |range: Range<usize>, kind: Kind, message: Option<usize>| {
        if !range.is_empty() || matches!(kind, Kind::Layer(_)) {
            out.push(plain(range, kind, message));
        }
    };
    let mut at = 0;
    for (i, (section, range)) in included.into_iter().enumerate() {
        let message = frames.iter().position(|f| f.layers.contains(&i));
        let frame = message.map(|m| &frames[m]);
        if let Some(f) = frame.filter(|f| f.opens_at(i)) {
            push(at..f.range.start, Kind::Between, None);
            push(f.open(), Kind::Open, message);
            at = f.open().end;
        }
        push(at..range.start, Kind::Between, message);
        let layer = layer(prompt, section, &range);
        at = range.end;
        push(range, Kind::Layer(layer), message);
        if let Some(f) = frame.filter(|f| f.closes_at(i)) {
            push(f.close(), Kind::Close, message);
            at = f.range.end;
        }
    }
    push(at..text.len(), Kind::Between, None);
    (out, messages)
}

fn plain(range: Range<usize>, kind: Kind, message: Option<usize>) -> Segment {
    Segment {
        range,
        kind,
        message,
    }
}

fn layer<S: AsRef<[Section]>>(
    prompt: &Prompt<S>,
    section: &Section,
    range: &Range<usize>,
) -> Layer {
    let user = prompt
        .user_content()
        .iter()
        .filter(|u| u.layer == section.info.name)
        .map(|u| (clamp(&u.range, range), u.source.to_string()))
        .filter(|(r, _)| !r.is_empty())
        .collect();
    let runtime = matches!(section.origin, Origin::Slot | Origin::Instructions);
    let values = prompt
        .run_time_text()
        .iter()
        // A layer all run-time text is marked whole; a fact in its header is not its text.
        .filter(|v| v.layer == section.info.name)
        .filter(|v| !runtime || matches!(v.source, Supplied::Fact(_)))
        .filter(|v| {
            !matches!(
                v.source,
                Supplied::OverlayFile(_) | Supplied::SelectorPath(_)
            )
        })
        .map(|v| (clamp(&v.range, range), v.source.to_string()))
        .filter(|(r, _)| !r.is_empty())
        .collect();
    Layer {
        name: section.info.name.to_string(),
        source: section.origin.to_string(),
        tier: section.info.tier_name.to_string(),
        locked: section.info.locked,
        runtime,
        user,
        values,
    }
}

/// `inner` cut to `outer`.
fn clamp(inner: &Range<usize>, outer: &Range<usize>) -> Range<usize> {
    let start = inner.start.clamp(outer.start, outer.end);
    start..inner.end.clamp(start, outer.end)
}
