//! What one layer's run-time text may not write, from its place in the request: the guard
//! protects what is locked where it can be reached. Outside a container, in a message that
//! holds a locked layer, every section boundary is escaped (a model reading that message
//! would take a forged `## Safety` or `<safety>` as the manifest's). Inside a container
//! (a tag pair or a code fence around the layer), or in a message that holds no locked
//! layer, the text is written as given but for what would close a container it sits in:
//! the model reads the rest as the container's content, or in a message of its own, where
//! nothing locked is.

use crate::runtime::container::Container;
use crate::runtime::formulation::Formulation;
use crate::runtime::layer::LayerInfo;

/// How one layer's run-time text is guarded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Scope {
    /// Every section boundary (the manifest's tags, headings at level 1 or 2).
    pub(crate) full: bool,
    /// The tag containers around the text, by folded name, sorted: their closing tags are
    /// escaped.
    closers: [&'static str; 3],
    n: usize,
    longest: usize,
    /// The code fence around the text: a line that would close it is escaped.
    pub(crate) fence: Option<(u8, u32)>,
    /// The mark of a code fence that follows the text (a header's, before its layer's
    /// fenced wrapper): a line that would open a fence of it, which the wrapper's own
    /// fence would then close, is escaped.
    pub(crate) opens: Option<u8>,
    /// What the text leaves open (a fence, a comment) is closed before the closing text
    /// of the tag container around it (a header's: at the header's end).
    pub(crate) tracks: bool,
}

impl Scope {
    /// Every boundary, as in a manifest's one message with a locked layer: what a part
    /// gets that no plan placed.
    pub(crate) const FULL: Scope = Scope {
        full: true,
        closers: ["", "", ""],
        n: 0,
        longest: 0,
        fence: None,
        opens: None,
        tracks: false,
    };

    /// The scope of the values in a header of a layer of `info`: before the layer's
    /// container, in every message, as a wrapper's text would be (every boundary, and a
    /// line that would open a fence of its fenced wrapper's mark); what they leave open is
    /// closed at the header's end, so that the wrapper opens where it stands.
    pub(crate) fn header(info: &LayerInfo) -> Scope {
        let opens = match info.wrap.map(|w| w.container) {
            Some(Container::Fence(mark, _)) => Some(mark),
            _ => None,
        };
        Scope {
            opens,
            tracks: true,
            ..Scope::FULL
        }
    }

    /// The scope of a layer of `info` in `formulation`, `strict` when its message holds a
    /// locked layer (or the manifest guards every message).
    pub(crate) fn of(info: &LayerInfo, formulation: Formulation, strict: bool) -> Scope {
        let title = info
            .title
            .filter(|t| formulation == Formulation::Tagged && !t.tag.is_empty())
            .map(|t| t.tag);
        let wrap = info.wrap.map_or(Container::None, |w| w.container);
        let message = info.message.map_or(Container::None, |m| m.container);
        let contained = title.is_some() || wrap.is_some();
        if strict && !contained {
            return Scope::FULL;
        }
        let mut scope = Scope {
            full: false,
            ..Scope::FULL
        };
        for name in [title, wrap.tag(), message.tag()].into_iter().flatten() {
            if !scope.closers[..scope.n].contains(&name) {
                scope.closers[scope.n] = name;
                scope.n += 1;
                scope.longest = scope.longest.max(name.len());
            }
        }
        scope.closers[..scope.n].sort_unstable();
        if let Container::Fence(mark, len) = wrap {
            scope.fence = Some((mark, len));
        }
        // Inside a fence nothing opens: its text is code.
        scope.tracks = scope.fence.is_none() && scope.n > 0;
        scope
    }

    /// The folded names of the containers whose closing tags are escaped.
    pub(crate) fn closers(&self) -> &[&'static str] {
        &self.closers[..self.n]
    }

    /// The longest of them, in bytes.
    pub(crate) fn longest(&self) -> usize {
        self.longest
    }
}
