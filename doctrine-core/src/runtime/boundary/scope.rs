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

/// How one layer's run-time text is guarded: the layer, and what its composition says of
/// it. Two words, and every answer read from the layer's static description when asked
/// (most run-time text asks nothing, having nothing a boundary is made of).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scope {
    /// `None`: every boundary, as a part no plan placed is guarded.
    info: Option<&'static LayerInfo>,
    /// The tagged formulation: a title's tags are a container.
    tagged: bool,
    /// Its message holds a locked layer (or the manifest guards every message).
    strict: bool,
    /// The values of the layer's header: before its container, guarded as a wrapper's
    /// text is, in every message.
    header: bool,
}

impl Scope {
    /// Every boundary, as in a manifest's one message with a locked layer.
    pub(crate) const FULL: Scope = Scope {
        info: None,
        tagged: false,
        strict: true,
        header: false,
    };

    /// The scope of the values in a header of a layer of `info`: before the layer's
    /// container, in every message, as a wrapper's text would be (every boundary, and a
    /// line that would open a fence of its fenced wrapper's mark); what they leave open is
    /// closed at the header's end, so that the wrapper opens where it stands.
    #[inline(always)]
    pub(crate) fn header(info: &'static LayerInfo) -> Scope {
        Scope {
            info: Some(info),
            header: true,
            ..Scope::FULL
        }
    }

    /// The scope of a layer of `info` in `formulation`, `strict` when its message holds a
    /// locked layer (or the manifest guards every message).
    #[inline(always)]
    pub(crate) fn of(info: &'static LayerInfo, formulation: Formulation, strict: bool) -> Scope {
        Scope {
            info: Some(info),
            tagged: formulation == Formulation::Tagged,
            strict,
            header: false,
        }
    }

    /// The title's tag, when the title's tags are a container.
    #[inline(always)]
    fn title(&self) -> Option<&'static str> {
        let title = self.info?.title.filter(|_| self.tagged)?;
        (!title.tag.is_empty()).then_some(title.tag)
    }

    /// What the layer's own wrapper encloses.
    #[inline(always)]
    fn wrap(&self) -> Container {
        self.info
            .and_then(|i| i.wrap)
            .map_or(Container::None, |w| w.container)
    }

    /// What its message's wrapper encloses.
    #[inline(always)]
    fn message(&self) -> Container {
        self.info
            .and_then(|i| i.message)
            .map_or(Container::None, |m| m.container)
    }

    /// Every section boundary is escaped: uncontained, in a message with a locked layer.
    #[inline(always)]
    pub(crate) fn full(&self) -> bool {
        self.header || (self.strict && self.title().is_none() && !self.wrap().is_some())
    }

    /// Whether a container's closing tag is looked for (when not [`Self::full`]).
    #[inline(always)]
    pub(crate) fn has_closers(&self) -> bool {
        self.title().is_some() || self.wrap().tag().is_some() || self.message().tag().is_some()
    }

    /// The tag containers around the text, by folded name, sorted (what the tag scanner
    /// narrows by), and how many there are.
    pub(crate) fn closers(&self) -> ([&'static str; 3], usize) {
        let mut out = [""; 3];
        let mut n = 0;
        for name in [self.title(), self.wrap().tag(), self.message().tag()]
            .into_iter()
            .flatten()
        {
            if !out[..n].contains(&name) {
                out[n] = name;
                n += 1;
            }
        }
        out[..n].sort_unstable();
        (out, n)
    }

    /// The code fence around the text: a line that would close it is escaped.
    #[inline(always)]
    pub(crate) fn fence(&self) -> Option<(u8, u32)> {
        match self.wrap() {
            Container::Fence(mark, len) if !self.header => Some((mark, len)),
            _ => None,
        }
    }

    /// The mark of a code fence that follows the text (a header's, before its layer's
    /// fenced wrapper): a line that would open a fence of it, which the wrapper's own fence
    /// would then close, is escaped.
    #[inline(always)]
    pub(crate) fn opens(&self) -> Option<u8> {
        match self.wrap() {
            Container::Fence(mark, _) if self.header => Some(mark),
            _ => None,
        }
    }

    /// What the text leaves open (a fence, a comment) is closed before the closing text
    /// of the tag container around it (inside a fence nothing opens: its text is code), a
    /// header's at the header's end, and an uncontained layer's at its end, where a
    /// markdown reader would otherwise read the layers after it, locked ones included, as
    /// code or a comment.
    #[inline(always)]
    pub(crate) fn tracks(&self) -> bool {
        self.full() || (self.fence().is_none() && self.has_closers())
    }
}
