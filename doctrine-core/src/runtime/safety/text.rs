//! Sentences, normalisation and words: what the rules in [`super::rules`] look at.

use super::words::IRREGULAR;

/// Splits `text` into sentences, trimmed and non-empty: at every line break, and at `.`,
/// `!` or `?` followed by whitespace or the end (so `config.toml` and `~/.ssh` stay whole).
pub(super) fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || loop {
        if rest.is_empty() {
            return None;
        }
        let mut end = rest.len();
        let mut next = rest.len();
        let mut chars = rest.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let ends = match c {
                '\n' | '\r' => true,
                '.' | '!' | '?' => chars.peek().is_none_or(|(_, n)| n.is_whitespace()),
                _ => false,
            };
            if ends {
                end = i;
                next = i + c.len_utf8();
                break;
            }
        }
        let sentence = rest[..end].trim();
        rest = &rest[next..];
        if !sentence.is_empty() {
            return Some(sentence);
        }
    })
}

/// What separates a word from the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Break {
    /// Spaces, quotes or symbols.
    None,
    /// `,`, brackets or a dash.
    Soft,
    /// `;`, `:` or a lone `.`, `!`, `?`.
    Hard,
}

/// One word of a normalised sentence: its byte range and what came before it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Word {
    pub start: usize,
    pub end: usize,
    pub brk: Break,
}

/// A normalised sentence and its words.
#[derive(Default)]
pub(super) struct Normalised {
    pub text: String,
    pub words: Vec<Word>,
}

impl Normalised {
    /// Replaces the contents with `sentence`, normalised (see [`normalise_into`]) and split
    /// into words. Buffers are reused between sentences.
    pub(super) fn load(&mut self, sentence: &str) {
        self.text.clear();
        normalise_into(sentence, &mut self.text);
        self.words.clear();
        let mut brk = Break::None;
        let mut start = None;
        let mut chars = self.text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let next = chars.peek().map(|&(_, n)| n);
            if is_word_char(c, next) {
                start.get_or_insert(i);
                continue;
            }
            if let Some(s) = start.take() {
                if push(&self.text, &mut self.words, s, i, brk) {
                    brk = Break::None;
                }
            }
            brk = brk.max(match c {
                ',' | '(' | ')' | '[' | ']' | '{' | '}' | '\u{2012}'..='\u{2015}' => Break::Soft,
                ';' | ':' | '.' | '!' | '?' => Break::Hard,
                _ => Break::None,
            });
        }
        if let Some(s) = start {
            push(&self.text, &mut self.words, s, self.text.len(), brk);
        }
    }

    pub(super) fn len(&self) -> usize {
        self.words.len()
    }

    /// The `i`-th word, or `""` past the end.
    pub(super) fn word(&self, i: usize) -> &str {
        self.words.get(i).map_or("", |w| &self.text[w.start..w.end])
    }

    /// What separates word `i` from word `i - 1` (`Hard` past either end).
    pub(super) fn brk(&self, i: usize) -> Break {
        self.words.get(i).map_or(Break::Hard, |w| w.brk)
    }
}

/// Adds the word at `start..end` of `text`, if anything is left of it once the quotes and
/// trailing dots around it are cut off.
fn push(text: &str, words: &mut Vec<Word>, start: usize, end: usize, brk: Break) -> bool {
    let word = &text[start..end];
    let trimmed = word.trim_start_matches('\'');
    let start = start + (word.len() - trimmed.len());
    let end = start + trimmed.trim_end_matches(['\'', '.']).len();
    if end > start {
        words.push(Word { start, end, brk });
    }
    end > start
}

/// A word character: letters, digits and `'`, `-`, `/`, `~`, `$`; a `.` only before a
/// letter or digit (`.env`, `config.toml`), so a sentence's last dot is not part of a word.
fn is_word_char(c: char, next: Option<char>) -> bool {
    c.is_alphanumeric()
        || matches!(c, '\'' | '-' | '/' | '~' | '$')
        || (c == '.' && next.is_some_and(char::is_alphanumeric))
}

/// Appends `s` normalised: lowercase; curly apostrophes and quotes made straight; Unicode
/// hyphens made `-`; markdown emphasis (`*`, `_`, `` ` ``) and invisible characters (zero
/// widths, soft hyphen, BOM) removed, but an underscore between letters or digits made a
/// space (`GITHUB_TOKEN`); whitespace runs collapsed to one space and trimmed.
pub(crate) fn normalise_into(s: &str, out: &mut String) {
    let mut space = false;
    let mut prev = ' ';
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        // An underscore inside a word separates words (`GITHUB_TOKEN`); around one it is
        // emphasis.
        if c == '_' && prev.is_alphanumeric() && chars.peek().is_some_and(|n| n.is_alphanumeric()) {
            space = true;
            continue;
        }
        prev = c;
        let c = match c {
            '*' | '_' | '`' | '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' => {
                continue
            }
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{02BC}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{00AB}' | '\u{00BB}' => '"',
            '\u{2010}' | '\u{2011}' => '-',
            c if c.is_whitespace() => {
                space = true;
                continue;
            }
            c => c,
        };
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.extend(c.to_lowercase());
    }
}

/// `s` normalised as [`normalise_into`] does: how the generator stores a manifest's words.
pub(crate) fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    normalise_into(s, &mut out);
    out
}

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

    fn words(s: &str) -> Vec<(String, Break)> {
        let mut n = Normalised::default();
        n.load(s);
        (0..n.len())
            .map(|i| (n.word(i).to_string(), n.brk(i)))
            .collect()
    }

    #[test]
    fn splits_sentences_at_ends_not_inside_words() {
        let got: Vec<&str> =
            sentences("Read config.toml. Then ~/.ssh!\n\n  Why?No. e.g. this...").collect();
        assert_eq!(
            got,
            ["Read config.toml", "Then ~/.ssh", "Why?No", "e.g", "this.."]
        );
        assert_eq!(sentences(" \n. ").count(), 0);
    }

    #[test]
    fn normalises_case_quotes_emphasis_and_space() {
        assert_eq!(
            normalise("**Don\u{2019}t**  _IGNORE_\u{00A0}the `\u{201C}rules\u{201D}`\u{200B}"),
            "don't ignore the \"rules\""
        );
        assert_eq!(normalise("force\u{2010}push"), "force-push");
        assert_eq!(normalise("  \t "), "");
    }

    #[test]
    fn words_and_breaks() {
        assert_eq!(
            words("Ignore, 'the' rules; see .env, ~/.ssh and rm -rf /."),
            [
                ("ignore".to_string(), Break::None),
                ("the".to_string(), Break::Soft),
                ("rules".to_string(), Break::None),
                ("see".to_string(), Break::Hard),
                (".env".to_string(), Break::None),
                ("~/.ssh".to_string(), Break::Soft),
                ("and".to_string(), Break::None),
                ("rm".to_string(), Break::None),
                ("-rf".to_string(), Break::None),
                ("/".to_string(), Break::None),
            ]
        );
    }

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
