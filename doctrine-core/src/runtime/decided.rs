//! The sections' conditions ([`Seg::When`](super::seg::Seg::When)) a prompt's measuring
//! walk decided, kept for the walk that writes it: deciding one (its tests, a list searched
//! for an item, texts compared) costs more than the rest of the walk over it, and the
//! writing walk meets the same conditions in the same order, so it reads them instead.

/// The conditions decided so far, in the order the measuring walk met them: the first
/// [`Decided::KEPT`] kept, the rest only counted (the writer decides those again).
#[derive(Clone, Copy, Default)]
pub(super) struct Decided {
    bits: u64,
    len: usize,
}

impl Decided {
    /// How many decisions are kept: a bit each, in a word (a `u128`'s shifts cost more,
    /// and a prompt with more conditions than this is rare).
    const KEPT: usize = u64::BITS as usize;

    /// Where the next decision goes: what a layer's walk reads from ([`Self::from`]).
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Keeps `holds`, the next condition's verdict, and gives it back.
    #[inline(always)]
    pub(super) fn record(&mut self, holds: bool) -> bool {
        if self.len < Self::KEPT {
            self.bits |= u64::from(holds) << self.len;
        }
        self.len += 1;
        holds
    }

    /// The decisions from the `at`-th on, for a layer whose walk recorded them from there.
    #[inline(always)]
    pub(super) fn from(self, at: usize) -> Reading {
        Reading {
            bits: self.bits,
            at,
        }
    }
}

/// Decisions read back in the order they were recorded.
#[derive(Clone, Copy)]
pub(super) struct Reading {
    bits: u64,
    at: usize,
}

impl Reading {
    /// Nothing recorded: every condition is decided as it is met (a layer's header, a
    /// trimmed template, a stable or volatile half joined on its own).
    pub(super) const NONE: Reading = Reading {
        bits: 0,
        at: Decided::KEPT,
    };

    /// The next condition's verdict, when it was kept.
    #[inline(always)]
    pub(super) fn next(&mut self) -> Option<bool> {
        if self.at >= Decided::KEPT {
            return None;
        }
        let holds = (self.bits >> self.at) & 1 == 1;
        self.at += 1;
        Some(holds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_read_back_in_order_and_past_the_kept_ones_not_at_all() {
        let mut d = Decided::default();
        let verdicts: Vec<bool> = (0..Decided::KEPT + 3).map(|i| i % 3 == 0).collect();
        for &v in &verdicts {
            assert_eq!(d.record(v), v);
        }
        assert_eq!(d.len(), Decided::KEPT + 3);
        let mut r = d.from(5);
        for &v in &verdicts[5..Decided::KEPT] {
            assert_eq!(r.next(), Some(v));
        }
        assert_eq!(r.next(), None);
        assert_eq!(d.from(Decided::KEPT + 1).next(), None);
        let mut none = Reading::NONE;
        assert_eq!(none.next(), None);
    }
}
