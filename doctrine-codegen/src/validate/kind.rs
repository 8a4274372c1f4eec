//! Which content key a layer gives: one of seven, as an enum, so each check matches on the
//! kind rather than on a key's name.

use std::collections::BTreeMap;

use toml::Spanned;

use crate::raw::{self, Name};

type Map = Spanned<BTreeMap<Name, Spanned<String>>>;

/// A layer's content key, borrowing its value from the raw layer.
#[derive(Clone, Copy)]
pub(super) enum Kind<'r> {
    File(&'r Spanned<String>),
    Files(&'r Map),
    Text(&'r Spanned<String>),
    Texts(&'r Spanned<raw::RoleTexts>),
    Dir(&'r Spanned<String>),
    Slot { required: bool },
    Instructions,
}

impl<'r> Kind<'r> {
    /// Every content key the layer gives, in the order the reference lists them.
    pub(super) fn given(raw: &'r raw::Layer) -> Vec<Kind<'r>> {
        [
            raw.file.as_ref().map(Kind::File),
            raw.files.as_ref().map(Kind::Files),
            raw.text.as_ref().map(Kind::Text),
            raw.texts.as_ref().map(Kind::Texts),
            raw.dir.as_ref().map(Kind::Dir),
            raw.slot.as_ref().map(|s| Kind::Slot {
                required: *s.get_ref() == raw::Slot::Required,
            }),
            raw.instructions
                .as_ref()
                .filter(|i| *i.get_ref())
                .map(|_| Kind::Instructions),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// The manifest key, for messages.
    pub(super) fn key(self) -> &'static str {
        match self {
            Kind::File(_) => "file",
            Kind::Files(_) => "files",
            Kind::Text(_) => "text",
            Kind::Texts(_) => "texts",
            Kind::Dir(_) => "dir",
            Kind::Slot { .. } => "slot",
            Kind::Instructions => "instructions",
        }
    }

    /// Filled by the caller at run time: a builder method, no shipped text.
    pub(super) fn is_runtime(self) -> bool {
        matches!(self, Kind::Slot { .. } | Kind::Instructions)
    }

    /// Shipped text from a file or the manifest (not a choice, not runtime).
    pub(super) fn is_text(self) -> bool {
        matches!(
            self,
            Kind::File(_) | Kind::Files(_) | Kind::Text(_) | Kind::Texts(_)
        )
    }
}
