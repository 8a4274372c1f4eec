//! Skills: bodies of guidance that matter only in some contexts. The prefix carries one
//! index line per skill (printed by a list fact, `item = "- **{name}** — {when}"`); a body
//! is appended to a turn, wrapped in the reminder marker, when a task calls for it.
//!
//! Everything here is a function of its inputs: the set is keyed by name, so the index and
//! the matches do not depend on the order skills were found in, and the same task always
//! loads the same skills in the same order (a replayed session equals the live one).

use std::collections::BTreeMap;
use std::path::PathBuf;

use doctrine_core::__private::Clean;

/// The longest when-to-use line, in characters: the index line is paid for on every turn.
pub const MAX_WHEN_TO_USE_CHARS: usize = 120;

/// The longest skill name, in characters: it is the skill's key, and printed on its index
/// line too.
pub const MAX_SKILL_NAME_CHARS: usize = 64;

/// A skill embedded at compile time (the generated `SHIPPED_SKILLS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShippedSkill {
    /// Its name: unique in a set, and what the index sorts by.
    pub name: &'static str,
    /// One line: when the skill applies.
    pub when: &'static str,
    /// Phrases that load it; empty: the when-to-use line's words do.
    pub triggers: &'static [&'static str],
    /// The guidance, loaded into a turn when the skill matches.
    pub body: &'static str,
}

/// Where a skill came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkillOrigin {
    /// Embedded at compile time.
    Shipped,
    /// Loaded at run time from this file.
    User(PathBuf),
}

/// One skill: its index line's parts, what loads it, and its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    /// Its name: unique in a set, and what the index sorts by.
    pub name: String,
    /// One line: when the skill applies (at most [`MAX_WHEN_TO_USE_CHARS`] characters).
    pub when: String,
    /// Phrases that load it; empty: the when-to-use line's words do.
    pub triggers: Vec<String>,
    /// The guidance, loaded into a turn when the skill matches.
    pub body: String,
    /// Where it came from.
    pub origin: SkillOrigin,
}

impl ShippedSkill {
    /// A skill of this name, when-to-use line and body, loaded by its when-to-use line's
    /// words (no triggers). The generated `SHIPPED_SKILLS` are checked when the crate
    /// compiles; one built here is taken as given, as [`Skills::insert`] takes a skill.
    pub const fn new(name: &'static str, when: &'static str, body: &'static str) -> Self {
        ShippedSkill {
            name,
            when,
            triggers: &[],
            body,
        }
    }

    /// Loaded by these phrases instead.
    pub const fn with_triggers(mut self, triggers: &'static [&'static str]) -> Self {
        self.triggers = triggers;
        self
    }
}

impl From<&ShippedSkill> for Skill {
    fn from(s: &ShippedSkill) -> Self {
        Skill {
            name: s.name.to_string(),
            when: s.when.to_string(),
            triggers: s.triggers.iter().map(|t| t.to_string()).collect(),
            body: s.body.to_string(),
            origin: SkillOrigin::Shipped,
        }
    }
}

/// The skills of a session, by name: a later insert of a name replaces the earlier one
/// (user directories, in order, over the shipped set).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Skills {
    by_name: BTreeMap<String, Skill>,
    /// What the user-skill loader cleans out of a file (the manifest's `sanitize`).
    clean: Clean,
}

impl Skills {
    /// No skill: what a skill index prints nothing for.
    pub const EMPTY: &'static Skills = &Skills {
        by_name: BTreeMap::new(),
        clean: Clean::NONE,
    };

    /// The shipped skills alone.
    pub fn shipped(skills: &[ShippedSkill]) -> Skills {
        let mut set = Skills::default();
        for s in skills {
            set.insert(s.into());
        }
        set
    }

    /// This set, its user skills (`load_user`) cleaned as `clean` says before they are
    /// read. Used by generated code (`shipped_skills()`), which passes the manifest's
    /// `sanitize`.
    #[doc(hidden)]
    pub fn sanitizing(mut self, clean: Clean) -> Self {
        self.clean = clean;
        self
    }

    /// What the user-skill loader cleans out of a file.
    #[cfg(feature = "skills")]
    pub(crate) fn clean(&self) -> Clean {
        self.clean
    }

    /// Adds `skill`; returns the one of the same name it replaces. It takes the skill as
    /// given: the user-skill loader (`load_user`) is what checks a file's fields, refuses a
    /// name that reads as a loaded one's, and reports a replacement.
    pub fn insert(&mut self, skill: Skill) -> Option<Skill> {
        self.by_name.insert(skill.name.clone(), skill)
    }

    /// The skill named `name`.
    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.by_name.get(name)
    }

    /// Every skill, by name.
    pub fn iter(&self) -> impl Iterator<Item = &Skill> {
        self.by_name.values()
    }

    /// How many skills the set holds.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether the set holds no skill.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The skills `task` calls for, by name. A skill with `triggers` loads when one of
    /// them appears in the task as a phrase (whole words, in order, any case); without
    /// triggers, when two distinct significant words of its when-to-use line appear (one
    /// common word would load a skill into a task that merely mentions it).
    pub fn matching(&self, task: &str) -> Vec<&Skill> {
        let words = words(task);
        self.iter().filter(|s| fires(s, &words)).collect()
    }
}

fn fires(skill: &Skill, task: &[String]) -> bool {
    if skill.triggers.is_empty() {
        let mut significant: Vec<String> = words(&skill.when)
            .into_iter()
            .filter(|w| w.chars().count() >= 3 && !COMMON.contains(&w.as_str()))
            .collect();
        significant.sort_unstable();
        significant.dedup();
        significant.iter().filter(|w| task.contains(w)).count() >= 2
    } else {
        skill.triggers.iter().any(|t| {
            let phrase = words(t);
            !phrase.is_empty() && task.windows(phrase.len()).any(|w| w == phrase.as_slice())
        })
    }
}

/// Lowercase runs of letters and digits.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Words too common to say what a task is about.
const COMMON: &[&str] = &[
    "the", "and", "for", "with", "when", "you", "your", "that", "this", "use", "using", "from",
    "into", "are", "was", "any", "all", "not", "but", "can", "will", "should", "must", "before",
    "after", "about", "its", "has", "have", "one", "some", "what", "which", "who", "how", "why",
    "there", "their", "them", "then", "than", "also", "only", "each", "every", "need", "needs",
    "want", "wants", "make", "like", "more", "most", "other", "over", "under", "out", "off",
    "while", "where", "work", "working", "task", "tasks",
];

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn skill(name: &str, when: &str, triggers: &[&str]) -> Skill {
        Skill {
            name: name.into(),
            when: when.into(),
            triggers: triggers.iter().map(|t| t.to_string()).collect(),
            body: format!("body of {name}"),
            origin: SkillOrigin::Shipped,
        }
    }

    proptest! {
        /// Found in any order, the same skills give the same set, the same index order
        /// and the same matches.
        #[test]
        fn order_found_never_shows(
            raw in proptest::collection::vec(("[a-d]{1,2}", "(test|build|deploy|fail|the|docs|slow)( (test|build|deploy|fail|the|docs|slow)){0,4}", proptest::option::of("(deploy|fail) (test|docs)")), 0..8),
            task in "(test|build|deploy|fail|the|docs|slow)( (test|build|deploy|fail|the|docs|slow)){0,6}",
        ) {
            // Later duplicates win, so dedup by name (keeping the last) before shuffling.
            let mut by_name = BTreeMap::new();
            for (name, when, trigger) in &raw {
                let triggers: Vec<&str> = trigger.iter().map(String::as_str).collect();
                by_name.insert(name.clone(), skill(name, when, &triggers));
            }
            let forward: Vec<Skill> = by_name.values().cloned().collect();
            let mut a = Skills::default();
            let mut b = Skills::default();
            for s in &forward {
                a.insert(s.clone());
            }
            for s in forward.iter().rev() {
                b.insert(s.clone());
            }
            prop_assert_eq!(&a, &b);
            let index = |s: &Skills| s.iter().map(|k| k.name.clone()).collect::<Vec<_>>();
            prop_assert_eq!(index(&a), index(&b));
            prop_assert_eq!(a.matching(&task), b.matching(&task));
        }
    }

    const SHIPPED: &[ShippedSkill] = &[
        ShippedSkill {
            name: "bisect",
            when: "Use when a test started failing and the breaking commit is unknown.",
            triggers: &[],
            body: "Run git bisect with the failing test as the check.",
        },
        ShippedSkill {
            name: "release",
            when: "Cutting a release.",
            triggers: &["cut a release", "release notes"],
            body: "Tag, write the notes, publish.",
        },
    ];

    fn names<'a>(skills: &[&'a Skill]) -> Vec<&'a str> {
        skills.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn triggers_match_as_phrases_and_when_lines_need_two_words() {
        let set = Skills::shipped(SHIPPED);
        assert_eq!(
            names(&set.matching("Please CUT a release today")),
            ["release"]
        );
        assert!(set.matching("a release to cut").is_empty(), "not in order");
        assert!(set.matching("releases notes").is_empty(), "whole words");
        assert_eq!(
            names(&set.matching("the login test is failing since Tuesday")),
            ["bisect"]
        );
        assert!(
            set.matching("add a test").is_empty(),
            "one significant word is not enough"
        );
        assert!(set.matching("").is_empty());
    }

    #[test]
    fn a_later_skill_of_the_same_name_replaces_the_earlier() {
        let mut set = Skills::shipped(SHIPPED);
        let mine = Skill {
            name: "release".into(),
            when: "Our own release steps.".into(),
            triggers: vec!["ship it".into()],
            body: "Ask in the channel first.".into(),
            origin: SkillOrigin::User("skills/release.md".into()),
        };
        let old = set.insert(mine.clone()).unwrap();
        assert_eq!(old.origin, SkillOrigin::Shipped);
        assert_eq!(set.get("release"), Some(&mine));
        assert_eq!(names(&set.matching("ship it now")), ["release"]);
        assert_eq!(set.len(), 2);
    }
}
