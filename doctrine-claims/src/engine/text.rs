//! Inflections, initials and contractions: how the rules in [`super::rules`] compare the
//! words of a sentence ([`Words`](crate::Words) splits it) with list entries.

use super::words::IRREGULAR;

/// How a word relates to a verb it matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// The verb as listed, or its `-s` form.
    Base,
    /// Its `-ing` form.
    Ing,
    /// Its `-ed` form, or an irregular past form.
    Past,
}

/// Whether `word` is `base` or one of its inflections.
pub(super) fn inflected(word: &str, base: &str) -> Option<Form> {
    if word == base {
        return Some(Form::Base);
    }
    // Every inflection, irregular ones included, keeps the first letter and adds at most
    // four bytes (or drops one: "kept"); most words fail here, cheaply.
    if word.as_bytes().first() != base.as_bytes().first()
        || word.len() + 1 < base.len()
        || word.len() > base.len() + 4
    {
        return None;
    }
    if IRREGULAR.iter().any(|&(f, b)| f == word && b == base) {
        return Some(Form::Past);
    }
    let stem_is = |stem: &str| {
        stem == base
            || base.strip_suffix('e') == Some(stem)
            // A doubled final consonant: skip → skipped, drop → dropping.
            || (stem.len() == base.len() + 1
                && stem.starts_with(base)
                && base.chars().last().is_some_and(|c| stem.ends_with(c) && !"aeiouy".contains(c)))
    };
    if word.strip_suffix('s') == Some(base)
        || word.strip_suffix("es") == Some(base)
        || (base
            .strip_suffix('y')
            .is_some_and(|b| word.strip_suffix("ies") == Some(b)))
    {
        return Some(Form::Base);
    }
    if word.strip_suffix("ing").is_some_and(stem_is) {
        return Some(Form::Ing);
    }
    if word.strip_suffix("ed").is_some_and(stem_is)
        || (base.ends_with('e') && word.strip_suffix('d') == Some(base))
        || base
            .strip_suffix('y')
            .is_some_and(|b| word.strip_suffix("ied") == Some(b))
    {
        return Some(Form::Past);
    }
    None
}

/// The first bytes of a list's entries as a set of ASCII codes, so that a word no entry
/// can start is passed over at once. A non-ASCII first byte sets every bit.
pub(super) const fn initials(list: &[&str]) -> u128 {
    let mut set = 0u128;
    let mut i = 0;
    while i < list.len() {
        set |= initial(list[i].as_bytes());
        i += 1;
    }
    set
}

/// [`initials`] of one entry.
pub(super) const fn initial(entry: &[u8]) -> u128 {
    match entry.first() {
        Some(&b) if b < 128 => 1 << b,
        Some(_) => u128::MAX,
        None => 0,
    }
}

/// A contraction in `n't` (or written without the apostrophe): it reads as `not`.
pub(super) fn is_nt(word: &str) -> bool {
    word.ends_with("n't")
        || matches!(
            word,
            "dont"
                | "doesnt"
                | "didnt"
                | "cant"
                | "cannot"
                | "wont"
                | "isnt"
                | "arent"
                | "wasnt"
                | "werent"
                | "shouldnt"
                | "mustnt"
                | "couldnt"
                | "wouldnt"
                | "neednt"
                | "havent"
                | "hasnt"
        )
}

/// Whether a word of the text reads as a word of an entry (`not` also as `don't`).
pub(super) fn same(word: &str, entry_word: &str) -> bool {
    word == entry_word || (entry_word == "not" && is_nt(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflections() {
        for (word, base, form) in [
            ("ignore", "ignore", Form::Base),
            ("ignores", "ignore", Form::Base),
            ("ignoring", "ignore", Form::Ing),
            ("ignored", "ignore", Form::Past),
            ("skipped", "skip", Form::Past),
            ("skipping", "skip", Form::Ing),
            ("bypasses", "bypass", Form::Base),
            ("complies", "comply", Form::Base),
            ("complied", "comply", Form::Past),
            ("overridden", "override", Form::Past),
            ("force-pushing", "force-push", Form::Ing),
            ("lifted", "lift", Form::Past),
        ] {
            assert_eq!(inflected(word, base), Some(form), "{word} / {base}");
        }
        for (word, base) in [
            ("ignorant", "ignore"),
            ("skis", "skip"),
            ("lifts-off", "lift"),
            ("sett", "set"),
        ] {
            assert_eq!(inflected(word, base), None, "{word} / {base}");
        }
    }

    #[test]
    fn contractions_read_as_not() {
        assert!(same("don't", "not") && same("isn't", "not") && same("cannot", "not"));
        assert!(!same("note", "not") && !same("don't", "do"));
    }
}
