//! Names as a person reads them, without Unicode's decomposition tables: what a section
//! guard folds with when it is given no other fold. The loader's accent-dropping `fold`
//! (generated code passes it) builds on these.

pub use super::lookalike::latin;

/// The loader's `fold` without decomposition: lowercase, default-ignorable code points
/// dropped, look-alikes read as Latin letters; an accent stays. What a section guard folds
/// with when it is given no other fold.
pub(crate) fn fold_plain(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().filter(|&c| !is_default_ignorable(c)) {
        match latin(c) {
            Some(latin) => out.push(latin),
            None => out.extend(c.to_lowercase().map(|l| latin(l).unwrap_or(l))),
        }
    }
    out
}

/// Unicode's `Default_Ignorable_Code_Point` property (DerivedCoreProperties.txt, 16.0).
pub fn is_default_ignorable(c: char) -> bool {
    matches!(
        c as u32,
        0x00AD
            | 0x034F
            | 0x061C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}
