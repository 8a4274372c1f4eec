//! Cleaning a value from outside as a manifest's `sanitize` says: Unicode tag characters,
//! bidi controls and other invisible characters removed, then NFC. One pass over the
//! value's characters, and no allocation when there is nothing to clean (ASCII text never
//! has, and is NFC already).
//!
//! What each class removes, precisely:
//! - `tags`: U+E0000–U+E007F, except in the three subdivision flags Unicode recommends for
//!   emoji (England, Scotland, Wales: U+1F3F4, the tag letters `gbeng`, `gbsct` or
//!   `gbwls`, U+E007F), kept whole so those flags still show.
//! - `bidi`: the bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069)
//!   and the default-ignorable characters that render as nothing and carry no meaning in
//!   text: U+00AD, U+115F, U+17B4, U+17B5, U+180E, U+200B, U+2060–U+2065, U+206A–U+206F,
//!   U+3164, U+FEFF, U+FFA0, U+FFF0–U+FFF8, U+1BCA0–U+1BCA3, U+1D173–U+1D17A; the
//!   interlinear annotation characters U+FFF9–U+FFFB (format controls, not default-ignorable,
//!   which a viewer may use to hide the annotation's text from the reader, not from a model);
//!   and U+070F (the Syriac abbreviation mark) unless a Syriac letter follows it. A zero-width
//!   joiner or non-joiner (U+200D, U+200C) is removed unless it stands between two
//!   non-ASCII characters that stay: there it joins an emoji sequence (👩‍💻) or shapes
//!   Persian, Arabic or Indic letters, and removing it would change what is read; between
//!   Latin letters (`ig\u{200D}nore`) it only hides a word from a filter. Kept, though
//!   default-ignorable: variation selectors (emoji and CJK presentation), U+034F (the
//!   combining grapheme joiner, which orders marks), Mongolian free variation selectors
//!   and U+1160 (Hangul syllable composition).
//! - `variation`: the variation selectors that select nothing a reader sees, which can carry
//!   hidden bytes as tag characters do (one selector a byte, all after one letter): a
//!   selector after another (a run), one at the start, and a supplementary one
//!   (U+E0100–U+E01EF) after an ASCII character. The first selector after a character is
//!   kept (an emoji's presentation, `❤️`, a keycap `1️⃣`, an ideographic variant), so one
//!   selector per character, up to four bits, still passes.
//! - `nfc`: the value (after the removals) normalised to NFC when it is not already.

use std::borrow::Cow;

use doctrine_core::__private::{Clean, Removed, Row};
use doctrine_core::instructions::Instruction;
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// The black flag that starts a subdivision flag's tag sequence.
const BLACK_FLAG: char = '\u{1F3F4}';
/// The tag that ends one.
const CANCEL_TAG: char = '\u{E007F}';
/// The subdivision flags Unicode recommends for emoji, as their tag letters.
const FLAGS: [&str; 3] = ["gbeng", "gbsct", "gbwls"];

/// Whether `c` is a tag character.
pub fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// Whether `c` is a bidi control.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is a zero-width joiner or non-joiner (removed unless it joins non-ASCII
/// characters).
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// Whether `c` is a variation selector: U+FE00–U+FE0F, U+E0100–U+E01EF, or one of
/// Mongolian's free variation selectors.
pub fn is_variation_selector(c: char) -> bool {
    matches!(c as u32, 0xFE00..=0xFE0F | 0xE0100..=0xE01EF | 0x180B..=0x180D | 0x180F)
}

/// Whether variation selector `c` after `before` (the last character kept) selects
/// something: it follows a character that is no selector itself, and a supplementary one
/// (U+E0100–U+E01EF, ideographic variants) follows a character that is not ASCII. A run
/// of selectors, one at the start, or a supplementary one after ASCII selects nothing and
/// can carry a byte each.
fn selects(before: Option<char>, c: char) -> bool {
    let Some(b) = before.filter(|&b| !is_variation_selector(b)) else {
        return false;
    };
    (c as u32) < 0xE0100 || !b.is_ascii()
}

/// The Syriac abbreviation mark: a line over the Syriac letters after it, and invisible
/// anywhere else.
const SYRIAC_ABBREVIATION: char = '\u{070F}';

/// Whether the text after a Syriac abbreviation mark starts with a Syriac letter, which
/// the mark draws over (elsewhere it shows nothing and is removed).
fn marks_syriac(rest: &str) -> bool {
    rest.chars()
        .next()
        .is_some_and(|c| ('\u{0710}'..='\u{074F}').contains(&c))
}

/// Whether `c` is removed by `bidi` wherever it stands.
pub fn is_invisible(c: char) -> bool {
    is_bidi_control(c)
        || matches!(
            c as u32,
            0x00AD
                | 0x115F
                | 0x17B4..=0x17B5
                | 0x180E
                | 0x200B
                | 0x2060..=0x2065
                | 0x206A..=0x206F
                | 0x3164
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFFB
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
        )
}

/// `value` cleaned as `clean` says, and what went: borrowed when nothing did.
pub fn sanitize(value: &str, clean: Clean) -> (Cow<'_, str>, Removed) {
    if clean.is_none() || value.is_ascii() {
        return (Cow::Borrowed(value), Removed::default());
    }
    let (stripped, went) = strip(value, clean);
    if !clean.nfc || is_nfc_quick(stripped.chars()) == IsNormalized::Yes {
        return (stripped, went);
    }
    let normalised: String = stripped.nfc().collect();
    let changed = normalised != *stripped;
    let out = match changed {
        true => Cow::Owned(normalised),
        false => stripped,
    };
    (out, went.and(Removed::new(0, 0, changed)))
}

/// An optional value cleaned: `None` when it was not given, or nothing is left of it (a
/// value of invisible characters alone is not given).
pub fn sanitize_given(value: Option<&str>, clean: Clean) -> (Option<Cow<'_, str>>, Removed) {
    let Some(value) = value else {
        return (None, Removed::default());
    };
    let (out, removed) = sanitize(value, clean);
    ((!out.is_empty()).then_some(out), removed)
}

/// One item of a list fact, its fields cleaned. Used by generated code.
#[derive(Debug)]
pub struct CleanRow<'a>(Vec<Cow<'a, str>>);

impl Row for CleanRow<'_> {
    fn field(&self, i: usize) -> &str {
        self.0.get(i).map_or("", |f| f)
    }
}

/// A list's items with the `fields` fields their template reads cleaned, and what went
/// from all of them; `None` (nothing allocated) when nothing did.
pub fn sanitize_rows<'a, R: Row>(
    rows: &'a [R],
    fields: usize,
    clean: Clean,
) -> (Option<Vec<CleanRow<'a>>>, Removed) {
    let dirty = |row: &R| (0..fields).any(|f| !sanitize(row.field(f), clean).1.is_none());
    if clean.is_none() || !rows.iter().any(dirty) {
        return (None, Removed::default());
    }
    let mut removed = Removed::default();
    let rows = rows.iter().map(|row| {
        let fields = (0..fields).map(|f| {
            let (out, went) = sanitize(row.field(f), clean);
            removed = removed.and(went);
            out
        });
        CleanRow(fields.collect())
    });
    let rows = rows.collect();
    (Some(rows), removed)
}

/// An instructions layer's instructions, each one's scope and text cleaned. Used by
/// generated code.
#[derive(Debug)]
pub struct CleanInstructions<'a>(Vec<(Cow<'a, str>, Cow<'a, str>)>);

impl<'a> CleanInstructions<'a> {
    /// The instructions `given` with their cleaned scope and text, in order.
    pub fn instructions(&self, given: &[Instruction<'a>]) -> Vec<Instruction<'_>> {
        (given.iter().zip(&self.0))
            .map(|(i, (scope, text))| Instruction { scope, text, ..*i })
            .collect()
    }
}

/// An instructions layer's instructions with their scope and text cleaned, and what went
/// from all of them; `None` (nothing allocated) when nothing did.
pub fn sanitize_instructions<'a>(
    given: &'a [Instruction<'a>],
    clean: Clean,
) -> (Option<CleanInstructions<'a>>, Removed) {
    let dirty = |i: &Instruction<'_>| {
        [i.scope, i.text]
            .iter()
            .any(|t| !sanitize(t, clean).1.is_none())
    };
    if clean.is_none() || !given.iter().any(dirty) {
        return (None, Removed::default());
    }
    let mut removed = Removed::default();
    let mut one = |t: &'a str| {
        let (out, went) = sanitize(t, clean);
        removed = removed.and(went);
        out
    };
    let cleaned = given.iter().map(|i| (one(i.scope), one(i.text))).collect();
    (Some(CleanInstructions(cleaned)), removed)
}

/// `value` with the tag and invisible characters and the variation selectors `clean`
/// removes gone, and how many of each went; borrowed when none did.
fn strip(value: &str, clean: Clean) -> (Cow<'_, str>, Removed) {
    strip_each(value, clean, |_, _| {})
}

/// Where the first character `clean` would remove from `value` is (its byte offset), and
/// what went in all: for the compiler, which refuses such characters in shipped text.
pub fn first_removed(value: &str, clean: Clean) -> Option<(usize, char, Removed)> {
    if value.is_ascii() {
        return None;
    }
    let mut first = None;
    let (_, went) = strip_each(value, clean, |at, c| {
        first.get_or_insert((at, c));
    });
    first.map(|(at, c)| (at, c, went))
}

/// [`strip`], calling `removed(at, c)` for each character removed.
fn strip_each(
    value: &str,
    clean: Clean,
    mut removed_at: impl FnMut(usize, char),
) -> (Cow<'_, str>, Removed) {
    let (mut tags, mut bidi, mut variation) = (0, 0, 0);
    let mut out: Option<String> = None;
    // The last character kept, and where the copy stands in `value`.
    let (mut last, mut copied) = (None::<char>, 0);
    let mut chars = value.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c == BLACK_FLAG && clean.tags {
            if let Some(len) = flag_tags(&value[at + c.len_utf8()..]) {
                // The flag and its tags, kept whole.
                let end = at + c.len_utf8() + len;
                while chars.peek().is_some_and(|&(i, _)| i < end) {
                    chars.next();
                }
                last = Some(CANCEL_TAG);
                continue;
            }
        }
        let removed = if clean.tags && is_tag(c) {
            tags += 1;
            true
        } else if clean.bidi
            && (is_invisible(c)
                || is_joiner(c) && !joins(last, value, at + c.len_utf8(), clean)
                || c == SYRIAC_ABBREVIATION && !marks_syriac(&value[at + c.len_utf8()..]))
        {
            bidi += 1;
            true
        } else if clean.variation && is_variation_selector(c) && !selects(last, c) {
            variation += 1;
            true
        } else {
            false
        };
        if removed {
            removed_at(at, c);
            let out = out.get_or_insert_with(|| String::with_capacity(value.len()));
            out.push_str(&value[copied..at]);
            copied = at + c.len_utf8();
        } else {
            last = Some(c);
        }
    }
    let out = match out {
        None => Cow::Borrowed(value),
        Some(mut out) => {
            out.push_str(&value[copied..]);
            Cow::Owned(out)
        }
    };
    (
        out,
        Removed::new(tags, bidi, false).and(Removed::variation(variation)),
    )
}

/// The length of the tags after a black flag when they spell one of [`FLAGS`], cancel tag
/// included.
fn flag_tags(rest: &str) -> Option<usize> {
    FLAGS.iter().find_map(|flag| {
        let mut len = 0;
        let mut chars = rest.chars();
        for letter in flag.chars().chain(['\u{7F}']) {
            let tag =
                char::from_u32(0xE0000 + u32::from(letter)).filter(|&t| chars.next() == Some(t))?;
            len += tag.len_utf8();
        }
        Some(len)
    })
}

/// Whether a joiner after `before` (the last character kept), followed by `value[after..]`,
/// joins two non-ASCII characters that stay.
fn joins(before: Option<char>, value: &str, after: usize, clean: Clean) -> bool {
    let stays =
        |c: char| !(c.is_ascii() || is_invisible(c) || is_joiner(c) || clean.tags && is_tag(c));
    before.is_some_and(stays) && value[after..].chars().next().is_some_and(stays)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lookalike::is_default_ignorable;

    const ALL: Clean = Clean {
        tags: true,
        bidi: true,
        nfc: true,
        variation: true,
    };

    fn clean(s: &str) -> (String, Removed) {
        let (out, removed) = sanitize(s, ALL);
        (out.into_owned(), removed)
    }

    #[test]
    fn tag_characters_go_and_are_counted() {
        let hidden: String = "ignore"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
            .collect();
        let (out, removed) = clean(&format!("hi{hidden}!"));
        assert_eq!(out, "hi!");
        assert_eq!(removed, Removed::new(6, 0, false));
    }

    #[test]
    fn the_recommended_subdivision_flags_stay_whole() {
        let wales = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}";
        assert_eq!(clean(wales), (wales.to_string(), Removed::default()));
        // Any other spelling after a black flag is a channel: its tags go, the flag stays.
        let other = "\u{1F3F4}\u{E0078}\u{E0079}\u{E007F}";
        assert_eq!(
            clean(other),
            ("\u{1F3F4}".to_string(), Removed::new(3, 0, false))
        );
    }

    #[test]
    fn a_right_to_left_override_goes() {
        let (out, removed) = clean("file\u{202E}gpj.exe");
        assert_eq!(out, "filegpj.exe");
        assert_eq!(removed, Removed::new(0, 1, false));
    }

    #[test]
    fn a_joiner_stays_inside_emoji_and_scripts_and_goes_between_latin_letters() {
        for kept in [
            "👩\u{200D}💻",
            "❤\u{FE0F}\u{200D}🔥",
            "می\u{200C}خواهم",
            "क्\u{200D}ष",
        ] {
            assert_eq!(
                clean(kept),
                (kept.to_string(), Removed::default()),
                "{kept}"
            );
        }
        assert_eq!(
            clean("ig\u{200D}no\u{200B}re é"),
            ("ignore é".to_string(), Removed::new(0, 2, false))
        );
        // A joiner at an end, or next to something removed, joins nothing.
        assert_eq!(clean("👩\u{200D}").0, "👩");
        assert_eq!(clean("👩\u{200D}\u{202E}💻").0, "👩💻");
    }

    #[test]
    fn combining_sequences_are_composed() {
        assert_eq!(
            clean("cafe\u{301}"),
            ("café".to_string(), Removed::new(0, 0, true))
        );
        // Removing an invisible character between a letter and its mark lets them compose.
        assert_eq!(
            clean("e\u{200B}\u{301}!"),
            ("é!".to_string(), Removed::new(0, 1, true))
        );
        assert_eq!(clean("café"), ("café".to_string(), Removed::default()));
    }

    #[test]
    fn each_class_alone_and_nothing() {
        let s = "a\u{E0041}\u{202E}e\u{301}";
        let only = |tags, bidi, nfc| {
            let clean = Clean {
                tags,
                bidi,
                nfc,
                variation: false,
            };
            sanitize(s, clean).0.into_owned()
        };
        assert_eq!(only(true, false, false), "a\u{202E}e\u{301}");
        assert_eq!(only(false, true, false), "a\u{E0041}e\u{301}");
        assert_eq!(only(false, false, true), "a\u{E0041}\u{202E}é");
        assert!(matches!(sanitize(s, Clean::NONE).0, Cow::Borrowed(_)));
        assert!(matches!(sanitize("plain ascii", ALL).0, Cow::Borrowed(_)));
        assert!(matches!(sanitize("déjà vu", ALL).0, Cow::Borrowed(_)));
    }

    #[test]
    fn a_value_of_controls_alone_is_not_given() {
        let (out, removed) = sanitize_given(Some("\u{202E}\u{E0041}\u{200B}"), ALL);
        assert_eq!(out, None);
        assert_eq!(removed, Removed::new(1, 2, false));
        assert_eq!(sanitize_given(None, ALL), (None, Removed::default()));
    }

    #[test]
    fn a_megabyte_of_tags_is_removed_in_one_pass() {
        let tags = "\u{E0041}".repeat(1 << 18);
        assert_eq!(tags.len(), 1 << 20);
        let (out, removed) = clean(&format!("a{tags}b"));
        assert_eq!(out, "ab");
        assert_eq!(removed.tags, 1 << 18);
    }

    #[test]
    fn every_character_removed_is_default_ignorable() {
        // The loader's own list (`lookalike`) is Unicode's property: what `bidi` and
        // `tags` remove is a subset of it, never a visible character.
        // Beside it, the format controls that hide text: interlinear annotation.
        let hiding = |c: char| ('\u{FFF9}'..='\u{FFFB}').contains(&c);
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            if is_tag(c) || is_invisible(c) || is_joiner(c) {
                assert!(is_default_ignorable(c) || hiding(c), "{:04X}", c as u32);
            }
        }
    }

    #[test]
    fn a_run_of_variation_selectors_goes_and_the_first_after_a_character_stays() {
        // "hi" hidden as one supplementary selector per byte, all after one letter.
        let hidden: String = "hi"
            .bytes()
            .map(|b| char::from_u32(0xE0100 + u32::from(b) - 16).unwrap())
            .collect();
        let (out, removed) = clean(&format!("a{hidden}!"));
        assert_eq!((out.as_str(), removed.variation), ("a!", 2));
        // Presentation, keycaps, an ideographic variant: kept.
        for kept in [
            "\u{2764}\u{FE0F}",
            "1\u{FE0F}\u{20E3}",
            "\u{845B}\u{E0100}",
            "x\u{FE0E}",
        ] {
            assert_eq!(
                clean(kept),
                (kept.to_string(), Removed::default()),
                "{kept:?}"
            );
        }
        // A run keeps its first; one at the start goes; off, nothing goes.
        let run = "\u{2764}\u{FE0F}\u{FE0F}\u{FE01}";
        assert_eq!(clean(run).0, "\u{2764}\u{FE0F}");
        assert_eq!(clean("\u{FE0F}x").0, "x");
        let off = Clean {
            variation: false,
            ..ALL
        };
        assert_eq!(sanitize(run, off).0, run);
    }

    #[test]
    fn annotations_lose_their_anchors_and_a_syriac_mark_stays_over_syriac() {
        let annotated = "base\u{FFF9}shown\u{FFFA}hidden note\u{FFFB}!";
        assert_eq!(
            clean(annotated),
            ("baseshownhidden note!".into(), Removed::new(0, 3, false))
        );
        let syriac = "\u{070F}\u{0712}\u{0713}";
        assert_eq!(clean(syriac), (syriac.into(), Removed::default()));
        assert_eq!(
            clean("ab\u{070F}c\u{070F}"),
            ("abc".into(), Removed::new(0, 2, false))
        );
    }

    #[test]
    fn list_rows_are_cleaned_only_when_one_needs_it() {
        let clean_rows = ["a", "é"];
        assert!(sanitize_rows(&clean_rows, 1, ALL).0.is_none());
        let rows = ["a\u{202E}", "b", "c\u{E0041}\u{E0042}"];
        let (cleaned, removed) = sanitize_rows(&rows, 1, ALL);
        let fields: Vec<&str> = cleaned.iter().flatten().map(|r| r.field(0)).collect();
        assert_eq!(fields, ["a", "b", "c"]);
        assert_eq!(removed, Removed::new(2, 1, false));
    }

    proptest::proptest! {
        // Cleaning is a fixed point, and leaves nothing it removes.
        #[test]
        fn cleaning_twice_is_cleaning_once(s in "(\\PC|[\u{E0000}-\u{E007F}\u{200B}-\u{200F}\u{202A}-\u{202E}\u{2066}-\u{2069}\u{301}])*") {
            let (once, _) = clean(&s);
            let (twice, removed) = clean(&once);
            proptest::prop_assert_eq!(&once, &twice);
            proptest::prop_assert!(removed.is_none());
            proptest::prop_assert!(!once.chars().any(|c| is_tag(c) || is_bidi_control(c)));
        }
    }
}
