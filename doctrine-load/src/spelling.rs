//! How two names that read alike ([`crate::text::fold`]) are spelt otherwise, for the
//! messages that refuse one of them: `release` and `rеlease` print the same, so a message
//! that only shows both says nothing. It names each character that differs (its code
//! point and position, and the Latin letter it reads as) and shows the names escaped.

use crate::lookalike::is_default_ignorable;
use crate::text::{fold, is_mark};

/// The most differences a message lists; the rest are counted.
const MAX_LISTED: usize = 3;

/// `name` for a message about how it is spelt: its first 40 characters (then `…`), every
/// character but printable ASCII written as `\u{…}`, so `rеlease` with a Cyrillic `е`
/// shows as `r\u{435}lease` and differs on the page from `release`.
pub fn escaped(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, c) in name.chars().enumerate() {
        if i == 40 {
            out.push('…');
            break;
        }
        match c {
            ' '..='~' => out.push(c),
            _ => out.extend(c.escape_unicode()),
        }
    }
    out
}

/// Where `name` and `other` differ, given that they fold alike: "character 2 is `e` in
/// this name and U+0435 (Cyrillic, read as `e`) in that one", one clause per difference,
/// `; ` apart. Characters are counted from 1.
pub fn differences(name: &str, other: &str) -> String {
    let (this, that) = (Spelt::of(name), Spelt::of(other));
    let mut found: Vec<String> = Vec::new();
    // Letters in the other case, where both are plain ASCII: (position, clause).
    let mut case: Vec<(usize, String)> = Vec::new();
    // Invisible characters read as nothing: each one that the other name does not have at
    // the same place is a difference of its own.
    for (mine, theirs, whose) in [(&this, &that, "this"), (&that, &this, "that")] {
        for ch in mine.0.iter().filter(|c| c.read.is_empty()) {
            if theirs.0.get(ch.at - 1).is_none_or(|t| t.c != ch.c) {
                let lacks = if whose == "this" { "that" } else { "this" };
                found.push(format!(
                    "character {} of {whose} name is {}, which {lacks} one lacks",
                    ch.at,
                    describe(ch.c)
                ));
            }
        }
    }
    // The visible characters, matched by what they read as: a run on each side that
    // reads the same but is spelt otherwise is one difference.
    let (mut a, mut b) = (this.visible(), that.visible());
    while let (Some(first_a), Some(first_b)) = (a.next(), b.next()) {
        let (mut run_a, mut run_b) = (vec![first_a], vec![first_b]);
        let (mut read_a, mut read_b) = (first_a.read.clone(), first_b.read.clone());
        while read_a != read_b {
            let next = match read_a.len() < read_b.len() {
                true => a.next().map(|c| (&mut run_a, &mut read_a, c)),
                false => b.next().map(|c| (&mut run_b, &mut read_b, c)),
            };
            let Some((run, read, c)) = next else {
                break;
            };
            run.push(c);
            read.push_str(&c.read);
        }
        let spelt = |run: &[&Ch]| run.iter().map(|c| c.c).collect::<String>();
        match (run_a.as_slice(), run_b.as_slice()) {
            _ if spelt(&run_a) == spelt(&run_b) => {}
            // A plain letter in the other case says less than a look-alike: counted
            // apart, after the rest.
            ([x], [y]) if x.c.is_ascii() && y.c.is_ascii() && x.at == y.at => {
                case.push((x.at, pair(&run_a, &run_b)));
            }
            _ => found.push(pair(&run_a, &run_b)),
        }
    }
    match case.as_slice() {
        [] => {}
        [(_, one)] => found.push(one.clone()),
        [rest @ .., (last, _)] => {
            let rest: Vec<String> = rest.iter().map(|(at, _)| at.to_string()).collect();
            found.push(format!(
                "characters {} and {last} differ in case only",
                rest.join(", ")
            ));
        }
    }
    if found.is_empty() {
        return "they are spelt alike".to_string();
    }
    let more = found.len().saturating_sub(MAX_LISTED);
    found.truncate(MAX_LISTED);
    let mut out = found.join("; ");
    if more > 0 {
        out.push_str(&format!("; and {more} more"));
    }
    out
}

/// One character of a name: its position (from 1), itself, and what it folds to (empty
/// for an invisible one).
struct Ch {
    at: usize,
    c: char,
    read: String,
}

struct Spelt(Vec<Ch>);

impl Spelt {
    fn of(name: &str) -> Spelt {
        Spelt(
            name.chars()
                .enumerate()
                .map(|(i, c)| Ch {
                    at: i + 1,
                    c,
                    read: fold(c.encode_utf8(&mut [0; 4])),
                })
                .collect(),
        )
    }

    fn visible(&self) -> impl Iterator<Item = &Ch> {
        self.0.iter().filter(|c| !c.read.is_empty())
    }
}

/// "character 2 is `e` in this name and U+0435 (…) in that one", or with a position on
/// each side when they stand at different places, or a range for a run.
fn pair(this: &[&Ch], that: &[&Ch]) -> String {
    let place = |run: &[&Ch]| match run {
        [one] => format!("character {}", one.at),
        _ => format!("characters {}–{}", run[0].at, run[run.len() - 1].at),
    };
    let what = |run: &[&Ch]| {
        let all: Vec<String> = run.iter().map(|c| describe(c.c)).collect();
        all.join(" ")
    };
    let verb = |run: &[&Ch]| if run.len() == 1 { "is" } else { "are" };
    let (here, there) = (place(this), place(that));
    if here == there {
        format!(
            "{here} {} {} in this name and {} in that one",
            verb(this),
            what(this),
            what(that)
        )
    } else {
        format!(
            "{here} of this name {} {}, {there} of that one {} {}",
            verb(this),
            what(this),
            verb(that),
            what(that)
        )
    }
}

/// A character as a message names it: printable ASCII as itself (`` `R` ``); anything
/// else by code point, with what it is: `U+200B (invisible)`, `U+0301 (combining mark)`,
/// `U+0435 (Cyrillic, read as `e`)`, `U+00E8 (Latin, read as `e`)`.
fn describe(c: char) -> String {
    if matches!(c, '!'..='~') {
        return format!("`{c}`");
    }
    let code = format!("U+{:04X}", c as u32);
    if is_default_ignorable(c) {
        return format!("{code} (invisible)");
    }
    if is_mark(c) {
        return format!("{code} (combining mark)");
    }
    // What it folds to, when that is one ASCII letter or digit.
    let folded = fold(c.encode_utf8(&mut [0; 4]));
    let mut read = folded.chars();
    let read = match (read.next(), read.next()) {
        (Some(l), None) if l.is_ascii_alphanumeric() => Some(l),
        _ => None,
    };
    match (script(c), read) {
        (Some(script), Some(l)) => format!("{code} ({script}, read as `{l}`)"),
        (None, Some(l)) => format!("{code} (read as `{l}`)"),
        (Some(script), None) => format!("{code} ({script})"),
        (None, None) => code,
    }
}

/// The block a look-alike letter comes from, as a reader would name it.
fn script(c: char) -> Option<&'static str> {
    Some(match c as u32 {
        0x0080..=0x02AF | 0x1D00..=0x1DBF | 0xA720..=0xA7FF => "Latin",
        0x0370..=0x03FF => "Greek",
        0x0400..=0x052F => "Cyrillic",
        0x0530..=0x058F => "Armenian",
        0x13A0..=0x13FF => "Cherokee",
        0x2100..=0x214F => "letterlike symbol",
        0x2150..=0x218F => "Roman numeral",
        0xFF00..=0xFFEF => "fullwidth",
        0x1D400..=0x1D7FF => "mathematical",
        0x1FBF0..=0x1FBF9 => "segmented digit",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_each_character_that_differs_and_where() {
        assert_eq!(
            differences("release", "r\u{435}lease"),
            "character 2 is `e` in this name and U+0435 (Cyrillic, read as `e`) in that one"
        );
        assert_eq!(
            differences("Re\u{200b}lease", "r\u{435}lease"),
            "character 3 of this name is U+200B (invisible), which that one lacks; \
             character 2 is `e` in this name and U+0435 (Cyrillic, read as `e`) in that \
             one; character 1 is `R` in this name and `r` in that one"
        );
        // Shifted by an invisible character, each side says where.
        assert_eq!(
            differences("\u{200b}re", "r\u{435}"),
            "character 1 of this name is U+200B (invisible), which that one lacks; \
             character 3 of this name is `e`, character 2 of that one is U+0435 \
             (Cyrillic, read as `e`)"
        );
        assert_eq!(
            differences("\u{ff52}elease", "release"),
            "character 1 is U+FF52 (fullwidth, read as `r`) in this name and `r` in that one"
        );
        assert_eq!(
            differences("DEPL\u{41e}Y", "deploy"),
            "character 5 is U+041E (Cyrillic, read as `o`) in this name and `o` in that \
             one; characters 1, 2, 3, 4 and 6 differ in case only"
        );
        let many = differences("\u{430}\u{430}\u{430}\u{430}B", "aaaab");
        assert!(many.ends_with("; and 2 more"), "{many}");
        assert_eq!(
            differences("a", "a\u{200b}"),
            "character 2 of that name is U+200B (invisible), which this one lacks"
        );
        assert_eq!(differences("same", "same"), "they are spelt alike");
    }

    #[test]
    fn a_run_that_reads_alike_is_one_difference() {
        // A Hangul syllable decomposes into the letters it is written with: one
        // character on this side, two on the other.
        let (a, b) = ("\u{ac00}x", "\u{1100}\u{1161}x");
        assert_eq!(fold(a), fold(b));
        assert_eq!(
            differences(a, b),
            "character 1 of this name is U+AC00, characters 1–2 of that one are U+1100 U+1161"
        );
        // `İ` decomposes to `I` and a combining dot, which reads as nothing.
        let (a, b) = ("\u{130}x", "i\u{307}x");
        assert_eq!(fold(a), fold(b));
        assert_eq!(
            differences(a, b),
            "character 2 of that name is U+0307 (combining mark), which this one lacks; \
             character 1 is U+0130 (Latin, read as `i`) in this name and `i` in that one"
        );
    }

    #[test]
    fn escaped_names_show_every_character_that_is_not_plain_ascii() {
        assert_eq!(escaped("release"), "release");
        assert_eq!(escaped("r\u{435}lease"), "r\\u{435}lease");
        assert_eq!(escaped("Re\u{200b}lease"), "Re\\u{200b}lease");
        assert_eq!(escaped("a\rb"), "a\\u{d}b");
        assert_eq!(escaped(&"x".repeat(41)), format!("{}…", "x".repeat(40)));
    }
}
