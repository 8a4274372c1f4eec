//! The runtime overlay loader: reads a user's overrides for the overridable layers from one
//! configuration directory.
//!
//! Only the directory's direct entries are looked at, in sorted file-name order, so the
//! notices come out the same on every run. Every entry is either read into its slot or
//! answered with a [`Notice`]: a file for a locked layer, a file for a layer that ships
//! fixed, an unknown entry, a symlink that leaves the directory, an oversized, non-UTF-8,
//! unreadable or empty file. Nothing panics and nothing is dropped silently.
//!
//! The generated `Overlay` struct is built from the slots this returns; locked layers have
//! no slot, so no file can reach them.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::notice::{Notice, NoticeKind};
use super::text::normalise_trimmed;

/// Default byte cap per overlay file.
pub const DEFAULT_MAX_BYTES: usize = 16 * 1024;

/// Bytes read past the cap: enough to finish a character that straddles it (a UTF-8
/// character is at most four bytes), so a cut character can be told from a bad one.
const LOOKAHEAD: usize = 3;

/// One overridable layer's file in the configuration directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlayFile {
    /// The file name inside the directory, e.g. `identity.md`.
    pub file: &'static str,
    /// The layer whose text the file overrides.
    pub layer: &'static str,
}

/// What the loader knows of the manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlaySpec {
    pub files: &'static [OverlayFile],
    /// Names of locked layers: `<name>.md` is answered with a `Locked` notice.
    pub locked: &'static [&'static str],
    /// Names of layers that are neither locked nor overridable: `<name>.md` gets `NotOverridable`.
    pub fixed: &'static [&'static str],
}

/// The text found for each entry of `spec.files` (same order; `None` when absent or ignored),
/// and every notice.
///
/// A missing `dir` is normal and silent: all `None`, no notice. Each file read is cut to at
/// most `max_bytes` bytes (at a character boundary), stripped of a leading BOM, given LF
/// line endings and trimmed.
#[must_use = "the notices say what was ignored and why; report them"]
pub fn load_overlay(
    dir: &Path,
    spec: &OverlaySpec,
    max_bytes: usize,
) -> (Vec<Option<String>>, Vec<Notice>) {
    let mut slots: Vec<Option<String>> = vec![None; spec.files.len()];
    let mut notices = Vec::new();

    let Some(root) = open_dir(dir, &mut notices) else {
        return (slots, notices);
    };

    let (names, errors) = list(dir, &mut notices);
    for entry in names {
        let path = dir.join(&entry.name);
        let mut notice = |kind, message: String| {
            notices.push(Notice {
                subject: path.display().to_string(),
                kind,
                message,
            });
        };
        let shown = entry.name.to_string_lossy();
        let slot_ids: Vec<usize> = match entry.name.to_str() {
            Some(n) => (0..spec.files.len())
                .filter(|&i| spec.files[i].file == n)
                .collect(),
            None => Vec::new(),
        };
        if slot_ids.is_empty() {
            let (kind, message) = classify_other(&shown, entry.is_dir, spec);
            notice(kind, message);
            continue;
        }
        match read_overlay_file(&path, &root, entry.is_symlink, max_bytes) {
            Outcome::Text(text) => {
                for i in slot_ids {
                    slots[i] = Some(text.clone());
                }
            }
            Outcome::Truncated { text, kept, size } => {
                let size = match size {
                    Some(size) => format!("{size} bytes"),
                    None => format!("more than {max_bytes} bytes"),
                };
                notice(
                    NoticeKind::Truncated,
                    format!(
                        "The file is {size}, over the {max_bytes}-byte cap, so only its first \
                         {kept} bytes (cut at a UTF-8 character boundary) were used and the \
                         rest was ignored."
                    ),
                );
                for i in slot_ids {
                    slots[i] = Some(text.clone());
                }
            }
            Outcome::Ignored(kind, message) => notice(kind, message),
        }
    }
    for e in errors {
        notices.push(Notice {
            subject: dir.display().to_string(),
            kind: NoticeKind::Unreadable,
            message: format!(
                "An entry of the overlay directory could not be listed ({e}), so it was skipped."
            ),
        });
    }
    (slots, notices)
}

/// Checks that `dir` is a directory and returns its canonical path, or reports why not.
/// `None` with no notice when it does not exist.
fn open_dir(dir: &Path, notices: &mut Vec<Notice>) -> Option<PathBuf> {
    let subject = dir.display().to_string();
    let mut notice = |kind, message: String| {
        notices.push(Notice {
            subject: subject.clone(),
            kind,
            message,
        });
    };
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            notice(
                NoticeKind::NotADirectory,
                "The overlay path exists but is not a directory, so no overlay was loaded and \
                 the shipped texts are kept."
                    .to_string(),
            );
            return None;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // A dangling symlink is a configured directory that is gone: say so.
            if fs::symlink_metadata(dir).is_ok() {
                notice(
                    NoticeKind::Unreadable,
                    "The overlay path is a symlink whose target does not exist, so no overlay \
                     was loaded and the shipped texts are kept."
                        .to_string(),
                );
            }
            return None;
        }
        Err(e) => {
            notice(
                NoticeKind::Unreadable,
                format!(
                    "The overlay directory could not be inspected ({e}), so no overlay was \
                     loaded and the shipped texts are kept."
                ),
            );
            return None;
        }
    }
    match fs::canonicalize(dir) {
        Ok(root) => Some(root),
        Err(e) => {
            notice(
                NoticeKind::Unreadable,
                format!(
                    "The overlay directory's real path could not be resolved ({e}), so no \
                     overlay was loaded and the shipped texts are kept."
                ),
            );
            None
        }
    }
}

struct Entry {
    name: OsString,
    is_symlink: bool,
    is_dir: bool,
}

/// The directory's direct entries sorted by name, and the errors met while listing them.
fn list(dir: &Path, notices: &mut Vec<Notice>) -> (Vec<Entry>, Vec<io::Error>) {
    let mut names = Vec::new();
    let mut errors = Vec::new();
    let read = match fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) => {
            notices.push(Notice {
                subject: dir.display().to_string(),
                kind: NoticeKind::Unreadable,
                message: format!(
                    "The overlay directory could not be listed ({e}), so no overlay was loaded \
                     and the shipped texts are kept."
                ),
            });
            return (names, errors);
        }
    };
    for entry in read {
        match entry {
            Ok(entry) => {
                // `file_type` does not follow symlinks; a failure leaves both flags false
                // and the read that follows reports the real problem.
                let ty = entry.file_type().ok();
                names.push(Entry {
                    name: entry.file_name(),
                    is_symlink: ty.is_some_and(|t| t.is_symlink()),
                    is_dir: ty.is_some_and(|t| t.is_dir()),
                });
            }
            Err(e) => errors.push(e),
        }
    }
    names.sort_by(|a, b| a.name.cmp(&b.name));
    (names, errors)
}

/// The notice for an entry that is no overlay file: a locked layer, a fixed layer, or unknown.
fn classify_other(name: &str, is_dir: bool, spec: &OverlaySpec) -> (NoticeKind, String) {
    let read = read_list(spec);
    let layer = if is_dir {
        None
    } else {
        name.strip_suffix(".md")
    };
    if let Some(layer) = layer {
        if spec.locked.contains(&layer) {
            return (
                NoticeKind::Locked,
                format!(
                    "The file `{name}` names the locked layer `{layer}`, which cannot be \
                     overridden, so it was ignored."
                ),
            );
        }
        if spec.fixed.contains(&layer) {
            return (
                NoticeKind::NotOverridable,
                format!(
                    "The file `{name}` names the layer `{layer}`, which ships fixed and has no \
                     overlay file, so it was ignored; {read}."
                ),
            );
        }
    }
    let hint = spec
        .files
        .iter()
        .find(|f| f.file.eq_ignore_ascii_case(name))
        .map(|f| format!(" (did you mean `{}`?)", f.file))
        .unwrap_or_default();
    let what = if is_dir {
        "is a directory, and subdirectories are not searched"
    } else {
        "matches no overlay file"
    };
    (
        NoticeKind::Unknown,
        format!("The entry `{name}` {what}, so it was ignored{hint}; {read}."),
    )
}

/// "the files read here are `a`, `b`", for messages.
fn read_list(spec: &OverlaySpec) -> String {
    match spec.files {
        [] => "no file is read from this directory".to_string(),
        [one] => format!("the only file read here is `{}`", one.file),
        files => {
            let names: Vec<String> = files.iter().map(|f| format!("`{}`", f.file)).collect();
            format!("the files read here are {}", names.join(", "))
        }
    }
}

/// The outcome of reading one overlay file.
enum Outcome {
    Text(String),
    Truncated {
        text: String,
        kept: usize,
        size: Option<u64>,
    },
    Ignored(NoticeKind, String),
}

const KEPT: &str = "the shipped text is kept";

fn read_overlay_file(path: &Path, root: &Path, is_symlink: bool, max_bytes: usize) -> Outcome {
    if is_symlink {
        match fs::canonicalize(path) {
            Ok(target) if target.starts_with(root) => {}
            Ok(target) => {
                return Outcome::Ignored(
                    NoticeKind::Escapes,
                    format!(
                        "The file is a symlink to `{}`, outside the overlay directory, so it \
                         was not followed and {KEPT}.",
                        target.display()
                    ),
                )
            }
            Err(e) => {
                return Outcome::Ignored(
                    NoticeKind::Unreadable,
                    format!(
                        "The file is a symlink whose target cannot be resolved ({e}), so it \
                         was ignored and {KEPT}."
                    ),
                )
            }
        }
    }
    // Check the kind before opening: opening a FIFO would block, and reading a directory
    // fails with an error less clear than this one.
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => {}
        Ok(meta) => {
            let what = if meta.is_dir() {
                "a directory"
            } else {
                "not a regular file"
            };
            return Outcome::Ignored(
                NoticeKind::Unreadable,
                format!("The path is {what}, not a readable file, so it was ignored and {KEPT}."),
            );
        }
        Err(e) => return unreadable(&e),
    }
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) => return unreadable(&e),
    };
    let size = file.metadata().ok().map(|m| m.len());
    let limit = max_bytes.saturating_add(LOOKAHEAD) as u64;
    let mut bytes = Vec::new();
    if let Err(e) = file.take(limit).read_to_end(&mut bytes) {
        return unreadable(&e);
    }
    let truncated = bytes.len() > max_bytes;
    // Bytes past the cap are looked at only to finish a character that straddles it.
    let valid_len = match std::str::from_utf8(&bytes) {
        Ok(_) => bytes.len(),
        // The first bad byte lies past the cap, among bytes that are not kept.
        Err(e) if truncated && e.valid_up_to() >= max_bytes => e.valid_up_to(),
        Err(e) => {
            let what = if e.error_len().is_none() {
                "ends inside a character"
            } else {
                "has an invalid byte"
            };
            return Outcome::Ignored(
                NoticeKind::NotUtf8,
                format!(
                    "The file is not valid UTF-8 (it {what} at byte offset {}), so it was \
                     ignored and {KEPT}.",
                    e.valid_up_to()
                ),
            );
        }
    };
    // Valid by the check above, so the default is never taken.
    let valid = std::str::from_utf8(&bytes[..valid_len]).unwrap_or_default();
    let kept = if truncated {
        floor_char_boundary(valid, max_bytes)
    } else {
        valid.len()
    };
    let text = normalise_trimmed(&valid[..kept]);
    if text.is_empty() {
        let message = if truncated {
            format!(
                "The first {kept} bytes kept under the {max_bytes}-byte cap hold no text once \
                 normalised (BOM, line endings, surrounding whitespace), so the file was \
                 ignored and {KEPT}."
            )
        } else {
            format!(
                "The file is empty once normalised (BOM, line endings, surrounding \
                 whitespace), so it was ignored and {KEPT}."
            )
        };
        return Outcome::Ignored(NoticeKind::Empty, message);
    }
    if truncated {
        Outcome::Truncated { text, kept, size }
    } else {
        Outcome::Text(text)
    }
}

fn unreadable(e: &io::Error) -> Outcome {
    Outcome::Ignored(
        NoticeKind::Unreadable,
        format!("The file could not be read ({e}), so it was ignored and {KEPT}."),
    )
}

/// The largest character boundary of `s` at or below `at` (`str::floor_char_boundary` is
/// newer than this crate's minimum Rust).
fn floor_char_boundary(s: &str, at: usize) -> usize {
    if at >= s.len() {
        return s.len();
    }
    let mut at = at;
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}
