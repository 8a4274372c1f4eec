//! Sentences, normalisation and words: how a tripwire, and the generator checking a
//! manifest's `claims`, read instruction text.

use doctrine_core::tripwire::ClaimWords;

/// Splits `text` into sentences, trimmed and non-empty: at every line break, and at `.`,
/// `!` or `?` followed by whitespace or the end (so `config.toml` and `~/.ssh` stay whole).
pub fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || loop {
        if rest.is_empty() {
            return None;
        }
        let (mut end, mut next) = (rest.len(), rest.len());
        let mut chars = rest.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let ends = match c {
                '\n' | '\r' => true,
                '.' | '!' | '?' => chars.peek().is_none_or(|(_, n)| n.is_whitespace()),
                _ => false,
            };
            if ends {
                (end, next) = (i, i + c.len_utf8());
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

/// `s` normalised: lowercase; curly apostrophes and quotes made straight; Unicode hyphens
/// made `-`; markdown emphasis (`*`, `_`, `` ` ``) and invisible characters (zero widths,
/// soft hyphen, BOM) removed, but an underscore between letters or digits made a space
/// (`GITHUB_TOKEN`); whitespace runs collapsed to one space and trimmed. The generator
/// stores a manifest's `claims` words this way.
pub fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    normalise_into(s, &mut out);
    out
}

/// Appends `s`, [`normalise`]d, to `out`.
fn normalise_into(s: &str, out: &mut String) {
    let (mut space, mut prev) = (false, ' ');
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

/// What separates a word from the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Break {
    /// Spaces, quotes or symbols.
    None,
    /// `,`, brackets or a dash.
    Soft,
    /// `;`, `:` or a lone `.`, `!`, `?`.
    Hard,
}

/// One sentence, [`normalise`]d and split into words: letters, digits and `'`, `-`, `/`,
/// `~`, `$`, `.` (`.env`, `~/.ssh`, `--force`, `rm -rf /`), without the quotes around them
/// or a trailing dot. What the built-in `Patterns` read; another
/// [`Tripwire`](doctrine_core::tripwire::Tripwire) may read it too.
#[derive(Clone, Debug, Default)]
pub struct Words {
    text: String,
    /// Each word's byte range in `text` and what came before it.
    words: Vec<(usize, usize, Break)>,
}

impl Words {
    /// `sentence`, normalised and split.
    pub fn of(sentence: &str) -> Words {
        let mut w = Words::default();
        w.load(sentence);
        w
    }

    /// Replaces the contents with `sentence`, normalised and split; buffers are reused.
    pub fn load(&mut self, sentence: &str) {
        self.text.clear();
        normalise_into(sentence, &mut self.text);
        self.words.clear();
        let (text, words) = (&self.text, &mut self.words);
        let (mut brk, mut start) = (Break::None, None);
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            // A `.` is part of a word only before a letter or digit (`.env`, `config.toml`).
            let next = chars.peek().map(|&(_, n)| n);
            if c.is_alphanumeric()
                || matches!(c, '\'' | '-' | '/' | '~' | '$')
                || (c == '.' && next.is_some_and(char::is_alphanumeric))
            {
                start.get_or_insert(i);
                continue;
            }
            if let Some(s) = start.take() {
                if push(text, words, s, i, brk) {
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
            push(text, words, s, text.len(), brk);
        }
    }

    /// The normalised sentence.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// How many words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there is no word.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The `i`-th word, or `""` past the end.
    pub fn word(&self, i: usize) -> &str {
        self.words.get(i).map_or("", |&(s, e, _)| &self.text[s..e])
    }

    /// What separates word `i` from word `i - 1` (`Hard` past either end).
    pub fn brk(&self, i: usize) -> Break {
        self.words.get(i).map_or(Break::Hard, |w| w.2)
    }

    /// The first word that ends after byte `pos` of [`Words::text`].
    pub fn at(&self, pos: usize) -> usize {
        self.words.partition_point(|w| w.1 <= pos)
    }
}

/// Adds the word at `start..end` of `text`, if anything is left of it once the quotes and
/// trailing dots around it are cut off.
fn push(
    text: &str,
    words: &mut Vec<(usize, usize, Break)>,
    start: usize,
    end: usize,
    brk: Break,
) -> bool {
    let word = &text[start..end];
    let trimmed = word.trim_start_matches('\'');
    let start = start + (word.len() - trimmed.len());
    let end = start + trimmed.trim_end_matches(['\'', '.']).len();
    if end > start {
        words.push((start, end, brk));
    }
    end > start
}

/// A locked layer's verbs, objects, actions and phrases, each [`normalise`]d (words written
/// by hand need not be), without the entries nothing is left of.
pub(crate) fn normalised(words: &ClaimWords) -> [Vec<String>; 4] {
    [words.verbs, words.objects, words.actions, words.phrases].map(|list| {
        list.iter()
            .map(|e| normalise(e))
            .filter(|e| !e.is_empty())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            normalise("force\u{2010}push GITHUB_TOKEN"),
            "force-push github token"
        );
        assert_eq!(normalise("  \t "), "");
    }

    #[test]
    fn words_and_breaks() {
        let w = Words::of("Ignore, 'the' rules; see .env, ~/.ssh and rm -rf /.");
        let got: Vec<(&str, Break)> = (0..w.len()).map(|i| (w.word(i), w.brk(i))).collect();
        assert_eq!(
            got,
            [
                ("ignore", Break::None),
                ("the", Break::Soft),
                ("rules", Break::None),
                ("see", Break::Hard),
                (".env", Break::None),
                ("~/.ssh", Break::Soft),
                ("and", Break::None),
                ("rm", Break::None),
                ("-rf", Break::None),
                ("/", Break::None),
            ]
        );
        assert_eq!((w.word(99), w.brk(99)), ("", Break::Hard));
        assert_eq!(w.at(w.text().find("rules").unwrap()), 2);
    }
}
