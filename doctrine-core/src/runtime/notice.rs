//! Things the runtime refused to do silently: a file it ignored, text it truncated, an
//! instruction that reaches for a locked layer. Never a panic, never a silent drop.

use std::fmt;

/// What kind of thing a [`Notice`] reports. More kinds may come in any release.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NoticeKind {
    /// A file names a locked layer (e.g. `safety.md`); it was ignored.
    Locked,
    /// A file names a layer that ships fixed and has no overlay file; it was ignored.
    NotOverridable,
    /// A file or directory that maps to no layer; it was ignored.
    Unknown,
    /// A file over the byte cap; its start, cut at a UTF-8 boundary, was used.
    Truncated,
    /// A file that is not UTF-8; it was ignored.
    NotUtf8,
    /// A file that could not be read; it was ignored.
    Unreadable,
    /// A symlink that leaves the overlay directory; it was not followed.
    Escapes,
    /// A symlink this system cannot follow without risking leaving the overlay directory
    /// (no `openat2`); it was not followed.
    SymlinkRefused,
    /// A regular file with more than one hard link, which may be the same file as one
    /// outside the overlay directory; it was ignored.
    HardLinked,
    /// An empty file; the shipped text was kept.
    Empty,
    /// The overlay path exists but is not a directory; nothing was loaded.
    NotADirectory,
    /// An instruction sentence that tries to loosen a locked layer; reported, not removed.
    SafetyClaim,
    /// A file over its cap, where the manifest refuses oversized files; the shipped text
    /// was kept.
    TooLarge,
    /// An empty file where the manifest lets it turn its layer off (`empty = "off"`).
    TurnedOff,
    /// A file byte-identical to an earlier shipped version (`overlay_ignore`); the current
    /// shipped text was used.
    ShippedCopy,
    /// A user skill whose file is not a valid skill (frontmatter, no when-to-use line, an
    /// empty body…); it was not loaded.
    BadSkill,
    /// A user skill's when-to-use line over `doctrine::input::limits::MAX_WHEN_TO_USE_CHARS`
    /// characters; the index shows it cut.
    WhenCut,
    /// A user skill whose name another file in the same directory already gave; the first
    /// by file name was kept.
    DuplicateSkill,
    /// A directory with more entries than a loader looks at; the rest were passed by.
    TooManyEntries,
    /// A user skill that replaces a shipped skill, or one from an earlier directory, of the
    /// same name; it was loaded in its place.
    SkillReplaced,
    /// A user skill whose name reads as another's (ignoring case, invisible characters and
    /// letters that look Latin) but is spelt otherwise; it was not loaded.
    ConfusableSkill,
    /// Text wrapped in a marker held the marker's closing text; each occurrence was escaped
    /// so it cannot end the marker early.
    MarkerEscaped,
    /// Run-time text in a prompt held a section boundary (a tag of a section the manifest
    /// declares, a heading line); each was escaped so it cannot end its section or start
    /// one that reads as the manifest's.
    BoundaryEscaped,
    /// Run-time text inside a container (a wrapper, a titled layer's tags in the tagged
    /// formulation) left a code fence or an HTML comment open; the composer closed it
    /// before the container's closing text. Or a value in a layer's header did, and it
    /// was closed at the header's end, before the layer's wrapper and text.
    LeftOpen,
    /// A user's file read as a template with its layer's facts (`overlay_interpolate`)
    /// that does not read as one (a name the layer may not use, an unclosed section, a
    /// per-turn fact in a cached layer), or that with a composition's values would print
    /// more than its bound (`MAX_REPEATED_BYTES` beyond its text and each value once): the
    /// shipped text was kept.
    TemplateRejected,
    /// A value from outside (a fact, a list item, a slot, an instruction, a user's file) held characters
    /// the manifest's `sanitize` cleans (tag characters, bidi controls and invisible
    /// characters, text not in NFC); they were removed or normalised. Or a value printed
    /// as XML (`escape = "xml"`) held characters XML 1.0 cannot carry; they were left out.
    Sanitized,
    /// A list fact, or an instructions layer's texts, printed more bytes than its budget
    /// (`max_bytes`, or a lower one the caller set); it was cut there, at a character
    /// boundary (a list of escaped items: after its last whole item that fits).
    ListCut,
}

/// One thing done, or refused, and why. Data beyond the message, where a kind has some,
/// comes through methods ([`Notice::finding`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Notice {
    /// What it is about: a file path, or an instruction's source and scope.
    pub subject: String,
    pub kind: NoticeKind,
    /// A sentence saying what was done and why.
    pub message: String,
    /// A safety claim's sentence as written and what fired on it.
    claim: Option<Box<(String, Finding)>>,
}

impl Notice {
    /// A notice of `kind` about `subject`.
    pub fn new(subject: impl Into<String>, kind: NoticeKind, message: impl Into<String>) -> Self {
        Notice {
            subject: subject.into(),
            kind,
            message: message.into(),
            claim: None,
        }
    }

    /// The same notice, about `sentence` on which a tripwire found `finding`.
    /// The sentence a tripwire reported and what it found: for `doctrine-claims`' `scan`.
    #[doc(hidden)]
    pub fn with_claim(self, sentence: &str, finding: Finding) -> Self {
        let claim = Some(Box::new((sentence.to_string(), finding)));
        Notice { claim, ..self }
    }

    /// For a [`NoticeKind::SafetyClaim`]: what the tripwire found (rule, words, layer).
    pub fn finding(&self) -> Option<&Finding> {
        self.claim.as_ref().map(|c| &c.1)
    }

    /// For a [`NoticeKind::SafetyClaim`]: the sentence, as written in the instruction.
    pub fn sentence(&self) -> Option<&str> {
        self.claim.as_ref().map(|c| c.0.as_str())
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.subject, self.message)
    }
}

/// What a [`Tripwire`](crate::tripwire::Tripwire) found in one sentence: which rule fired, on what.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Finding {
    /// The rule, said of the sentence: "tells the agent to ignore earlier instructions".
    pub rule: &'static str,
    /// What it matched, in the rule's words: `"ignore" + "previous instructions"`.
    pub matched: String,
    /// The locked layer whose [`ClaimWords`](crate::tripwire::ClaimWords) matched, if any.
    pub layer: Option<&'static str>,
}

impl Finding {
    /// Rule `rule` matched `matched`, with no manifest words involved.
    pub fn new(rule: &'static str, matched: impl Into<String>) -> Self {
        Finding {
            rule,
            matched: matched.into(),
            layer: None,
        }
    }

    /// The same finding, naming the locked layer whose words matched.
    pub fn from_layer(self, layer: Option<&'static str>) -> Self {
        Finding { layer, ..self }
    }
}
