//! Provider-shaped views of [`Prompt::blocks`], as plain data: no HTTP client and no
//! serialisation dependency, so a caller maps them onto whatever request type it sends.
//!
//! [`Prompt::blocks`]: crate::Prompt::blocks

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
