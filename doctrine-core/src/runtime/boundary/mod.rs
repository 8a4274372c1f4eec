//! Section boundaries that run-time text may not write. A user's overlay, a selector's
//! file, a user skill's index line, a slot, a fact or an instruction lands inside a layer;
//! if it could write `</skills>` then `<safety>…</safety>`, or a `## Safety` line, a model
//! would read what follows as a section the manifest never put there, locked ones included.
//!
//! What is escaped, in every formulation (a model reads tags and headings whatever
//! delimiters its family is given): a tag of a guarded name (the manifest's section tags
//! and its reminder marker's), opening or closing, in any case, with anything after the
//! name up to the `>` (`</Safety >`, `<safety priority="high">`), and a heading line at
//! level 1 or 2 (`# `, `## `, or a line of `=` or `-` under a line of text). Each is split
//! by a `\` inserted after a tag's `<` or before a heading's mark (`<\/skills>`,
//! `\## Safety`), counted in the prompt ([`Escape`]) and reported ([`Prompt::notices`]).
//! Shipped text is never touched: it is the manifest's to write.
//!
//! [`Prompt::notices`]: crate::Prompt::notices

mod notices;
mod oracle;
mod scan;
mod scope;
mod writer;

use std::fmt;
use std::ops::Range;

use super::instruction::{Authority, Instruction};

pub(crate) use notices::notices;
pub use oracle::{boundaries, in_reach, marks};
pub(crate) use scope::Scope;
pub(crate) use writer::{Closed, Guarded, Piece, Raw, Shift};

/// What a manifest guards its run-time text against: its section tags' names, folded
/// (lowercase, look-alikes as Latin letters, no accents), sorted; and its facts' names (for
/// notices: a placeholder value past them is a knob's or a flag's, which the manifest
/// wrote). Heading lines are guarded in every manifest. Used by generated code.
#[derive(Clone, Copy)]
pub struct Guard {
    pub tags: &'static [&'static str],
    pub facts: &'static [&'static str],
    /// The values of the manifest's loops (`{#list}…{/list}`), each a list fact printed
    /// through its own item template: where they start among the values, and each one's
    /// fact. Their items' fields are run-time text as the fact's own are.
    loops: (usize, &'static [&'static str]),
    /// The values users' templates render into (`overlay_interpolate`): where they start
    /// among the values, and each one's overlay file. A value's text is run-time text
    /// from that file.
    templates: (usize, &'static [&'static str]),
    /// How a name in run-time text is folded before it is compared with `tags`: the one
    /// that folded them (generated code passes the loader's, which drops accents; by
    /// default lowercase, invisible characters and look-alikes only).
    pub fold: fn(&str) -> String,
    longest: usize,
    /// Every placeholder value is run-time text (a guard made by hand, which knows no facts).
    every_value: bool,
    /// Nothing is escaped (`[formulation] escape = "none"`, in a manifest without a locked
    /// layer).
    off: bool,
    /// A layer may follow other text than the separator (a `join_before`, a message's
    /// wrapper): what precedes a layer is read as unknown, at its worst.
    joins: bool,
    /// Every run-time piece is recorded where it lands ([`RunTimeText`]): for a tool that
    /// draws them (the prompt book), never for generated code, which pays nothing for it.
    records: bool,
    /// Lines the manifest writes between layers (a `join_before` text's lines, trimmed):
    /// a line of run-time text that reads as one, blanks around it aside, is escaped, so
    /// a join like `--- project-doc ---` is one the manifest put there.
    pub(crate) lines: &'static [&'static str],
    /// The longest of `lines`, in bytes.
    longest_line: usize,
}

/// A stretch of a composed prompt that run-time text wrote (a fact's value, a list item's
/// field, a slot, an instruction, a user's file), recorded when the prompt was composed
/// with a recording guard ([`Guard::recording`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunTimeText {
    /// Where it sits in [`Prompt::as_str`](crate::Prompt::as_str).
    pub range: Range<usize>,
    /// The layer whose text holds it.
    pub layer: &'static str,
    /// Where the text came from.
    pub source: Supplied,
}

impl Guard {
    /// No tag: heading lines alone, and every placeholder value taken as run-time text.
    pub const HEADINGS: Guard = Guard {
        every_value: true,
        ..Guard::new(&[], &[])
    };

    /// A guard over these folded, sorted names, for a manifest with these facts.
    pub const fn new(tags: &'static [&'static str], facts: &'static [&'static str]) -> Guard {
        let (mut longest, mut i) = (0, 0);
        while i < tags.len() {
            if tags[i].len() > longest {
                longest = tags[i].len();
            }
            i += 1;
        }
        Guard {
            tags,
            facts,
            loops: (0, &[]),
            templates: (0, &[]),
            fold: ascii_lowercase,
            longest,
            every_value: false,
            off: false,
            joins: false,
            records: false,
            lines: &[],
            longest_line: 0,
        }
    }

    /// The same guard, with the lines the manifest writes between layers (`join_before`
    /// texts' lines, trimmed, none blank).
    pub const fn guarding_lines(mut self, lines: &'static [&'static str]) -> Guard {
        let (mut longest, mut i) = (0, 0);
        while i < lines.len() {
            if lines[i].len() > longest {
                longest = lines[i].len();
            }
            i += 1;
        }
        self.lines = lines;
        self.longest_line = longest;
        self
    }

    /// The longest guarded line, in bytes.
    pub(crate) fn longest_line(&self) -> usize {
        self.longest_line
    }

    /// The same guard, recording where each run-time piece lands
    /// ([`Prompt::run_time_text`](crate::Prompt::run_time_text)): what a tool that shows
    /// them turns on.
    pub const fn recording(mut self) -> Guard {
        self.records = true;
        self
    }

    /// Whether run-time pieces are recorded.
    pub(crate) fn records(&self) -> bool {
        self.records
    }

    /// The same guard, for a manifest whose layers are not all joined by the separator
    /// (`join_before`, messages).
    pub const fn joined(mut self) -> Guard {
        self.joins = true;
        self
    }

    /// What a layer's text is read after, for boundaries: the separator, or nothing known
    /// when layers are joined otherwise.
    pub(crate) fn context<'s>(&self, separator: &'s str) -> &'s str {
        match self.joins {
            true => "",
            false => separator,
        }
    }

    /// The same guard, comparing names folded by `fold` (the tags must be folded by it too).
    pub const fn folding(mut self, fold: fn(&str) -> String) -> Guard {
        self.fold = fold;
        self
    }

    /// The same guard, with the manifest's loops: values from `from` on, one per loop, each
    /// printing the list fact it names.
    pub const fn looping(mut self, from: usize, facts: &'static [&'static str]) -> Guard {
        self.loops = (from, facts);
        self
    }

    /// The same guard, with users' templates: values from `from` on, one per template,
    /// each rendered from the overlay file it names.
    pub const fn templating(mut self, from: usize, files: &'static [&'static str]) -> Guard {
        self.templates = (from, files);
        self
    }

    /// The overlay file whose template value `v` is, if it is one.
    pub(crate) fn template_file(&self, v: usize) -> Option<&'static str> {
        let (from, files) = self.templates;
        v.checked_sub(from).and_then(|i| files.get(i).copied())
    }

    /// The same guard, turned off: run-time text is written as given.
    pub const fn unguarded(mut self) -> Guard {
        self.off = true;
        self
    }

    /// Whether run-time text is checked at all.
    pub fn is_on(&self) -> bool {
        !self.off
    }

    /// The longest guarded name, in bytes.
    pub(crate) fn longest(&self) -> usize {
        self.longest
    }

    /// Whether placeholder value `v` is a fact (run-time text).
    pub(crate) fn is_fact(&self, v: usize) -> bool {
        self.every_value || self.fact_name(v).is_some() || self.template_file(v).is_some()
    }

    /// The name of the fact whose text value `v` prints: a fact's own, or a loop's list.
    pub(crate) fn fact_name(&self, v: usize) -> Option<&'static str> {
        let (from, loops) = self.loops;
        match v.checked_sub(from) {
            Some(l) if v >= self.facts.len() => loops.get(l).copied(),
            _ => self.facts.get(v).copied(),
        }
    }
}

// A guard is compared by what it guards: two folds are the same function wherever it was
// named from (a function pointer's address is not a reliable identity).
impl PartialEq for Guard {
    fn eq(&self, other: &Self) -> bool {
        let key = |g: &Guard| {
            let flags = (g.every_value, g.off, g.joins, g.records);
            (g.tags, g.facts, g.loops, g.templates, flags, g.lines)
        };
        key(self) == key(other)
    }
}

impl Eq for Guard {}

impl std::hash::Hash for Guard {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (
            self.tags,
            self.facts,
            self.loops,
            self.every_value,
            self.off,
            self.joins,
        )
            .hash(state);
    }
}

impl fmt::Debug for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Guard")
            .field("tags", &self.tags)
            .field("facts", &self.facts)
            .field("every_value", &self.every_value)
            .field("off", &self.off)
            .finish_non_exhaustive()
    }
}

/// The names of the tags in `text` (`<name`, `</name`), folded by `fold`: a marker's,
/// which its run-time text may not write either.
pub fn tag_names(text: &str, fold: fn(&str) -> String) -> impl Iterator<Item = String> + '_ {
    text.match_indices('<').filter_map(move |(i, _)| {
        let rest = &text[i + 1..];
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        let name = &rest[..rest.find(scan::ends_name).unwrap_or(rest.len())];
        (!name.is_empty()).then(|| fold(name))
    })
}

/// Where a piece of run-time text came from, as the composer writes it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Via<'a> {
    Slot,
    Fact(usize),
    OverlayFile(&'static str),
    SelectorPath(&'static str),
    Instruction(&'a Instruction<'a>),
}

impl Via<'_> {
    fn supplied(self, guard: &Guard) -> Supplied {
        match self {
            Via::Slot => Supplied::Slot,
            Via::Fact(i) => Supplied::Fact(guard.fact_name(i).unwrap_or("")),
            Via::OverlayFile(file) => Supplied::OverlayFile(file),
            Via::SelectorPath(name) => Supplied::SelectorPath(name),
            Via::Instruction(i) => Supplied::InstructionText {
                source: i.authority(),
                scope: i.scope.to_string(),
            },
        }
    }
}

/// Where an escaped piece of run-time text came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Supplied {
    /// The layer's slot, as the calling code filled it.
    Slot,
    /// A fact's value (its name; empty for a value of a hand-made guard), or an item of a
    /// list fact. A user skill's line of the skill index is named by
    /// [`Prompt::user_content`](crate::Prompt::user_content) too.
    Fact(&'static str),
    /// The overlay file of this name (a replacing or an appended overlay, or a selector's
    /// user copy).
    OverlayFile(&'static str),
    /// The file the selector of this name named.
    SelectorPath(&'static str),
    /// An instruction of this rank and scope.
    InstructionText { source: Authority, scope: String },
}

impl fmt::Display for Supplied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Supplied::Slot => f.write_str("its slot"),
            Supplied::Fact("") => f.write_str("a placeholder's value"),
            Supplied::Fact(name) => write!(f, "fact `{name}`"),
            Supplied::OverlayFile(file) => write!(f, "overlay file {file}"),
            Supplied::SelectorPath(name) => write!(f, "the file selector `{name}` names"),
            Supplied::InstructionText { source, scope } => {
                write!(f, "an instruction (source={source}, scope={scope})")
            }
        }
    }
}

/// One section boundary that run-time text would have written, and the escape that split
/// it: a `\` before its first character, or, inside a value printed escaped, that
/// character written the escaping's way (`\u0023` in a JSON string, `&#35;` in XML or
/// handlebars' `{{value}}`), so the value still reads back as given.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Escape {
    /// Where the escape starts, in [`Prompt::as_str`](crate::Prompt::as_str).
    pub at: usize,
    /// The escape's bytes in [`Prompt::as_str`](crate::Prompt::as_str): `at..at + 1` for
    /// a `\`.
    pub written: Range<usize>,
    /// The character the escape writes in another form (`#` for `&#35;`); `None` for a
    /// `\`, which adds a byte and replaces none.
    pub replaced: Option<char>,
    /// The boundary's bytes as written, the escape among them (within its layer's text).
    pub boundary: Range<usize>,
    /// The layer whose text held it.
    pub layer: &'static str,
    /// Where the text came from.
    pub source: Supplied,
}

#[cfg(test)]
mod scope_tests;
#[cfg(test)]
mod tests;

/// What a guard folds names with when it is given no other fold: ASCII case only. Generated
/// code passes the loader's fold, which also drops invisible characters and accents and
/// reads look-alike letters as Latin ones; the runtime links no Unicode table of its own.
fn ascii_lowercase(name: &str) -> String {
    name.to_ascii_lowercase()
}
