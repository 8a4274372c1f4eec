//! What the manifest says about one `[[message]]` ([`MessageInfo`]): data the layers'
//! static descriptions point at, kept apart from how messages are composed (`message.rs`)
//! so that a layer's description needs nothing of the composer.

use super::emit::rebuilt;

rebuilt! {
@new
/// What the manifest says about one `[[message]]`: its place, role and wrapper.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct MessageInfo {
    /// Its place among the manifest's messages, from 0.
    pub index: usize,
    /// `system`, `developer`, `user` or any name the manifest gave.
    pub role: &'static str,
    /// Written before its first layer with text (empty: no wrapper). Shipped text: the
    /// guard escapes its tags in run-time text, as it does a section's.
    pub open: &'static str,
    /// Written after its last layer with text.
    pub close: &'static str,
    /// The caller sends it after the conversation's history (the turn's own context),
    /// not before it: what keeps the history cached when its text changes every turn.
    pub after_history: bool,
    /// What its wrapper encloses: a tag pair whose closing tag run-time text in it may not
    /// write.
    pub container: super::container::Container,
    /// Each of its layers with text is a content part of its own (`parts = true`), which
    /// [`Message::parts`](super::message::Message::parts) lists and the request shapers send as separate content blocks.
    /// The prompt's text is the same bytes either way.
    pub parts: bool,
}
}
