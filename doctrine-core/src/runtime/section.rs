//! What one layer contributed to a composed prompt ([`Section`]), and where each
//! instruction's provenance line sits ([`Mark`]): the records `Prompt::sections` and
//! `Prompt::explain` read.

use super::layer::{LayerInfo, Origin, Skip};

/// Where one instruction's provenance line sits in the text, and in which section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Mark {
    /// The index of the section (the layer, in manifest order).
    pub section: usize,
    /// The line's first byte in the whole prompt.
    pub start: usize,
    /// The byte after its last.
    pub end: usize,
}

/// What one layer contributed to a composed prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Section {
    /// What the manifest says about the layer.
    pub info: &'static LayerInfo,
    /// Where its text came from.
    pub origin: Origin,
    /// Its span in the prompt, or why it was left out.
    pub state: SectionState,
    /// Where its header was written, from the start of its span (the header is the
    /// layer's: it moves with the span); `(0, 0)` for none. Two `u32`s, not an
    /// `Option<(usize, usize)>`: every prompt carries a section per layer and moves them
    /// whole, and a header a layer's first 4 GiB do not hold is recorded as none.
    pub(crate) header: (u32, u32),
}

impl Section {
    /// A placeholder that `compose` overwrites before anyone sees it.
    pub(crate) const UNSET: Section = Section {
        info: &UNSET_INFO,
        origin: Origin::Unresolved,
        state: SectionState::Skipped(Skip::Empty),
        header: (0, 0),
    };

    /// Where the layer's `header` stands in the prompt ([`LayerInfo::header`], its values
    /// and any escape in them included), when the layer printed and has one.
    pub fn header(&self) -> Option<std::ops::Range<usize>> {
        let start = self.state.range()?.start;
        let (from, to) = (self.header.0 as usize, self.header.1 as usize);
        (to > from).then(|| start + from..start + to)
    }

    /// A header written from `from` to `to` of the span (`None`: none), as recorded.
    #[inline(always)]
    pub(crate) fn record_header(&mut self, at: Option<(usize, usize)>) {
        let fits = |x: usize| u32::try_from(x).ok();
        self.header = match at {
            Some((from, to)) => fits(from).zip(fits(to)).unwrap_or((0, 0)),
            None => (0, 0),
        };
    }
}

static UNSET_INFO: LayerInfo = LayerInfo::named("");

/// A layer's text span in the whole prompt, or why it was left out. Two states today
/// (the reasons for leaving a layer out grow in [`Skip`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SectionState {
    /// The layer's text is `start..end` of the whole prompt (its title's delimiters
    /// included).
    Included {
        /// Its first byte.
        start: usize,
        /// The byte after its last.
        end: usize,
    },
    /// The layer contributed nothing, for this reason.
    Skipped(Skip),
}

impl SectionState {
    /// The layer's text span, when it is included.
    pub fn range(self) -> Option<std::ops::Range<usize>> {
        match self {
            SectionState::Included { start, end } => Some(start..end),
            SectionState::Skipped(_) => None,
        }
    }

    /// Why the layer was left out, when it was.
    pub fn skip(self) -> Option<Skip> {
        match self {
            SectionState::Skipped(skip) => Some(skip),
            SectionState::Included { .. } => None,
        }
    }
}
