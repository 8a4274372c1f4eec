//! The user-skill loader: skills read at run time from an ordered list of directories, by
//! the overlay loader's rules (see [`crate::user_dir`]): each directory opened once and
//! listed from its descriptor, each file opened beneath it and judged from the open
//! descriptor, hard links refused, every read capped. Every entry is loaded or answered
//! with a [`Notice`]; nothing panics and nothing is dropped in silence.
//!
//! A skill is `<dir>/<name>.md` or `<dir>/<name>/SKILL.md`, read as a shipped skill is
//! (`crate::frontmatter::skill`), except that a when-to-use line over
//! [`MAX_WHEN_TO_USE_CHARS`] characters is cut, with a notice, instead of refused: the user
//! cannot fix a file at our compile time. A skill that replaces one already loaded says so
//! (`SkillReplaced`); one whose name only reads like another's is refused
//! (`ConfusableSkill`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::clean::sanitize;
use crate::frontmatter::skill::{parse, Problem, SkillFile};
use crate::overlay::sanitized_message;
use crate::safe_open::{DirHandle, Entry, Refused};
use crate::skill::{Skill, SkillOrigin, Skills, MAX_WHEN_TO_USE_CHARS};
use crate::spelling::{differences, escaped};
use crate::text::{fold, normalise, shown};
use crate::user_dir::{
    list, listing_errors, open_dir, open_entry, read_whole, refusal, Links, Named, Words,
};
use doctrine_core::introspect::{Notice, NoticeKind};

/// Default byte cap per user skill file. A skill over it is refused whole: half a skill's
/// guidance is worse than none.
pub const MAX_SKILL_BYTES: usize = 64 * 1024;

/// The most entries looked at in one skills directory, by name; the rest are reported in
/// one notice. Bounds the work and the notices for a directory that was never meant as one.
pub const MAX_SKILL_ENTRIES: usize = 256;

const WORDS: Words = Words {
    what: "skills",
    kept: "no skill was loaded from it",
    none: "no skill was loaded from it",
};

impl Skills {
    /// Loads the user's skills from `dirs`, in order, into this set: a skill replaces one of
    /// the same name already here (shipped, or from an earlier directory), with a
    /// `SkillReplaced` notice; one whose name reads as another's but is spelt otherwise
    /// (`Release`, or with a Cyrillic `е`, beside `release`) is not loaded
    /// (`ConfusableSkill`). Each file is capped at [`MAX_SKILL_BYTES`]. A directory that
    /// does not exist is passed by in silence; everything else that is not loaded gets a
    /// notice.
    ///
    /// Needs the `skills` feature (of `doctrine-prompt`, off by default).
    #[must_use = "the notices say what was not loaded and why; report them"]
    pub fn load_user<P: AsRef<Path>>(&mut self, dirs: &[P]) -> Vec<Notice> {
        self.load_user_capped(dirs, MAX_SKILL_BYTES)
    }

    /// [`Skills::load_user`] with a byte cap per file of `max_bytes`.
    #[must_use = "the notices say what was not loaded and why; report them"]
    pub fn load_user_capped<P: AsRef<Path>>(
        &mut self,
        dirs: &[P],
        max_bytes: usize,
    ) -> Vec<Notice> {
        let mut notices = Vec::new();
        let mut names = Names::of(self);
        for dir in dirs {
            load_dir(
                self,
                &mut names,
                dir.as_ref(),
                max_bytes,
                Links::FollowBeneath,
                &mut notices,
            );
        }
        notices
    }
}

/// The names of a set as they read ([`fold`]) → as they are spelt, so a user skill whose
/// name reads as one already loaded but is spelt otherwise (`Release`, `rеlease` with a
/// Cyrillic `е`) is refused: the index would show two lines that read alike, and which is
/// which only its bytes would say.
struct Names(BTreeMap<String, String>);

impl Names {
    fn of(skills: &Skills) -> Names {
        Names(
            skills
                .iter()
                .map(|s| (fold(&s.name), s.name.clone()))
                .collect(),
        )
    }
}

/// Loads one directory's skills into `skills`.
fn load_dir(
    skills: &mut Skills,
    names: &mut Names,
    dir: &Path,
    max_bytes: usize,
    links: Links,
    notices: &mut Vec<Notice>,
) {
    let Some(root) = open_dir(dir, WORDS, notices) else {
        return;
    };
    let (entries, errors) = list(dir, &root, WORDS, notices);
    if entries.len() > MAX_SKILL_ENTRIES {
        notices.push(Notice::new(
            dir.display().to_string(),
            NoticeKind::TooManyEntries,
            format!(
                "The skills directory has {} entries; only the first {MAX_SKILL_ENTRIES} by \
                 name were looked at, so the other {} were ignored.",
                entries.len(),
                entries.len() - MAX_SKILL_ENTRIES
            ),
        ));
    }
    let mut loading = Loading {
        skills,
        names,
        dir,
        root: &root,
        max_bytes,
        links,
        notices,
        here: BTreeMap::new(),
    };
    for entry in entries.iter().take(MAX_SKILL_ENTRIES) {
        if let Some(read) = loading.read(entry) {
            loading.admit(read);
        }
    }
    listing_errors(dir, errors, WORDS, loading.notices);
}

/// One directory being loaded into a set.
struct Loading<'a> {
    skills: &'a mut Skills,
    names: &'a mut Names,
    dir: &'a Path,
    root: &'a DirHandle,
    max_bytes: usize,
    links: Links,
    notices: &'a mut Vec<Notice>,
    /// Names given in this directory, and by which file: the first by file name is kept.
    here: BTreeMap<String, PathBuf>,
}

/// A skill file read and parsed, not yet admitted to the set.
struct Read {
    /// Its path relative to the directory.
    rel: PathBuf,
    /// Its path as the notices and the skill's origin name it.
    file: PathBuf,
    skill: SkillFile,
}

impl Loading<'_> {
    fn notice(&mut self, subject: &Path, kind: NoticeKind, message: String) {
        self.notices
            .push(Notice::new(subject.display().to_string(), kind, message));
    }

    /// Opens, reads and parses one entry, or says why it is no skill or was refused.
    fn read(&mut self, entry: &Entry) -> Option<Read> {
        let (dir, root) = (self.dir, self.root);
        let path = dir.join(&entry.name);
        let Some(name) = entry.name.to_str() else {
            self.notice(
                &path,
                NoticeKind::Unknown,
                format!(
                    "The entry `{}` has a name that is not UTF-8, so it is no skill and was \
                     ignored.",
                    entry.name.to_string_lossy()
                ),
            );
            return None;
        };
        // A `.md` file is a skill; anything else is tried as a skill's directory (a
        // symlink to one included), and is no skill if it holds no `SKILL.md`.
        let (stem, rel) = match name.strip_suffix(".md") {
            Some(stem) => (stem, PathBuf::from(name)),
            None => (name, Path::new(name).join("SKILL.md")),
        };
        let file = dir.join(&rel);
        let named = Named {
            root,
            rel: &rel,
            dir,
        };
        let opened = match open_entry(&named, self.links) {
            Ok(opened) => opened,
            Err(refused) if rel.ends_with("SKILL.md") && not_a_skill_dir(&named, &refused) => {
                let what = if entry.is_dir {
                    "is a directory with no `SKILL.md`"
                } else {
                    "is neither a `.md` file nor a directory holding a `SKILL.md`"
                };
                self.notice(
                    &path,
                    NoticeKind::Unknown,
                    format!(
                        "The entry `{}` {what}, so it is no skill and was ignored.",
                        entry.name.to_string_lossy().escape_debug()
                    ),
                );
                return None;
            }
            Err(refused) => {
                let (kind, message) = refusal(&named, refused, WORDS);
                self.notice(&file, kind, message);
                return None;
            }
        };
        let text = match read_whole(opened, self.max_bytes, WORDS) {
            Ok(text) => normalise(&text),
            Err((kind, message)) => {
                self.notice(&file, kind, message);
                return None;
            }
        };
        // Cleaned whole, before it is parsed: the index line and the body alike.
        let (cleaned, removed) = sanitize(&text, self.skills.clean());
        let text = match cleaned {
            std::borrow::Cow::Owned(out) => out,
            std::borrow::Cow::Borrowed(_) => text,
        };
        if let Some(message) = sanitized_message(removed) {
            self.notice(&file, NoticeKind::Sanitized, message);
        }
        match parse(&text, stem) {
            Ok(skill) => Some(Read { rel, file, skill }),
            Err(Problem { at, message, help }) => {
                self.notice(
                    &file,
                    NoticeKind::BadSkill,
                    format!(
                        "At line {}, column {}: {message}, so the skill was not loaded ({help}).",
                        at.0, at.1
                    ),
                );
                None
            }
        }
    }

    /// Puts a skill read from this directory into the set, unless one earlier in the
    /// directory has its name or one already in the set reads alike; a when-to-use line
    /// too long is cut.
    fn admit(&mut self, read: Read) {
        let Read { rel, file, skill } = read;
        let SkillFile {
            name,
            mut when,
            triggers,
            body,
            ..
        } = skill;
        if let Some(first) = self.here.get(&name) {
            let message = format!(
                "Skill `{}` is also defined by `{}` in this directory, which comes first \
                 by file name and was kept, so this one was ignored.",
                shown(&name),
                first.display()
            );
            self.notice(&file, NoticeKind::DuplicateSkill, message);
            return;
        }
        let folded = fold(&name);
        if let Some(message) = self.confusable(&folded, &name) {
            self.notice(&file, NoticeKind::ConfusableSkill, message);
            return;
        }
        let long = when.chars().count();
        if long > MAX_WHEN_TO_USE_CHARS {
            when = cut(&when);
            self.notice(
                &file,
                NoticeKind::WhenCut,
                format!(
                    "Skill `{}`: its `when` is {long} characters, over {MAX_WHEN_TO_USE_CHARS}, so \
                     the index shows it cut to fit, ending in `…`. Shorten it: the index line \
                     is paid for on every turn.",
                    shown(&name)
                ),
            );
        }
        self.here.insert(name.clone(), rel);
        self.names.0.insert(folded, name.clone());
        let replaced = self.skills.insert(Skill {
            name: name.clone(),
            when,
            triggers,
            body,
            origin: SkillOrigin::User(file.clone()),
        });
        if let Some(old) = replaced {
            let what = match &old.origin {
                SkillOrigin::Shipped => "the shipped skill of that name".to_string(),
                SkillOrigin::User(path) => format!("the one loaded from `{}`", path.display()),
            };
            self.notice(
                &file,
                NoticeKind::SkillReplaced,
                format!(
                    "Skill `{}` replaces {what}: the index line and the body are this file's.",
                    shown(&name)
                ),
            );
        }
    }

    /// Why skill `name` (which reads as `folded`) is refused, when a skill already in the
    /// set reads the same but is spelt otherwise.
    fn confusable(&self, folded: &str, name: &str) -> Option<String> {
        let other = self.names.0.get(folded).filter(|&other| *other != name)?;
        let from = match self.skills.get(other).map(|s| &s.origin) {
            Some(SkillOrigin::User(path)) => {
                format!("the skill loaded from `{}`", path.display())
            }
            _ => "the shipped skill".to_string(),
        };
        let (diff, other) = (differences(name, other), escaped(other));
        Some(format!(
            "Skill `{}` reads as `{other}`, {from}, but is spelt otherwise: {} (names are \
             compared ignoring case, invisible characters and letters that look Latin). \
             So it was not loaded: the index would show two lines that read alike. To \
             replace that skill, name it `{other}` exactly; otherwise choose a name of \
             its own, in plain lowercase Latin letters.",
            escaped(name),
            diff,
        ))
    }
}

/// Whether opening `<entry>/SKILL.md` failed because the entry holds no skill: it is a
/// file, not a directory, or a directory without a `SKILL.md` (as opposed to a
/// `SKILL.md` that is there and refused, or a link that leaves the directory).
fn not_a_skill_dir(named: &Named<'_>, refused: &Refused) -> bool {
    match refused {
        // A dangling `SKILL.md` symlink is there, and refused with its own notice.
        Refused::Missing(_) => named.root.read_link(named.rel).is_none(),
        Refused::Io(e) => e.kind() == std::io::ErrorKind::NotADirectory,
        _ => false,
    }
}

/// The first `MAX_WHEN_TO_USE_CHARS - 1` characters, without trailing space, and `…`.
fn cut(when: &str) -> String {
    let end = when
        .char_indices()
        .nth(MAX_WHEN_TO_USE_CHARS - 1)
        .map_or(when.len(), |(i, _)| i);
    format!("{}…", when[..end].trim_end())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    /// Where links cannot be confined (no `openat2`), no link is followed, in either form:
    /// not a linked file, not a linked skill directory, and not a `SKILL.md` that is a link;
    /// a plain directory is still walked without following anything.
    #[test]
    fn without_confinement_no_link_is_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let text = "---\nwhen: Always.\n---\nBody.\n";
        fs::write(dir.join("real.txt"), text).unwrap();
        symlink("real.txt", dir.join("linked.md")).unwrap();
        fs::create_dir_all(dir.join("store/plain")).unwrap();
        fs::write(dir.join("store/plain/SKILL.md"), text).unwrap();
        symlink("store/plain", dir.join("via")).unwrap();
        fs::create_dir(dir.join("inner")).unwrap();
        symlink("../real.txt", dir.join("inner/SKILL.md")).unwrap();
        fs::create_dir(dir.join("ok")).unwrap();
        fs::write(dir.join("ok/SKILL.md"), text).unwrap();
        let why = "this test says links cannot be confined";
        let (mut skills, mut notices) = (Skills::default(), Vec::new());
        load_dir(
            &mut skills,
            &mut Names::of(&Skills::default()),
            dir,
            MAX_SKILL_BYTES,
            Links::Refuse(why),
            &mut notices,
        );
        let got: Vec<(String, NoticeKind)> = notices
            .iter()
            .map(|n| (n.subject.replace(&dir.display().to_string(), ""), n.kind))
            .collect();
        assert_eq!(
            got,
            [
                ("/inner/SKILL.md".to_string(), NoticeKind::SymlinkRefused),
                ("/linked.md".to_string(), NoticeKind::SymlinkRefused),
                ("/real.txt".to_string(), NoticeKind::Unknown),
                ("/store".to_string(), NoticeKind::Unknown),
                ("/via/SKILL.md".to_string(), NoticeKind::SymlinkRefused),
            ]
        );
        assert!(notices[0].message.contains(why));
        let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ok"]);
    }

    #[test]
    fn a_cut_keeps_the_line_under_the_cap() {
        let long = "wörd ".repeat(60);
        let cut = cut(long.trim());
        assert_eq!(cut.chars().count(), MAX_WHEN_TO_USE_CHARS);
        assert!(cut.ends_with("wörd…"), "{cut}");
        // A space where the cut falls is not kept before the `…`.
        let spaced = format!("{} tail", "a".repeat(MAX_WHEN_TO_USE_CHARS - 2));
        assert_eq!(
            super::cut(&spaced),
            format!("{}…", "a".repeat(MAX_WHEN_TO_USE_CHARS - 2))
        );
    }
}
