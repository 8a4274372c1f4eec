//! A layer's `header`: a template written before its text when the layer prints (after its
//! title's opening delimiter, before its wrapper's opening text), with the caller's values
//! in it. It is not the layer's content: a layer whose text is empty prints no header.

use super::emit::rebuilt;
use super::seg::Seg;

rebuilt! {
@new
/// A layer's `header`, as the manifest writes it and as composition renders it.
#[derive(Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Header {
    /// As written in the manifest, placeholders included
    /// (`# AGENTS.md instructions for {cwd}\n\n`).
    pub template: &'static str,
    /// Its literal pieces and the values it prints, in order (no sections).
    #[doc(hidden)]
    pub segs: &'static [Seg],
}
}
