//! What a generated `emit` reads besides flags and lists: how full the context is.

/// How full the context is, as announced to a model in a reminder: bands at 60, 80 and 92
/// percent of the window. A generated `SessionState` holds the band to announce this turn,
/// which [`ContextBand::crossed`] gives only on the turn a band is crossed upward.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ContextBand {
    /// Below 60%, or nothing to announce.
    #[default]
    None,
    /// At least 60%.
    Percent60,
    /// At least 80%.
    Percent80,
    /// At least 92%.
    Percent92,
}

impl ContextBand {
    /// The band `used` tokens of a `window`-token context fall in (integer arithmetic, so
    /// the same counts always give the same band; a zero window is [`ContextBand::None`]).
    pub fn of(used: u64, window: u64) -> ContextBand {
        let at = |percent: u64| u128::from(used) * 100 >= u128::from(window) * u128::from(percent);
        match window {
            0 => ContextBand::None,
            _ if at(92) => ContextBand::Percent92,
            _ if at(80) => ContextBand::Percent80,
            _ if at(60) => ContextBand::Percent60,
            _ => ContextBand::None,
        }
    }

    /// The band to announce: `now` when it is above `before`, else [`ContextBand::None`].
    /// Each band is announced once, on the way up; falling back (after a compaction) and
    /// rising again announces it again.
    pub fn crossed(before: ContextBand, now: ContextBand) -> ContextBand {
        if now > before {
            now
        } else {
            ContextBand::None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ContextBand::{self, *};

    #[test]
    fn bands_start_at_their_percent() {
        let band = |used| ContextBand::of(used, 1000);
        assert_eq!(
            [599, 600, 799, 800, 919, 920, 1000, 5000].map(band),
            [None, Percent60, Percent60, Percent80, Percent80, Percent92, Percent92, Percent92]
        );
        assert_eq!(ContextBand::of(u64::MAX, u64::MAX), Percent92);
        assert_eq!(ContextBand::of(10, 0), None);
    }

    #[test]
    fn a_band_is_announced_once_on_the_way_up() {
        let turns = [10, 65, 70, 85, 95, 96, 40, 61];
        let mut before = None;
        let announced: Vec<ContextBand> = turns
            .iter()
            .map(|&used| {
                let now = ContextBand::of(used, 100);
                let a = ContextBand::crossed(before, now);
                before = now;
                a
            })
            .collect();
        assert_eq!(
            announced,
            [None, Percent60, None, Percent80, Percent92, None, None, Percent60]
        );
    }
}
