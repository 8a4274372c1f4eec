//! Values from outside cleaned before they are printed (`sanitize = ["tags", "bidi",
//! "nfc"]`): which classes a manifest cleans ([`Clean`]), and what cleaning one value
//! removed or changed ([`Cleaned`]), reported by [`Prompt::notices`] and counted in
//! [`Prompt::explain`]. The cleaning itself is the loader's (`doctrine-load`), which holds
//! the Unicode tables; the runtime links none.
//!
//! [`Prompt::notices`]: crate::Prompt::notices
//! [`Prompt::explain`]: crate::Prompt::explain

use std::fmt;

/// What is cleaned out of a value from outside. Used by generated code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clean {
    /// Unicode tag characters (U+E0000–U+E007F), an invisible channel a model still reads.
    pub tags: bool,
    /// Bidi controls and other invisible format characters.
    pub bidi: bool,
    /// Normalisation to NFC.
    pub nfc: bool,
    /// Variation selectors that select nothing a reader sees (a run of them, or one no
    /// character takes), which can carry hidden bytes as tag characters do.
    pub variation: bool,
}

impl Clean {
    /// Nothing cleaned.
    pub const NONE: Clean = Clean {
        tags: false,
        bidi: false,
        nfc: false,
        variation: false,
    };

    /// Whether it cleans nothing.
    pub fn is_none(self) -> bool {
        self == Clean::NONE
    }
}

/// What cleaning one value removed or changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Removed {
    /// Tag characters removed.
    pub tags: usize,
    /// Bidi controls and invisible characters removed.
    pub bidi: usize,
    /// Whether the value was not in NFC and was normalised.
    pub nfc: bool,
    /// Variation selectors removed.
    pub variation: usize,
    /// Characters XML 1.0 cannot carry, left out where the value prints as XML
    /// (`escape = "xml"`): controls other than tab, line feed and carriage return; U+FFFE,
    /// U+FFFF. Counted whatever `sanitize` says.
    pub xml: usize,
}

impl Removed {
    /// What was removed and normalised: `tags` and `bidi` characters removed, `nfc` whether
    /// it was normalised.
    pub fn new(tags: usize, bidi: usize, nfc: bool) -> Self {
        Removed {
            tags,
            bidi,
            nfc,
            variation: 0,
            xml: 0,
        }
    }

    /// `variation` variation selectors removed. Used by the loader.
    pub fn variation(variation: usize) -> Self {
        Removed {
            variation,
            ..Removed::default()
        }
    }

    /// `xml` characters XML 1.0 cannot carry left out of a value printed as XML. Used by
    /// generated code.
    pub fn xml(xml: usize) -> Self {
        Removed {
            xml,
            ..Removed::default()
        }
    }

    /// Whether cleaning left the value as it was.
    pub fn is_none(&self) -> bool {
        *self == Removed::default()
    }

    /// Both counts added, and normalised when either was.
    pub fn and(self, other: Removed) -> Removed {
        Removed {
            tags: self.tags + other.tags,
            bidi: self.bidi + other.bidi,
            nfc: self.nfc || other.nfc,
            variation: self.variation + other.variation,
            xml: self.xml + other.xml,
        }
    }
}

impl fmt::Display for Removed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = |n: usize, one: &str, many: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        let mut said = Vec::new();
        if self.tags > 0 {
            said.push(count(
                self.tags,
                "tag character (U+E0000–U+E007F)",
                "tag characters (U+E0000–U+E007F)",
            ));
        }
        if self.bidi > 0 {
            said.push(count(
                self.bidi,
                "bidi control or invisible character",
                "bidi controls or invisible characters",
            ));
        }
        if self.variation > 0 {
            said.push(count(
                self.variation,
                "variation selector that selects nothing",
                "variation selectors that select nothing",
            ));
        }
        if self.xml > 0 {
            said.push(count(
                self.xml,
                "character XML 1.0 cannot carry (a control other than tab, line feed or \
                 carriage return; U+FFFE, U+FFFF)",
                "characters XML 1.0 cannot carry (controls other than tab, line feed and \
                 carriage return; U+FFFE, U+FFFF)",
            ));
        }
        let removed = match said.is_empty() {
            true => String::new(),
            false => format!("removed {}", said.join(" and ")),
        };
        match (removed.is_empty(), self.nfc) {
            (_, false) => f.write_str(&removed),
            (true, true) => f.write_str("normalised to NFC"),
            (false, true) => write!(f, "{removed}; normalised to NFC"),
        }
    }
}

/// Where a cleaned value came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CleanedFrom {
    /// A fact (or an item of a list fact) of this name.
    Fact(&'static str),
    /// The slot of the layer of this name.
    Slot(&'static str),
    /// The instructions (scopes and texts) of the instructions layer of this name.
    Instructions(&'static str),
}

impl fmt::Display for CleanedFrom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CleanedFrom::Fact(name) => write!(f, "fact `{name}`"),
            CleanedFrom::Slot(layer) => write!(f, "the slot of layer `{layer}`"),
            CleanedFrom::Instructions(layer) => write!(f, "the instructions of layer `{layer}`"),
        }
    }
}

/// One value from outside that cleaning changed: where it came from and what went.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Cleaned {
    pub from: CleanedFrom,
    pub removed: Removed,
}

/// The values whose cleaning changed them, from `(source, what went)` pairs: allocates
/// only when one did. Used by generated code.
pub fn cleaned(all: impl IntoIterator<Item = (CleanedFrom, Removed)>) -> Vec<Cleaned> {
    all.into_iter()
        .filter(|(_, removed)| !removed.is_none())
        .map(|(from, removed)| Cleaned { from, removed })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_went_is_said_in_words() {
        assert_eq!(
            Removed::new(3, 0, false).to_string(),
            "removed 3 tag characters (U+E0000–U+E007F)"
        );
        assert_eq!(
            Removed::new(1, 1, true).to_string(),
            "removed 1 tag character (U+E0000–U+E007F) and 1 bidi control or invisible character; normalised to NFC"
        );
        assert_eq!(Removed::new(0, 0, true).to_string(), "normalised to NFC");
        assert_eq!(
            Removed::xml(2).and(Removed::new(0, 1, false)).to_string(),
            "removed 1 bidi control or invisible character and 2 characters XML 1.0 cannot \
             carry (controls other than tab, line feed and carriage return; U+FFFE, U+FFFF)"
        );
        let pairs = [
            (CleanedFrom::Fact("a"), Removed::default()),
            (CleanedFrom::Slot("b"), Removed::new(0, 2, false)),
        ];
        assert_eq!(
            cleaned(pairs),
            [Cleaned {
                from: CleanedFrom::Slot("b"),
                removed: Removed::new(0, 2, false)
            }]
        );
    }
}
