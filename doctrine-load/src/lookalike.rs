//! Letters of other scripts that read as Latin ones, and the code points nobody sees: what
//! name folding (`text::fold`) maps and drops, so that `ѕafety` (Cyrillic `ѕ`) and `safety` compare equal. A hand table rather than
//! Unicode's full confusables data (UTS #39, the `unicode-security` crate): that would add
//! four crates and about 450 KB to every agent binary, since overlay file names are folded
//! by the loader that every binary links (doctrine/docs/reminders.md, "Names that read alike"). The table covers what
//! is typed to fool a reader of a name: Cyrillic and Greek capitals and small letters with
//! a Latin twin, some Armenian and Cherokee ones, dotless and small-capital Latin letters,
//! fullwidth forms, the mathematical alphanumerics and segmented digits. ASCII letters and digits are never mapped to one another
//! (`l` and `1` stay distinct), so two plain ASCII names never fold alike unless they
//! differ only in case.

/// The lowercase ASCII letter or digit `c` reads as, if it is a look-alike of one.
pub(crate) fn latin(c: char) -> Option<char> {
    let u = c as u32;
    if u < 0x80 {
        return None;
    }
    // Fullwidth ASCII, `！`..`～`: the same characters, wider.
    if (0xFF01..=0xFF5E).contains(&u) {
        let ascii = char::from_u32(u - 0xFEE0)?;
        return ascii
            .is_ascii_alphanumeric()
            .then(|| ascii.to_ascii_lowercase());
    }
    // Mathematical bold, italic, script, fraktur, double-struck, sans-serif and monospace
    // letters: thirteen runs of A–Z then a–z (the gaps in them are unassigned).
    if (0x1D400..=0x1D6A3).contains(&u) {
        let i = ((u - 0x1D400) % 52) as u8;
        return Some(char::from(b'a' + i % 26));
    }
    // Mathematical digits, five runs of 0–9, and segmented digits.
    if (0x1D7CE..=0x1D7FF).contains(&u) {
        return Some(char::from(b'0' + ((u - 0x1D7CE) % 10) as u8));
    }
    if (0x1FBF0..=0x1FBF9).contains(&u) {
        return Some(char::from(b'0' + (u - 0x1FBF0) as u8));
    }
    TABLE
        .binary_search_by_key(&c, |&(from, _)| from)
        .ok()
        .map(|i| TABLE[i].1)
}

/// `(look-alike, Latin letter)`, sorted by the look-alike. Each capital is listed beside
/// its small letter when both read as Latin; a capital whose small letter does not (Greek
/// `Η` reads as `H`, its `η` not quite as `n`) maps on its own, since folding maps before
/// it lowercases. Every entry agrees, up to case, with UTS #39's skeleton (checked against
/// `unicode-security` 0.1.3, which maps some of these further, e.g. `m` to `rn`).
const TABLE: &[(char, char)] = &[
    ('\u{0131}', 'i'), // ı dotless i
    ('\u{0237}', 'j'), // ȷ dotless j
    ('\u{0251}', 'a'), // ɑ alpha
    ('\u{0261}', 'g'), // ɡ script g
    ('\u{0269}', 'i'), // ɩ iota
    ('\u{026A}', 'i'), // ɪ small capital I
    ('\u{028F}', 'y'), // ʏ small capital Y
    ('\u{037F}', 'j'), // Ϳ
    ('\u{0391}', 'a'), // Α Greek
    ('\u{0392}', 'b'), // Β
    ('\u{0395}', 'e'), // Ε
    ('\u{0396}', 'z'), // Ζ
    ('\u{0397}', 'h'), // Η
    ('\u{0399}', 'i'), // Ι
    ('\u{039A}', 'k'), // Κ
    ('\u{039C}', 'm'), // Μ
    ('\u{039D}', 'n'), // Ν
    ('\u{039F}', 'o'), // Ο
    ('\u{03A1}', 'p'), // Ρ
    ('\u{03A4}', 't'), // Τ
    ('\u{03A5}', 'y'), // Υ
    ('\u{03A7}', 'x'), // Χ
    ('\u{03B1}', 'a'), // α
    ('\u{03B9}', 'i'), // ι
    ('\u{03BD}', 'v'), // ν
    ('\u{03BF}', 'o'), // ο
    ('\u{03C1}', 'p'), // ρ
    ('\u{03C5}', 'u'), // υ
    ('\u{03F2}', 'c'), // ϲ lunate sigma
    ('\u{03F3}', 'j'), // ϳ yot
    ('\u{03F9}', 'c'), // Ϲ
    ('\u{0405}', 's'), // Ѕ Cyrillic
    ('\u{0406}', 'i'), // І
    ('\u{0408}', 'j'), // Ј
    ('\u{0410}', 'a'), // А
    ('\u{0412}', 'b'), // В
    ('\u{0415}', 'e'), // Е
    ('\u{041A}', 'k'), // К
    ('\u{041C}', 'm'), // М
    ('\u{041D}', 'h'), // Н
    ('\u{041E}', 'o'), // О
    ('\u{0420}', 'p'), // Р
    ('\u{0421}', 'c'), // С
    ('\u{0422}', 't'), // Т
    ('\u{0423}', 'y'), // У
    ('\u{0425}', 'x'), // Х
    ('\u{0430}', 'a'), // а
    ('\u{0435}', 'e'), // е
    ('\u{043E}', 'o'), // о
    ('\u{0440}', 'p'), // р
    ('\u{0441}', 'c'), // с
    ('\u{0443}', 'y'), // у
    ('\u{0445}', 'x'), // х
    ('\u{0455}', 's'), // ѕ
    ('\u{0456}', 'i'), // і
    ('\u{0458}', 'j'), // ј
    ('\u{04AE}', 'y'), // Ү
    ('\u{04AF}', 'y'), // ү
    ('\u{04BA}', 'h'), // Һ
    ('\u{04BB}', 'h'), // һ
    ('\u{04C0}', 'l'), // Ӏ palochka
    ('\u{04CF}', 'l'), // ӏ
    ('\u{0501}', 'd'), // ԁ
    ('\u{051A}', 'q'), // Ԛ
    ('\u{051B}', 'q'), // ԛ
    ('\u{051C}', 'w'), // Ԝ
    ('\u{051D}', 'w'), // ԝ
    ('\u{0561}', 'w'), // ա Armenian
    ('\u{0578}', 'n'), // ո
    ('\u{057D}', 'u'), // ս
    ('\u{0585}', 'o'), // օ
    ('\u{13A0}', 'd'), // Ꭰ Cherokee
    ('\u{13A1}', 'r'), // Ꭱ
    ('\u{13A2}', 't'), // Ꭲ
    ('\u{13A9}', 'y'), // Ꭹ
    ('\u{13AA}', 'a'), // Ꭺ
    ('\u{13AB}', 'j'), // Ꭻ
    ('\u{13AC}', 'e'), // Ꭼ
    ('\u{13B3}', 'w'), // Ꮃ
    ('\u{13B7}', 'm'), // Ꮇ
    ('\u{13BB}', 'h'), // Ꮋ
    ('\u{13BD}', 'y'), // Ꮍ
    ('\u{13C0}', 'g'), // Ꮐ
    ('\u{13C2}', 'h'), // Ꮒ
    ('\u{13C3}', 'z'), // Ꮓ
    ('\u{13CF}', 'b'), // Ꮟ
    ('\u{13D2}', 'r'), // Ꮢ
    ('\u{13DA}', 's'), // Ꮪ
    ('\u{13DE}', 'l'), // Ꮮ
    ('\u{13DF}', 'c'), // Ꮯ
    ('\u{13E2}', 'p'), // Ꮲ
    ('\u{13E6}', 'k'), // Ꮶ
    ('\u{13F4}', 'b'), // Ᏼ
    ('\u{1D04}', 'c'), // ᴄ
    ('\u{1D0F}', 'o'), // ᴏ
    ('\u{1D1C}', 'u'), // ᴜ
    ('\u{1D20}', 'v'), // ᴠ
    ('\u{1D21}', 'w'), // ᴡ
    ('\u{1D22}', 'z'), // ᴢ
    ('\u{210A}', 'g'), // ℊ script small g
    ('\u{210E}', 'h'), // ℎ Planck constant
    ('\u{2113}', 'l'), // ℓ script small l
    ('\u{212F}', 'e'), // ℯ script small e
    ('\u{2134}', 'o'), // ℴ script small o
    ('\u{2170}', 'i'), // ⅰ small Roman numeral one
    ('\u{2174}', 'v'), // ⅴ
    ('\u{2179}', 'x'), // ⅹ
    ('\u{217C}', 'l'), // ⅼ
    ('\u{217D}', 'c'), // ⅽ
    ('\u{217E}', 'd'), // ⅾ
    ('\u{217F}', 'm'), // ⅿ
    ('\u{A731}', 's'), // ꜱ small capital S
];

/// Unicode's `Default_Ignorable_Code_Point` property (DerivedCoreProperties.txt, 16.0).
pub(crate) fn is_default_ignorable(c: char) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_maps_to_lowercase_ascii() {
        assert!(TABLE.windows(2).all(|w| w[0].0 < w[1].0), "not sorted");
        for &(from, to) in TABLE {
            assert!(!from.is_ascii(), "{from:?}");
            assert!(to.is_ascii_lowercase(), "{from:?} → {to:?}");
        }
    }

    #[test]
    fn cyrillic_greek_fullwidth_and_mathematical_letters_read_as_latin() {
        let read = |s: &str| -> String { s.chars().map(|c| latin(c).unwrap_or(c)).collect() };
        assert_eq!(read("ѕаfеtу"), "safety");
        assert_eq!(read("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ"), "abezhikmnoptyx");
        assert_eq!(read("ｓａｆｅｔｙ１"), "safety1");
        assert_eq!(read("𝐬𝐚𝐟𝐞𝐭𝐲𝟏"), "safety1");
        assert_eq!(read("𝚂𝚊𝚏𝚎𝚝𝚢"), "safety", "monospace");
        assert_eq!(latin('l'), None, "ASCII is never mapped");
        assert_eq!(latin('é'), None);
        assert_eq!(latin('！'), None, "fullwidth punctuation is no letter");
    }
}
