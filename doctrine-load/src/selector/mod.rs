//! Selectors read: each selector's value (see `doctrine::input::Selector`), and for one set `on`
//! or to a path, the file it names, read by the overlay loader's rules. What they resolve
//! to is the runtime's `Resolution`.

mod path;
mod resolve;

pub use resolve::resolve_selectors;

use crate::overlay::OverlayFile;

/// What the generated `Selectors` tells the resolver about one selector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SelectorSpec {
    /// The selector's name in the manifest (a field of the generated `Selectors`).
    pub name: &'static str,
    /// The index of the selector this one follows when its own value is not given.
    pub follows: Option<usize>,
    /// The layer's file in the user's directory and its policy; `file.cap` also caps a
    /// file named by path.
    pub file: OverlayFile,
}
