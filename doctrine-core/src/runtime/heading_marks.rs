//! A fast test of whether text may hold a heading's mark, read by the guard's writer and
//! by a list measuring its fields: a pure byte test, below both.

/// Whether `s` holds a character a heading's mark is made of (`#`, `=`, `-`): without one,
/// no heading's mark can lie in it, and a manifest without section tags has nothing else
/// to look for (most run-time text is checked with this one pass).
// Eight bytes at a time, without branching per word (a byte-by-byte loop took a seventh
// of a list fact's cost).
pub(crate) fn may_mark_a_heading(s: &[u8]) -> bool {
    let Some(last) = s.len().checked_sub(8) else {
        return s.iter().any(|b| matches!(b, b'#' | b'=' | b'-'));
    };
    // A plain loop: the chained iterator cost about a third more for a short field.
    let (mut found, mut at) = (marks(word(&s[last..])), 0);
    while at < last {
        found |= marks(word(&s[at..at + 8]));
        at += 8;
    }
    found != 0
}

/// Eight bytes as a word.
#[inline(always)]
fn word(c: &[u8]) -> u64 {
    u64::from_le_bytes(c.try_into().unwrap_or_default())
}

/// Non-zero when a byte of `w` is `#`, `=` or `-`.
#[inline(always)]
fn marks(w: u64) -> u64 {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    // A byte of `w ^ mark` is zero where `w` holds the mark, and `(x - ONES) & !x` sets
    // the high bit of a zero byte of `x` (of the first exactly, which is all we ask).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x;
    let at = |mark: u8| zero(w ^ (ONES * u64::from(mark)));
    (at(b'#') | at(b'=') | at(b'-')) & HIGH
}
