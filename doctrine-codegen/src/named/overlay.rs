//! A user's overlay directory, read with the runtime's own loader and the manifest's spec,
//! exactly as generated `Overlay::load` reads it: a locked layer has no field, so no file
//! reaches it, and what a file gave is user content in the composed prompt.

use std::path::Path;

use crate::model::Doctrine;
use crate::plan::overlay_spec;
use doctrine_core::introspect::Notice;
use doctrine_load::__internals::overlay::load_overlay;

/// An overlay as a composition is given it: each field's text (`""` when its file is
/// absent) and each `empty = "off"` field's flag, by the plan's indices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct GivenOverlay {
    pub(super) fields: Vec<String>,
    pub(super) off: Vec<bool>,
}

/// The overlay in `dir` for manifest `d`, and the loader's notices (every file ignored,
/// cut or refused, a locked layer's file among them). A missing directory is an empty
/// overlay and no notice, as for a user's program.
pub(super) fn load(d: &Doctrine, dir: &Path) -> (GivenOverlay, Vec<Notice>) {
    let (texts, notices) = load_overlay(dir, overlay_spec(d), usize::MAX);
    let fields = d
        .layers
        .iter()
        .filter(|l| l.selector.is_none())
        .filter_map(|l| l.overlay.as_ref());
    let mut overlay = GivenOverlay::default();
    // The loader's texts are in the spec's order: the fields' files first.
    for (o, text) in fields.zip(texts) {
        if o.empty_off {
            overlay.off.push(text.as_deref() == Some(""));
        }
        overlay.fields.push(text.unwrap_or_default());
    }
    (overlay, notices)
}
