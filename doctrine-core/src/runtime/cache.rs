//! Provider-shaped views of [`Prompt::blocks`], as plain data: no HTTP client and no
//! serialisation dependency, so a caller maps them onto whatever request type it sends.
//!
//! [`Prompt::blocks`]: crate::Prompt::blocks

use super::message::{Message, MessagePart};
use super::prompt::Prompt;
use super::section::Section;

/// Anthropic's cache marker on a `system` text block: `"cache_control": {"type":
/// "ephemeral"}`. The provider caches the exact prefix up to and including a marked block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CacheControl {
    /// `{"type": "ephemeral"}`, the default time to live.
    Ephemeral,
}

impl CacheControl {
    /// The marker's `type`, as the API spells it.
    pub const fn kind(self) -> &'static str {
        match self {
            CacheControl::Ephemeral => "ephemeral",
        }
    }
}

/// One element of an Anthropic-style `system` array: `{"type": "text", "text": ...,
/// "cache_control": ...}`, the marker present where a cacheable tier ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SystemBlock<'p> {
    /// The block's text, a slice of the prompt.
    pub text: &'p str,
    /// `Some` on every block that ends a cacheable tier.
    pub cache_control: Option<CacheControl>,
}

/// The prompt as an Anthropic-style `system` array: one text block per tier with text, each
/// cacheable tier's block marked `cache_control: ephemeral`. The manifest keeps the marks
/// within its `[cache] breakpoints` (4 by default, Anthropic's limit per request); marks
/// the request spends elsewhere (tools, messages) count against the same limit.
///
/// ```
/// # use doctrine_core as doctrine;
/// use doctrine::cache::{anthropic_system, CacheControl};
/// # fn show<S: AsRef<[doctrine::introspect::Section]>>(prompt: &doctrine::Prompt<S>) {
/// for block in anthropic_system(prompt) {
///     let marked = block.cache_control == Some(CacheControl::Ephemeral);
///     println!("{} bytes, breakpoint: {marked}", block.text.len());
/// }
/// # }
/// ```
pub fn anthropic_system<S: AsRef<[Section]>>(prompt: &Prompt<S>) -> Vec<SystemBlock<'_>> {
    prompt
        .blocks()
        .map(|b| SystemBlock {
            text: b.text,
            cache_control: b.breakpoint.then_some(CacheControl::Ephemeral),
        })
        .collect()
}

/// The prompt as one OpenAI-style `system` (or `developer`) string: the whole text. OpenAI
/// caches the longest matching prefix on its own (in 128-token steps above 1,024 tokens),
/// so the tier order alone is what makes its prefix reusable: no markers to place.
pub fn openai_string<S: AsRef<[Section]>>(prompt: &Prompt<S>) -> &str {
    prompt.as_str()
}

/// One element of an Anthropic-style `messages` array: a role and its text blocks (one, or
/// one per part of a message sent in parts), each marked where a cacheable tier ends.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AnthropicMessage<'p> {
    /// The manifest's role for the message. Anthropic's API takes `user` and
    /// `assistant`: a caller maps another name (`developer`, say) onto `user`.
    pub role: &'static str,
    pub content: Vec<SystemBlock<'p>>,
}

/// A prompt's messages ([`Prompt::messages`]) as an Anthropic-style request: the leading
/// `system` messages as the `system` array, the other messages sent before the
/// conversation's history (`context`), and those sent after it (`turn`: the caller puts
/// them after the history, in the turn's last user message or as their own), each block
/// marked `cache_control` where a cacheable tier ends. A message sent in parts
/// ([`Message::parts`]) is one text block per part, the mark on the part that ends a tier
/// (the last, for a message of one tier); a leading `system` message in parts is as many
/// blocks of the `system` array.
///
/// [`Message::parts`]: super::message::Message::parts
///
/// [`Prompt::messages`]: crate::Prompt::messages
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AnthropicRequest<'p> {
    pub system: Vec<SystemBlock<'p>>,
    pub context: Vec<AnthropicMessage<'p>>,
    pub turn: Vec<AnthropicMessage<'p>>,
}

/// The prompt as an [`AnthropicRequest`]. A manifest without messages gives its tiers'
/// blocks as the `system` array ([`anthropic_system`]) and no message.
///
/// ```
/// # use doctrine_core as doctrine;
/// use doctrine::cache::anthropic_request;
/// # fn show<S: AsRef<[doctrine::introspect::Section]>>(prompt: &doctrine::Prompt<S>) {
/// let request = anthropic_request(prompt);
/// for m in request.context.iter().chain(&request.turn) {
///     println!("{}: {} blocks", m.role, m.content.len());
/// }
/// # }
/// ```
pub fn anthropic_request<S: AsRef<[Section]>>(prompt: &Prompt<S>) -> AnthropicRequest<'_> {
    let messages = prompt.messages();
    let declared = prompt.sections().iter().any(|s| s.info.message.is_some());
    if !declared {
        let system = anthropic_system(prompt);
        return AnthropicRequest {
            system,
            ..AnthropicRequest::default()
        };
    }
    let mark = |breakpoint: bool| breakpoint.then_some(CacheControl::Ephemeral);
    // The message's text as one block, or a block per part.
    let blocks = |m: &Message<'_>| -> Vec<SystemBlock<'_>> {
        if m.parts.is_empty() {
            let text = prompt_slice(prompt, m.range.clone());
            return vec![SystemBlock {
                text,
                cache_control: mark(m.breakpoint),
            }];
        }
        let part = |p: &MessagePart<'_>| SystemBlock {
            text: prompt_slice(prompt, p.range.clone()),
            cache_control: mark(p.breakpoint),
        };
        m.parts.iter().map(part).collect()
    };
    let mut request = AnthropicRequest::default();
    for m in &messages {
        let leading = request.context.is_empty() && request.turn.is_empty();
        if leading && m.role == "system" && !m.after_history {
            request.system.extend(blocks(m));
            continue;
        }
        let message = AnthropicMessage {
            role: m.role,
            content: blocks(m),
        };
        match m.after_history {
            true => request.turn.push(message),
            false => request.context.push(message),
        }
    }
    request
}

/// `range` of the prompt's text, with the prompt's lifetime.
fn prompt_slice<S: AsRef<[Section]>>(prompt: &Prompt<S>, range: std::ops::Range<usize>) -> &str {
    &prompt.as_str()[range]
}

/// One OpenAI-style input item: `{"role": ..., "content": ...}`, its content a string, or
/// a list of `input_text` parts for a message sent in parts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct OpenAiItem<'p> {
    pub role: &'static str,
    /// The message's text: `"content": "..."`.
    pub content: &'p str,
    /// Its parts' texts, when the manifest sends it in parts ([`Message::parts`]): each is
    /// `{"type": "input_text", "text": ...}` of a `content` list, sent instead of
    /// `content`. Empty for a message sent as one text.
    ///
    /// [`Message::parts`]: super::message::Message::parts
    pub parts: Vec<&'p str>,
}

/// A prompt's messages as an OpenAI-style (Responses API) request: the leading `system`
/// messages as `instructions` (one slice of the prompt, separators included), the other
/// messages as input items sent before the history (`context`) and after it (`turn`).
/// OpenAI caches the longest matching prefix on its own, so the order alone keeps the
/// prefix reusable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct OpenAiRequest<'p> {
    pub instructions: &'p str,
    pub context: Vec<OpenAiItem<'p>>,
    pub turn: Vec<OpenAiItem<'p>>,
}

/// The prompt as an [`OpenAiRequest`]. A manifest without messages gives its whole text as
/// `instructions` ([`openai_string`]). `instructions` is one string in the Responses API,
/// so leading `system` messages sent in parts are given there as the prompt's text holds
/// them; any other message in parts is an item with [`OpenAiItem::parts`].
pub fn openai_request<S: AsRef<[Section]>>(prompt: &Prompt<S>) -> OpenAiRequest<'_> {
    let mut request = OpenAiRequest::default();
    let mut system: Option<std::ops::Range<usize>> = None;
    for m in prompt.messages() {
        let leading = request.context.is_empty() && request.turn.is_empty();
        if leading && m.role == "system" && !m.after_history {
            let start = system.as_ref().map_or(m.range.start, |s| s.start);
            system = Some(start..m.range.end);
            continue;
        }
        let item = OpenAiItem {
            role: m.role,
            content: m.text,
            parts: m.parts.iter().map(|p| p.text).collect(),
        };
        match m.after_history {
            true => request.turn.push(item),
            false => request.context.push(item),
        }
    }
    request.instructions = system.map_or("", |r| prompt_slice(prompt, r));
    request
}
