//! Reading a user's directory by one set of rules, shared by the overlay loader and the
//! user-skill loader: open the directory once, list it from the descriptor, open each
//! entry beneath it (or without following a link where the system cannot confine one),
//! decide from the open descriptor, and word every refusal as a [`Notice`].
//!
//! The messages name the directory and say what happens instead (the shipped text is kept,
//! no skill is loaded), so each loader passes its own [`Words`].

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::safe_open::{DirHandle, Entry, Opened, Refused};
use doctrine_core::introspect::{Notice, NoticeKind};

/// How a loader's messages name its directory and what a refusal leaves in place.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Words {
    /// "overlay": the directory is "the overlay directory", its path "the overlay path".
    pub what: &'static str,
    /// What a refused file leaves: "the shipped text is kept".
    pub kept: &'static str,
    /// What a directory that cannot be read leaves: "no overlay was loaded and the shipped
    /// texts are kept".
    pub none: &'static str,
}

/// How symlinks among the entries are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Links {
    /// Followed while they stay inside the directory, where the system can enforce that
    /// (Linux `openat2`); refused elsewhere.
    FollowBeneath,
    /// Always refused, for `why`: what non-Linux systems do, forced in tests.
    #[cfg_attr(not(test), allow(dead_code))]
    Refuse(&'static str),
}

/// A file's size over its cap, in words: the size when opened, or, for a file that grew
/// past the cap after it was opened, "more than" the cap.
pub(crate) fn size_over(size: u64, max_bytes: usize) -> String {
    if size > max_bytes as u64 {
        format!("{size} bytes")
    } else {
        format!("more than {max_bytes} bytes")
    }
}

/// Opens `dir` as a directory, or reports why not. `None` with no notice when it does not
/// exist.
pub(crate) fn open_dir(dir: &Path, words: Words, notices: &mut Vec<Notice>) -> Option<DirHandle> {
    let Words { what, none, .. } = words;
    let subject = dir.display().to_string();
    let mut notice = |kind, message: String| {
        notices.push(Notice::new(subject.clone(), kind, message));
    };
    let e = match DirHandle::open(dir) {
        Ok(root) => return Some(root),
        Err(e) => e,
    };
    match e.kind() {
        // Also when a component of the path is a file; only a path that is itself a
        // file gets the plainer notice.
        io::ErrorKind::NotADirectory if fs::metadata(dir).is_ok_and(|m| !m.is_dir()) => {
            notice(
                NoticeKind::NotADirectory,
                format!("The {what} path exists but is not a directory, so {none}."),
            );
        }
        io::ErrorKind::NotFound => {
            // A dangling symlink is a configured directory that is gone: say so.
            if fs::symlink_metadata(dir).is_ok() {
                notice(
                    NoticeKind::Unreadable,
                    format!("The {what} path is a symlink whose target does not exist, so {none}."),
                );
            }
        }
        _ => notice(
            NoticeKind::Unreadable,
            format!("The {what} directory could not be opened ({e}), so {none}."),
        ),
    }
    None
}

/// The directory's direct entries sorted by name, and the errors met while listing them.
pub(crate) fn list(
    dir: &Path,
    root: &DirHandle,
    words: Words,
    notices: &mut Vec<Notice>,
) -> (Vec<Entry>, Vec<io::Error>) {
    match root.entries() {
        Ok((mut names, errors)) => {
            names.sort_by(|a, b| a.name.cmp(&b.name));
            (names, errors)
        }
        Err(e) => {
            notices.push(Notice::new(
                dir.display().to_string(),
                NoticeKind::Unreadable,
                format!(
                    "The {} directory could not be listed ({e}), so {}.",
                    words.what, words.none
                ),
            ));
            (Vec::new(), Vec::new())
        }
    }
}

/// The notices for entries that could not be listed.
pub(crate) fn listing_errors(
    dir: &Path,
    errors: Vec<io::Error>,
    words: Words,
    notices: &mut Vec<Notice>,
) {
    for e in errors {
        notices.push(Notice::new(
            dir.display().to_string(),
            NoticeKind::Unreadable,
            format!(
                "An entry of the {} directory could not be listed ({e}), so it was skipped.",
                words.what
            ),
        ));
    }
}

/// One entry (a name, or `name/FILE` one level down), and what is needed to word messages
/// about it.
pub(crate) struct Named<'a> {
    pub root: &'a DirHandle,
    /// The entry's path relative to the directory.
    pub rel: &'a Path,
    /// The directory as given.
    pub dir: &'a Path,
}

/// Opens the entry: beneath the directory where the system can confine a link to it,
/// otherwise without following a link at all (in any component of `rel`).
pub(crate) fn open_entry(entry: &Named<'_>, links: Links) -> Result<Opened, Refused> {
    let why = match links {
        Links::FollowBeneath => match entry.root.open_beneath(entry.rel) {
            Err(Refused::Unconfined(why)) => why,
            decided => return decided,
        },
        Links::Refuse(why) => why,
    };
    let parts: Vec<&OsStr> = entry
        .rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part),
            _ => None,
        })
        .collect();
    let Some((file, dirs)) = parts.split_last() else {
        return Err(Refused::Missing(io::ErrorKind::NotFound.into()));
    };
    let mut below: Option<DirHandle> = None;
    for dir in dirs {
        let here = below.as_ref().unwrap_or(entry.root);
        below = Some(here.open_subdir_nofollow(dir, why)?);
    }
    below
        .as_ref()
        .unwrap_or(entry.root)
        .open_entry_nofollow(file, why)
}

/// The kind and message for an entry that was not opened, or opened and refused.
pub(crate) fn refusal(entry: &Named<'_>, refused: Refused, words: Words) -> (NoticeKind, String) {
    let kept = words.kept;
    // Read after the decision, only to name the link in the message; the entry may have
    // changed since, so every message also reads right without it.
    let target = || entry.root.read_link(entry.rel);
    match refused {
        Refused::Escapes => (NoticeKind::Escapes, escape_message(entry, words)),
        Refused::Symlink(why) => (
            NoticeKind::SymlinkRefused,
            format!(
                "The file is a symlink, which was not followed because {why}, so it was \
                 ignored and {kept}. Put the text in a regular file instead."
            ),
        ),
        Refused::NotRegular(kind) => (
            NoticeKind::Unreadable,
            format!(
                "The path is {}, not a regular file, so it was ignored and {kept}.",
                kind.describe()
            ),
        ),
        Refused::Missing(e) => match target() {
            Some(t) => (
                NoticeKind::Unreadable,
                format!(
                    "The file is a symlink to `{}` whose target cannot be resolved ({e}), so \
                     it was ignored and {kept}.",
                    t.display()
                ),
            ),
            None => unreadable(&e, words),
        },
        Refused::Io(e) => match target() {
            Some(t) => (
                NoticeKind::Unreadable,
                format!(
                    "The file is a symlink to `{}` that could not be opened ({e}), so it was \
                     ignored and {kept}.",
                    t.display()
                ),
            ),
            None => unreadable(&e, words),
        },
        // `open_entry` turns this into a no-follow open; kept for completeness.
        Refused::Unconfined(why) => (
            NoticeKind::SymlinkRefused,
            format!("The file was not opened because {why}, so it was ignored and {kept}."),
        ),
    }
}

/// The symlink on the way to the entry, for a message: the entry itself (`None`) or the
/// directory above it that is one, and where it points.
fn link_on_path<'p>(entry: &Named<'p>) -> Option<(Option<&'p Path>, PathBuf)> {
    if let Some(target) = entry.root.read_link(entry.rel) {
        return Some((None, target));
    }
    let mut above = entry.rel.parent();
    while let Some(dir) = above.filter(|d| !d.as_os_str().is_empty()) {
        if let Some(target) = entry.root.read_link(dir) {
            return Some((Some(dir), target));
        }
        above = dir.parent();
    }
    None
}

/// Why a link that the kernel refused to follow out of the directory was not read.
fn escape_message(entry: &Named<'_>, words: Words) -> String {
    let Words { what, kept, .. } = words;
    // Read after the decision, only to word the message.
    let Some((above, target)) = link_on_path(entry) else {
        // Swapped back to a regular file since; the open did see a way out.
        return format!(
            "The file led outside the {what} directory when it was opened (through a \
             symlink), so it was not followed and {kept}."
        );
    };
    let link = match above {
        None => "The file is a symlink".to_string(),
        Some(dir) => format!("The path goes through `{}`, a symlink", dir.display()),
    };
    let shown = target.display();
    // Lexical, and only to pick the wording: the kernel already refused the link.
    let inside = |t: &Path| {
        t.starts_with(entry.dir)
            || fs::canonicalize(entry.dir).is_ok_and(|real| t.starts_with(real))
    };
    if target.is_absolute() && inside(&target) {
        format!(
            "{link} to the absolute path `{shown}`; only relative links that stay inside \
             the {what} directory are followed, so it was not followed and {kept}."
        )
    } else if target.is_absolute() {
        format!(
            "{link} to `{shown}`, outside the {what} directory, so it was not followed and \
             {kept}."
        )
    } else {
        format!(
            "{link} to `{shown}`, which leads outside the {what} directory, so it was not \
             followed and {kept}."
        )
    }
}

pub(crate) fn unreadable(e: &io::Error, words: Words) -> (NoticeKind, String) {
    (
        NoticeKind::Unreadable,
        format!(
            "The file could not be read ({e}), so it was ignored and {}.",
            words.kept
        ),
    )
}

/// A file with `n` (two or more) hard links is refused: it may be the same file as one
/// outside the directory.
pub(crate) fn hard_linked(n: u64, words: Words) -> (NoticeKind, String) {
    (
        NoticeKind::HardLinked,
        format!(
            "The file has {n} hard links, so it may be the same file as one outside the \
             {} directory; hard-linked files are not read, so it was ignored and {}. Put \
             the text in a file of its own.",
            words.what, words.kept
        ),
    )
}

/// Bytes that are not UTF-8, where `e` says.
pub(crate) fn not_utf8(e: &std::str::Utf8Error, words: Words) -> (NoticeKind, String) {
    let what = if e.error_len().is_none() {
        "ends inside a character"
    } else {
        "has an invalid byte"
    };
    (
        NoticeKind::NotUtf8,
        format!(
            "The file is not valid UTF-8 (it {what} at byte offset {}), so it was ignored and \
             {}.",
            e.valid_up_to(),
            words.kept
        ),
    )
}

/// Reads an opened file whole, refusing a hard-linked one (see [`hard_linked`]) and one
/// over `cap` bytes; the bytes as read, or the notice's kind and message.
#[cfg(feature = "skills")]
pub(crate) fn read_whole(
    file: Opened,
    cap: usize,
    words: Words,
) -> Result<String, (NoticeKind, String)> {
    if let Some(n @ 2..) = file.links {
        return Err(hard_linked(n, words));
    }
    let size = file.size;
    let bytes = file
        .read_at_most((cap as u64).saturating_add(1))
        .map_err(|e| unreadable(&e, words))?;
    if bytes.len() > cap {
        return Err((
            NoticeKind::TooLarge,
            format!(
                "The file is {}, over the {cap}-byte cap, so it was ignored and {}.",
                size_over(size, cap),
                words.kept
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| not_utf8(&e.utf8_error(), words))
}
