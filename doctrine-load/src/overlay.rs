//! The runtime overlay loader: reads a user's overrides for the overridable layers from one
//! configuration directory.
//!
//! Only the directory's direct entries are looked at, in sorted file-name order, so the
//! notices come out the same on every run. Every entry is either read into its slot or
//! answered with a [`Notice`]: a file for a locked layer, a file for a layer that ships
//! fixed, an unknown entry, a symlink that leaves the directory, anything that is not a
//! regular file, a hard-linked file, an oversized, non-UTF-8, unreadable or empty file.
//! Nothing panics and nothing is dropped silently.
//!
//! Each file is opened first and judged from the open descriptor (see [`crate::safe_open`]):
//! the directory is opened once, entries are listed and opened relative to it, without
//! blocking, and on Linux with `openat2(RESOLVE_BENEATH)` so a symlink out of the
//! directory fails in the kernel. Swapping an entry between the listing and the read can
//! change which notice is given, never what is read.
//!
//! The generated `Overlay` struct is built from the slots this returns; locked layers have
//! no slot, so no file can reach them.

use std::path::Path;

use crate::clean::sanitize;
use crate::safe_open::{Opened, Refused};
use crate::template::{user_checked, TemplateSpec};
use crate::text::{floor_char_boundary, fold, normalise_trimmed_at, Lead};
use crate::user_dir::{
    hard_linked, list, listing_errors, not_utf8, open_dir, open_entry, refusal, size_over,
    unreadable, Links, Named, Words,
};
use doctrine_core::__private::{Clean, Removed};
use doctrine_core::introspect::{Notice, NoticeKind};

/// How the overlay loader's notices word a refusal.
const WORDS: Words = Words {
    what: "overlay",
    kept: KEPT,
    none: "no overlay was loaded and the shipped texts are kept",
};

/// The byte cap per overlay file unless the manifest's `overlay_cap` sets another.
pub const MAX_OVERLAY_BYTES: usize = 16 * 1024;

/// The byte cap on a selector's file (the user copy and a path alike, both read by this
/// loader's rules), unless the layer's `overlay_cap` says otherwise: a shared layer is a
/// page of doctrine, not a dump.
pub const MAX_SELECTOR_BYTES: usize = 64 * 1024;

/// Bytes read past the cap: enough to finish a character that straddles it (a UTF-8
/// character is at most four bytes), so a cut character can be told from a bad one.
const LOOKAHEAD: usize = 3;

/// One overridable layer's file in the configuration directory, and the manifest's policy
/// for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OverlayFile {
    /// The file name inside the directory, e.g. `identity.md`.
    pub file: &'static str,
    /// The layer whose text the file overrides.
    pub layer: &'static str,
    /// The most bytes read from it (`overlay_cap`; a caller's cap may only lower it).
    pub cap: usize,
    /// Over the cap: keep the shipped text (`oversize = "refuse"`) instead of using the
    /// file's start.
    pub refuse_oversize: bool,
    /// Earlier shipped versions (`overlay_ignore`): a user copy byte-identical to one of
    /// them is a copy nobody edited, and does not shadow the current shipped text.
    pub ignore: &'static [ShippedVersion],
    /// An empty file turns the layer off (`empty = "off"`): its slot is `Some("")`.
    pub empty_off: bool,
    /// The file belongs to a selector layer (`selector`): `load_overlay` passes it by in
    /// silence, and the selector reads it only when it says `on`.
    pub selected: bool,
    /// What is cleaned out of the file's text once read (the manifest's `sanitize`), with
    /// a `Sanitized` notice when anything was.
    pub clean: Clean,
    /// The file is a template with the layer's facts (`overlay_interpolate`), checked
    /// against what the layer may use when it is read.
    pub template: Option<&'static TemplateSpec>,
}

impl OverlayFile {
    /// A file with the default policy: capped at [`MAX_OVERLAY_BYTES`], truncated over it.
    pub const fn new(file: &'static str, layer: &'static str) -> Self {
        OverlayFile {
            file,
            layer,
            cap: MAX_OVERLAY_BYTES,
            refuse_oversize: false,
            ignore: &[],
            empty_off: false,
            selected: false,
            clean: Clean::NONE,
            template: None,
        }
    }

    /// The file is read as a template with the layer's facts (`overlay_interpolate`).
    pub const fn interpolating(mut self, spec: &'static TemplateSpec) -> Self {
        self.template = Some(spec);
        self
    }

    /// Its text cleaned as `clean` says (the manifest's `sanitize`).
    pub const fn sanitizing(mut self, clean: Clean) -> Self {
        self.clean = clean;
        self
    }

    /// Capped at `cap` bytes (`overlay_cap`).
    pub const fn capped(mut self, cap: usize) -> Self {
        self.cap = cap;
        self
    }

    /// Over the cap, the shipped text is kept (`oversize = "refuse"`).
    pub const fn refusing_oversize(mut self) -> Self {
        self.refuse_oversize = true;
        self
    }

    /// A copy of one of these earlier shipped versions is passed by (`overlay_ignore`).
    pub const fn ignoring(mut self, ignore: &'static [ShippedVersion]) -> Self {
        self.ignore = ignore;
        self
    }

    /// An empty file turns the layer off (`empty = "off"`).
    pub const fn empty_off(mut self) -> Self {
        self.empty_off = true;
        self
    }

    /// A selector layer's file (`selector`), capped at [`MAX_SELECTOR_BYTES`], truncated
    /// over it.
    pub const fn of_selector(file: &'static str, layer: &'static str) -> Self {
        OverlayFile {
            cap: MAX_SELECTOR_BYTES,
            selected: true,
            ..OverlayFile::new(file, layer)
        }
    }
}

/// An earlier shipped version of a layer's text: its size and
/// [`fingerprint`](doctrine_core::cache::fingerprint), computed at compile time from a file in the crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShippedVersion {
    pub size: u64,
    pub fingerprint: u64,
}

/// What the loader knows of the manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
/// most its cap (the smaller of its `cap` and `max_bytes`, at a character boundary), or
/// refused over it where the manifest says so, stripped of a leading BOM, given LF line
/// endings and trimmed.
#[must_use = "the notices say what was ignored and why; report them"]
pub fn load_overlay(
    dir: &Path,
    spec: &OverlaySpec,
    max_bytes: usize,
) -> (Vec<Option<String>>, Vec<Notice>) {
    load_with(dir, spec, Cap::AtMost(max_bytes), Links::FollowBeneath)
}

/// As [`load_overlay`], every file capped at `cap` whatever its own `cap` (the caller's
/// choice, which generated code has checked against the manifest's ceiling).
#[must_use = "the notices say what was ignored and why; report them"]
pub fn load_overlay_at(
    dir: &Path,
    spec: &OverlaySpec,
    cap: usize,
) -> (Vec<Option<String>>, Vec<Notice>) {
    load_with(dir, spec, Cap::Exactly(cap), Links::FollowBeneath)
}

/// How a caller's cap applies to a file's own.
#[derive(Clone, Copy, Debug)]
enum Cap {
    /// Lowers it, never raises it.
    AtMost(usize),
    /// Replaces it.
    Exactly(usize),
}

impl Cap {
    fn of(self, own: usize) -> usize {
        match self {
            Cap::AtMost(n) => own.min(n),
            Cap::Exactly(n) => n,
        }
    }
}

/// A cap asked of `Overlay::load_with_cap` over the manifest's ceiling (`overlay_cap_max`,
/// or without one the smallest `overlay_cap`): nothing was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlayCapError {
    /// The cap asked for, in bytes.
    pub cap: usize,
    /// The most the manifest allows.
    pub ceiling: usize,
}

impl std::fmt::Display for OverlayCapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "an overlay cap of {} bytes is over the manifest's ceiling of {} bytes \
             (`overlay_cap_max`)",
            self.cap, self.ceiling
        )
    }
}

impl std::error::Error for OverlayCapError {}

fn load_with(
    dir: &Path,
    spec: &OverlaySpec,
    cap: Cap,
    links: Links,
) -> (Vec<Option<String>>, Vec<Notice>) {
    let mut slots: Vec<Option<String>> = vec![None; spec.files.len()];
    let mut notices = Vec::new();

    let Some(root) = open_dir(dir, WORDS, &mut notices) else {
        return (slots, notices);
    };

    let (names, errors) = list(dir, &root, WORDS, &mut notices);
    for entry in names {
        let path = dir.join(&entry.name);
        let mut notice = |kind, message: String| {
            notices.push(Notice::new(path.display().to_string(), kind, message));
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
        let named = Named {
            root: &root,
            rel: Path::new(&entry.name),
            dir,
        };
        let policy = &spec.files[slot_ids[0]];
        // A selector's file is read by `Selectors::resolve`, only when its selector says
        // `on`; the directory listing passes it by without a word.
        if policy.selected {
            continue;
        }
        let max_bytes = cap.of(policy.cap);
        let outcome = read_overlay_file(&named, links, max_bytes, policy.ignore);
        let (outcome, removed) = cleaned(outcome, policy.clean);
        let outcome = templated(outcome, policy);
        let (slot, said) = judge(outcome, policy, max_bytes);
        if let Some((kind, message)) = said {
            notice(kind, message);
        }
        if let Some(message) = sanitized_message(removed) {
            notice(NoticeKind::Sanitized, message);
        }
        if let Some(text) = slot {
            for i in slot_ids {
                slots[i] = Some(text.clone());
            }
        }
    }
    listing_errors(dir, errors, WORDS, &mut notices);
    (slots, notices)
}

/// What one file's outcome means under its policy: the slot's text (`Some("")` when an
/// empty file turns the layer off) and the notice to give, if any.
fn judge(
    outcome: Outcome,
    policy: &OverlayFile,
    max_bytes: usize,
) -> (Option<String>, Option<(NoticeKind, String)>) {
    match outcome {
        Outcome::Truncated { size, .. } if policy.refuse_oversize => {
            let size = size_over(size, max_bytes);
            let message = format!(
                "The file is {size}, over the {max_bytes}-byte cap, and the manifest refuses \
                 oversized files (`oversize = \"refuse\"`), so it was ignored and {KEPT}."
            );
            (None, Some((NoticeKind::TooLarge, message)))
        }
        Outcome::Text(text, _) => (Some(text), None),
        Outcome::Truncated {
            text, kept, size, ..
        } => {
            let size = size_over(size, max_bytes);
            let message = format!(
                "The file is {size}, over the {max_bytes}-byte cap, so only its first {kept} \
                 bytes (cut at a UTF-8 character boundary) were used and the rest was ignored."
            );
            (Some(text), Some((NoticeKind::Truncated, message)))
        }
        Outcome::Ignored(NoticeKind::Empty, _) if policy.empty_off => {
            let message = "The file is empty once normalised (BOM, line endings, surrounding \
                           whitespace), and the manifest lets an empty file turn this layer off \
                           (`empty = \"off\"`), so the layer is left out."
                .to_string();
            (Some(String::new()), Some((NoticeKind::TurnedOff, message)))
        }
        Outcome::Ignored(kind, message) => (None, Some((kind, message))),
    }
}

/// One overlay file read on its own, under its policy: what a selector set to `on` finds
/// in the user's directory.
#[derive(Debug)]
pub(crate) enum UserCopy {
    /// No such file (or no such directory): nothing to say.
    Absent,
    /// The text to use (perhaps cut at the cap, with a notice).
    Text(String),
    /// An empty file where the manifest says `empty = "off"`.
    TurnedOff,
    /// Byte for byte an earlier shipped version (`overlay_ignore`): bypassed.
    Legacy,
    /// Refused with a notice; the shipped text is the one to use.
    Refused,
}

/// Reads the single file `policy.file` from `dir` by the loader's rules (opened beneath the
/// directory, judged from the descriptor, capped, the legacy bypass), without listing or
/// judging anything else in the directory.
pub(crate) fn read_one(
    dir: &Path,
    policy: &OverlayFile,
    max_bytes: usize,
) -> (UserCopy, Vec<Notice>) {
    let mut notices = Vec::new();
    let Some(root) = open_dir(dir, WORDS, &mut notices) else {
        let found = if notices.is_empty() {
            UserCopy::Absent
        } else {
            UserCopy::Refused
        };
        return (found, notices);
    };
    let named = Named {
        root: &root,
        rel: Path::new(policy.file),
        dir,
    };
    let max_bytes = policy.cap.min(max_bytes);
    let outcome = match open_entry(&named, Links::FollowBeneath) {
        // A missing file is the usual case; a dangling symlink is not, and is reported.
        Err(Refused::Missing(_)) if root.read_link(named.rel).is_none() => {
            return (UserCopy::Absent, notices);
        }
        Err(refused) => ignored(refusal(&named, refused, WORDS)),
        Ok(file) => read_opened(file, max_bytes, policy.ignore),
    };
    let (outcome, removed) = cleaned(outcome, policy.clean);
    let outcome = templated(outcome, policy);
    let (slot, said) = judge(outcome, policy, max_bytes);
    let found = match (slot, &said) {
        (Some(text), _) if text.is_empty() => UserCopy::TurnedOff,
        (Some(text), _) => UserCopy::Text(text),
        (None, Some((NoticeKind::ShippedCopy, _))) => UserCopy::Legacy,
        (None, _) => UserCopy::Refused,
    };
    let subject = dir.join(policy.file).display().to_string();
    if let Some((kind, message)) = said {
        notices.push(Notice::new(subject.clone(), kind, message));
    }
    if let Some(message) = sanitized_message(removed) {
        notices.push(Notice::new(subject, NoticeKind::Sanitized, message));
    }
    (found, notices)
}

/// The notice for an entry that is no overlay file: a locked layer, a fixed layer, or unknown.
fn classify_other(name: &str, is_dir: bool, spec: &OverlaySpec) -> (NoticeKind, String) {
    let read = read_list(spec);
    // Compared as a person (or a case-insensitive file system) reads the name, so
    // `SAFETY.md` and `safety\u{200b}.md` are answered as the locked layer's file.
    let folded = fold(name);
    let stem = if is_dir {
        None
    } else {
        folded.strip_suffix(".md")
    };
    let find = |layers: &'static [&'static str]| {
        stem.and_then(|stem| layers.iter().copied().find(|l| fold(l) == stem))
    };
    // Invisible characters are shown escaped, so the message says what is really there.
    let shown = name.escape_debug();
    if let Some(layer) = find(spec.locked) {
        return (
            NoticeKind::Locked,
            format!(
                "The file `{shown}` names the locked layer `{layer}`, which cannot be \
                 overridden, so it was ignored."
            ),
        );
    }
    if let Some(layer) = find(spec.fixed) {
        return (
            NoticeKind::NotOverridable,
            format!(
                "The file `{shown}` names the layer `{layer}`, which ships fixed and has no \
                 overlay file, so it was ignored; {read}."
            ),
        );
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

/// The outcome's text cleaned as `clean` says, and what went: a file left with no text is
/// empty (and so ignored, or turns its layer off where the manifest says so).
fn cleaned(outcome: Outcome, clean: Clean) -> (Outcome, Removed) {
    let clean_text = |text: String| match sanitize(&text, clean) {
        (std::borrow::Cow::Borrowed(_), removed) => (text, removed),
        (std::borrow::Cow::Owned(out), removed) => (out.trim().to_string(), removed),
    };
    match outcome {
        Outcome::Text(text, lead) => match clean_text(text) {
            (text, removed) if text.is_empty() => (emptied(), removed),
            (text, removed) => (Outcome::Text(text, lead), removed),
        },
        Outcome::Truncated {
            text,
            kept,
            size,
            lead,
        } => match clean_text(text) {
            (text, removed) if text.is_empty() => (emptied(), removed),
            (text, removed) => {
                let truncated = Outcome::Truncated {
                    text,
                    kept,
                    size,
                    lead,
                };
                (truncated, removed)
            }
        },
        ignored => (ignored, Removed::default()),
    }
}

/// A file whose layer reads it as a template (`overlay_interpolate`), checked against
/// the names the layer may use: refused, with where and why, when it does not read.
fn templated(outcome: Outcome, policy: &OverlayFile) -> Outcome {
    let (Some(spec), Outcome::Text(text, lead) | Outcome::Truncated { text, lead, .. }) =
        (policy.template, &outcome)
    else {
        return outcome;
    };
    match user_checked(text, *lead, spec) {
        Ok(()) => outcome,
        Err(message) => Outcome::Ignored(
            NoticeKind::TemplateRejected,
            format!("{message}; the file was ignored and {KEPT}."),
        ),
    }
}

/// A file that held nothing but what `sanitize` removes.
fn emptied() -> Outcome {
    Outcome::Ignored(
        NoticeKind::Empty,
        format!(
            "The file holds nothing once cleaned as the manifest's `sanitize` says (tag or \
             invisible characters alone), so it was ignored and {KEPT}."
        ),
    )
}

/// The `Sanitized` notice's words for a file `sanitize` changed, if it did.
pub(crate) fn sanitized_message(removed: Removed) -> Option<String> {
    (!removed.is_none()).then(|| {
        format!("{removed} from the file's text (the manifest's `sanitize`) before it was used")
    })
}

/// The outcome of reading one overlay file.
enum Outcome {
    Text(String, Lead),
    Truncated {
        text: String,
        kept: usize,
        /// The file's size when opened.
        size: u64,
        lead: Lead,
    },
    Ignored(NoticeKind, String),
}

const KEPT: &str = "the shipped text is kept";

fn ignored((kind, message): (NoticeKind, String)) -> Outcome {
    Outcome::Ignored(kind, message)
}

fn read_overlay_file(
    entry: &Named<'_>,
    links: Links,
    max_bytes: usize,
    ignore: &[ShippedVersion],
) -> Outcome {
    match open_entry(entry, links) {
        Ok(file) => read_opened(file, max_bytes, ignore),
        Err(refused) => ignored(refusal(entry, refused, WORDS)),
    }
}

/// Judges and reads a file already opened: single link, the legacy bypass, the cap, UTF-8,
/// non-empty.
fn read_opened(file: Opened, max_bytes: usize, ignore: &[ShippedVersion]) -> Outcome {
    if let Some(n @ 2..) = file.links {
        return ignored(hard_linked(n, WORDS));
    }
    let size = file.size;
    // An earlier shipped version is read whole (its exact size, no more) to compare it.
    let legacy = ignore.iter().any(|s| s.size == size);
    let limit = match legacy {
        true => size.max(max_bytes.saturating_add(LOOKAHEAD) as u64),
        false => max_bytes.saturating_add(LOOKAHEAD) as u64,
    };
    let mut bytes = match file.read_at_most(limit) {
        Ok(bytes) => bytes,
        Err(e) => return ignored(unreadable(&e, WORDS)),
    };
    if legacy && bytes.len() as u64 == size {
        let fingerprint = doctrine_core::cache::fingerprint(&bytes);
        if ignore.contains(&ShippedVersion { size, fingerprint }) {
            return Outcome::Ignored(
                NoticeKind::ShippedCopy,
                "The file is byte for byte an earlier shipped version of this layer, a copy \
                 nobody edited, so it was ignored and the current shipped text is used."
                    .to_string(),
            );
        }
    }
    bytes.truncate(max_bytes.saturating_add(LOOKAHEAD));
    let truncated = bytes.len() > max_bytes;
    // Bytes past the cap are looked at only to finish a character that straddles it.
    let valid_len = match std::str::from_utf8(&bytes) {
        Ok(_) => bytes.len(),
        // The first bad byte lies past the cap, among bytes that are not kept.
        Err(e) if truncated && e.valid_up_to() >= max_bytes => e.valid_up_to(),
        Err(e) => return ignored(not_utf8(&e, WORDS)),
    };
    // Valid by the check above, so the default is never taken.
    let valid = std::str::from_utf8(&bytes[..valid_len]).unwrap_or_default();
    let kept = if truncated {
        floor_char_boundary(valid, max_bytes)
    } else {
        valid.len()
    };
    let (text, lead) = normalise_trimmed_at(&valid[..kept]);
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
        Outcome::Truncated {
            text,
            kept,
            size,
            lead,
        }
    } else {
        Outcome::Text(text, lead)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;

    const SPEC: OverlaySpec = OverlaySpec {
        files: &[
            OverlayFile::new("identity.md", "identity"),
            OverlayFile::new("style.md", "style"),
        ],
        locked: &[],
        fixed: &[],
    };

    /// A selector layer's user copy is the selector's to read: the overlay loader passes it
    /// by in silence and fills no slot with it.
    #[test]
    fn a_selectors_file_is_passed_by_in_silence() {
        const WITH_SELECTOR: OverlaySpec = OverlaySpec {
            files: &[
                OverlayFile::new("identity.md", "identity"),
                OverlayFile {
                    selected: true,
                    ..OverlayFile::new("spine.md", "spine")
                },
            ],
            locked: &[],
            fixed: &[],
        };
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("spine.md"), "Mine.").unwrap();
        fs::write(tmp.path().join("identity.md"), "Me.").unwrap();
        fs::write(tmp.path().join("unknown.md"), "x").unwrap();
        let (slots, notices) = load_overlay(tmp.path(), &WITH_SELECTOR, MAX_OVERLAY_BYTES);
        assert_eq!(slots, [Some("Me.".to_string()), None]);
        let kinds: Vec<NoticeKind> = notices.iter().map(|n| n.kind).collect();
        assert_eq!(kinds, [NoticeKind::Unknown], "{notices:?}");
    }

    /// What systems without `openat2` do (non-Linux unix, old kernels, sandboxes): a
    /// symlink is refused even when it stays inside, and says why; files are still read.
    #[test]
    fn symlinks_are_refused_where_links_cannot_be_confined() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::write(dir.join("me.txt"), "Me.").unwrap();
        std::os::unix::fs::symlink("me.txt", dir.join("identity.md")).unwrap();
        fs::write(dir.join("style.md"), "Terse.").unwrap();
        let why = "this test says links cannot be confined";
        let (slots, notices) = load_with(
            dir,
            &SPEC,
            Cap::AtMost(MAX_OVERLAY_BYTES),
            Links::Refuse(why),
        );
        assert_eq!(slots, [None, Some("Terse.".to_string())]);
        let kinds: Vec<NoticeKind> = notices.iter().map(|n| n.kind).collect();
        assert_eq!(kinds, [NoticeKind::SymlinkRefused, NoticeKind::Unknown]);
        let n = &notices[0];
        assert_eq!(n.subject, dir.join("identity.md").display().to_string());
        assert!(
            n.message
                .contains(&format!("symlink, which was not followed because {why}")),
            "{}",
            n.message
        );
        assert!(n.message.contains("shipped text is kept"), "{}", n.message);
    }
}
