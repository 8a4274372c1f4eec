//! A directory tree described by the fuzzer (names from the overlay's vocabulary and odd
//! ones; regular files, symlinks in and out, subdirectories, hard links in and out, FIFOs),
//! made afresh each
//! run, then `load_overlay` on it. Checked: it returns; text from outside the directory
//! never reaches a slot; every entry not read is answered by a notice; every slot is
//! trimmed, normalised text within the cap; a plain regular file within the cap is read.
//! The same tree is then loaded as a user skills directory (`Skills::load_user_capped`),
//! with the same checks: nothing from outside, every entry loaded or reported; and no
//! one-line field breaks its line, no two loaded names read alike, no body closes the
//! reminder marker. A name that reads as `safety.md` is answered as the locked layer's.
//! The slots and skills are then composed beside a locked layer: every byte they supplied
//! is marked as user content, exactly, and none lands in the locked layer.
#![no_main]

use std::ffi::OsString;
use std::fs;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::{symlink, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use doctrine_codegen::__internals::{fold, normalise};
use doctrine_core::__private::marked;
use doctrine_core::introspect::{Notice, NoticeKind};
use doctrine_fuzz::scratch_dir;
use doctrine_load::__private::{load_overlay, OverlayFile, OverlaySpec};
use doctrine_load::limits::{MAX_OVERLAY_BYTES, MAX_SKILL_ENTRIES, MAX_WHEN_TO_USE_CHARS};
use doctrine_load::{SkillOrigin, Skills};
use libfuzzer_sys::fuzz_target;

/// The text of the file outside the overlay directory; it must never reach a slot.
const MARKER: &str = "OUTSIDE-MARKER-7c1e";

/// Two overridable layers, a locked one and a fixed one, as the generated code passes them.
const SPEC: OverlaySpec = OverlaySpec {
    files: &[
        OverlayFile::new("identity.md", "identity"),
        OverlayFile::new("tools_more.md", "tool_policy"),
        OverlayFile::new("voice.md", "voice"),
    ],
    locked: &["safety"],
    fixed: &["base", "style"],
};

#[derive(Arbitrary, Debug)]
struct Input {
    root: Root,
    cap: Cap,
    entries: Vec<Entry>,
}

/// What the overlay path itself is.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
enum Root {
    Dir,
    Dir2,
    Dir3,
    Missing,
    File,
    SymlinkToDir,
    Dangling,
}

#[derive(Arbitrary, Debug)]
enum Cap {
    Default,
    Small(u8),
    Tiny(u8),
}

impl Cap {
    fn bytes(&self) -> usize {
        match self {
            Cap::Default => MAX_OVERLAY_BYTES,
            Cap::Small(n) => usize::from(*n),
            Cap::Tiny(n) => usize::from(*n % 8),
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Entry {
    name: Name,
    kind: Kind,
}

#[derive(Arbitrary, Debug)]
enum Name {
    Identity,
    ToolsMore,
    Voice,
    /// The locked layer's file.
    Safety,
    /// Fixed layers' files.
    Base,
    Style,
    /// The layer name of an overlay file whose file name differs.
    ToolPolicy,
    CaseVariant,
    /// Names that read as the locked layer's file, or as `voice.md`, in other letters.
    LookalikeSafety,
    LookalikeVoice,
    Unknown,
    Hidden,
    Backup,
    NoExtension,
    NotUtf8,
    WithNewline,
    Long,
    Other(String),
}

impl Name {
    fn os(&self) -> Option<OsString> {
        Some(match self {
            Name::Identity => "identity.md".into(),
            Name::ToolsMore => "tools_more.md".into(),
            Name::Voice => "voice.md".into(),
            Name::Safety => "safety.md".into(),
            Name::Base => "base.md".into(),
            Name::Style => "style.md".into(),
            Name::ToolPolicy => "tool_policy.md".into(),
            Name::CaseVariant => "Identity.MD".into(),
            Name::LookalikeSafety => "\u{0455}AF\u{0395}TY.md".into(),
            Name::LookalikeVoice => "v\u{043e}ice.md".into(),
            Name::Unknown => "notes.txt".into(),
            Name::Hidden => ".voice.md".into(),
            Name::Backup => "voice.md~".into(),
            Name::NoExtension => "identity".into(),
            Name::NotUtf8 => OsString::from_vec(b"voice\xff.md".to_vec()),
            Name::WithNewline => "voice\n.md".into(),
            Name::Long => "v".repeat(250).into(),
            Name::Other(s) => {
                let ok = !s.is_empty()
                    && s.len() <= 255
                    && s != "."
                    && s != ".."
                    && !s.contains(['/', '\0']);
                if !ok {
                    return None;
                }
                s.into()
            }
        })
    }
}

#[derive(Arbitrary, Debug)]
enum Kind {
    File(Vec<u8>),
    /// Text built from the characters normalisation and trimming care about.
    Text(Vec<Piece>),
    Empty,
    /// A relative symlink to the entry with this index (itself, a directory, anything).
    SymlinkInside(u8),
    /// A symlink that leaves the directory and comes back to the entry with this index.
    SymlinkOutAndBack(u8),
    SymlinkOutside,
    SymlinkOutsideAbsolute,
    SymlinkDangling,
    SymlinkParent,
    SymlinkDevZero,
    /// A directory, with a file inside that must not be read.
    Subdir,
    /// A hard link to the entry with this index, when that is a regular file.
    HardLinkInside(u8),
    Fifo,
    HardLinkOutside,
    /// A skill file: frontmatter with this `when`, then this body.
    Skill(Vec<Piece>, Vec<Piece>),
}

#[derive(Arbitrary, Debug)]
enum Piece {
    Word,
    Space,
    Tab,
    Lf,
    Cr,
    Crlf,
    Bom,
    Multibyte,
    Braces,
    /// Characters a one-line field refuses: a line separator, NEL, ESC, a bidi override.
    Separator,
    Nel,
    Escape,
    Override,
    /// The reminder marker's closing text.
    Closer,
}

fn render(pieces: &[Piece]) -> Vec<u8> {
    let mut out = String::new();
    for p in pieces {
        out.push_str(match p {
            Piece::Word => "word",
            Piece::Space => " ",
            Piece::Tab => "\t",
            Piece::Lf => "\n",
            Piece::Cr => "\r",
            Piece::Crlf => "\r\n",
            Piece::Bom => "\u{feff}",
            Piece::Multibyte => "é€😀",
            Piece::Braces => "{x}",
            Piece::Separator => "\u{2028}",
            Piece::Nel => "\u{85}",
            Piece::Escape => "\u{1b}",
            Piece::Override => "\u{202e}",
            Piece::Closer => "\n</system-reminder>\n",
        });
    }
    out.into_bytes()
}

/// The scratch directory of this process, emptied and refilled every run.
fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| scratch_dir("doctrine-fuzz-overlay"))
}

fuzz_target!(|input: Input| {
    let base = scratch();
    let _ = fs::remove_dir_all(base);
    fs::create_dir_all(base).unwrap();
    let outside = base.join("outside.md");
    fs::write(&outside, MARKER).unwrap();
    // The overlay path; its entries go to `real`, which is the same directory unless the
    // overlay path is a symlink to it.
    let overlay = base.join("overlay");
    let real = if input.root == Root::SymlinkToDir {
        base.join("real")
    } else {
        overlay.clone()
    };

    match input.root {
        Root::Missing => {}
        Root::File => fs::write(&overlay, "not a directory").unwrap(),
        Root::Dangling => symlink("gone", &overlay).unwrap(),
        Root::SymlinkToDir => {
            fs::create_dir(&real).unwrap();
            symlink("real", &overlay).unwrap();
        }
        Root::Dir | Root::Dir2 | Root::Dir3 => fs::create_dir(&overlay).unwrap(),
    }
    let max_bytes = input.cap.bytes();

    // Entry names (first of each name wins) and, for regular files, their bytes.
    let mut made: Vec<(OsString, Option<Vec<u8>>)> = Vec::new();
    if real.is_dir() {
        let names: Vec<OsString> = input.entries.iter().filter_map(|e| e.name.os()).collect();
        for entry in &input.entries {
            let Some(name) = entry.name.os() else {
                continue;
            };
            if made.iter().any(|(n, _)| *n == name) {
                continue;
            }
            let path = real.join(&name);
            let pick = |i: u8| names.get(usize::from(i) % names.len().max(1)).cloned();
            let content = match &entry.kind {
                Kind::File(bytes) => Some(bytes.clone()),
                Kind::Text(pieces) => Some(render(pieces)),
                Kind::Empty => Some(Vec::new()),
                Kind::Skill(when, body) => {
                    let mut text = b"---\nwhen: ".to_vec();
                    text.extend(render(when));
                    text.extend(b"\n---\n");
                    text.extend(render(body));
                    Some(text)
                }
                _ => None,
            };
            if let Some(bytes) = &content {
                if bytes.windows(MARKER.len()).any(|w| w == MARKER.as_bytes()) {
                    // Inside text that holds the marker would be a false alarm.
                    return;
                }
                fs::write(&path, bytes).unwrap();
            } else {
                match &entry.kind {
                    Kind::SymlinkInside(i) => match pick(*i) {
                        Some(target) => symlink(target, &path).unwrap(),
                        None => continue,
                    },
                    Kind::SymlinkOutAndBack(i) => match pick(*i) {
                        Some(target) => {
                            let dir_name = real.file_name().unwrap();
                            symlink(Path::new("..").join(dir_name).join(target), &path).unwrap()
                        }
                        None => continue,
                    },
                    Kind::SymlinkOutside => symlink("../outside.md", &path).unwrap(),
                    Kind::SymlinkOutsideAbsolute => symlink(&outside, &path).unwrap(),
                    Kind::SymlinkDangling => symlink("nowhere.md", &path).unwrap(),
                    Kind::SymlinkParent => symlink("..", &path).unwrap(),
                    Kind::SymlinkDevZero => symlink("/dev/zero", &path).unwrap(),
                    Kind::Subdir => {
                        fs::create_dir(&path).unwrap();
                        fs::write(path.join("voice.md"), "inside a subdirectory").unwrap();
                    }
                    Kind::HardLinkInside(i) => {
                        let Some(target) = pick(*i) else { continue };
                        let target = real.join(target);
                        let is_file = fs::symlink_metadata(&target).is_ok_and(|m| m.is_file());
                        if !is_file || fs::hard_link(&target, &path).is_err() {
                            continue;
                        }
                    }
                    Kind::Fifo => {
                        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::S_IRWXU).unwrap()
                    }
                    Kind::HardLinkOutside => fs::hard_link(&outside, &path).unwrap(),
                    Kind::File(_) | Kind::Text(_) | Kind::Empty | Kind::Skill(..) => {
                        unreachable!()
                    }
                }
            }
            made.push((name, content));
        }
    }

    let (slots, notices) = load_overlay(&overlay, &SPEC, max_bytes);
    assert_eq!(slots.len(), SPEC.files.len(), "one slot per overlay file");
    let again = load_overlay(&overlay, &SPEC, max_bytes);
    assert_eq!(
        (&slots, &notices),
        (&again.0, &again.1),
        "not deterministic"
    );
    for n in &notices {
        assert!(!n.message.is_empty(), "a notice without a message: {n:?}");
    }

    match input.root {
        Root::Missing => {
            assert!(
                notices.is_empty(),
                "a missing directory is silent: {notices:?}"
            );
        }
        Root::File | Root::Dangling => {
            assert!(!notices.is_empty(), "a bad overlay path is not reported");
        }
        _ => {}
    }
    if !real.is_dir() {
        assert!(slots.iter().all(Option::is_none), "slots from no directory");
        return;
    }

    for (i, slot) in slots.iter().enumerate() {
        let Some(text) = slot else { continue };
        assert!(!text.contains(MARKER), "text from outside reached slot {i}");
        assert!(!text.is_empty(), "an empty slot {i}");
        assert!(
            text.len() <= max_bytes,
            "slot {i} over the {max_bytes}-byte cap"
        );
        assert_eq!(text, &trimmed(text), "slot {i} not trimmed");
        assert_eq!(text, &normalise(text), "slot {i} not normalised");
    }

    for (name, content) in &made {
        let slot_ids: Vec<usize> = (0..SPEC.files.len())
            .filter(|&i| name.to_str() == Some(SPEC.files[i].file))
            .collect();
        let mine: Vec<&Notice> = notices
            .iter()
            .filter(|n| about(n, &overlay, name))
            .collect();
        let read = !slot_ids.is_empty() && slot_ids.iter().all(|&i| slots[i].is_some());
        assert!(
            read || !mine.is_empty(),
            "{name:?} was neither read nor reported; notices: {notices:?}"
        );
        let is_dir = fs::symlink_metadata(real.join(name)).is_ok_and(|m| m.is_dir());
        let reads_as_safety = name.to_str().is_some_and(|n| fold(n) == "safety.md");
        if reads_as_safety && !is_dir {
            assert!(
                mine.iter().any(|n| n.kind == NoticeKind::Locked),
                "the locked layer's file (not a directory) is not reported as locked: {mine:?}"
            );
        }
        // A plain regular file (one link, so no loader may take it for another file)
        // within the cap, valid UTF-8 with text in it: read whole, normalised.
        let Some(bytes) = content else { continue };
        let plain = fs::symlink_metadata(real.join(name)).is_ok_and(|m| m.nlink() == 1);
        let expect = std::str::from_utf8(bytes).ok().map(trimmed);
        if let (true, Some(expect), false) = (plain, expect, slot_ids.is_empty()) {
            if bytes.len() <= max_bytes && !expect.is_empty() {
                for &i in &slot_ids {
                    assert_eq!(slots[i].as_deref(), Some(expect.as_str()), "{name:?}");
                }
            }
        }
    }
    check_skills(&overlay, &made, max_bytes, &slots);
});

/// Whether a notice is about the entry `name` of the overlay directory (or, for a skill
/// directory, a file inside it).
fn about(n: &Notice, overlay: &Path, name: &OsString) -> bool {
    let shown = name.to_string_lossy();
    n.subject == overlay.join(name).display().to_string()
        || n.subject == shown
        || n.subject.ends_with(&format!("/{shown}"))
        || n.subject.ends_with(&format!("/{shown}/SKILL.md"))
}

/// The tree loaded as a user skills directory: deterministic, nothing from outside, and
/// every entry loaded or reported (beyond the entry cap, the one notice says so).
fn check_skills(
    dir: &Path,
    made: &[(OsString, Option<Vec<u8>>)],
    max_bytes: usize,
    slots: &[Option<String>],
) {
    let load = || {
        let mut skills = Skills::default();
        let notices = skills.load_user_capped(&[dir], max_bytes);
        (skills, notices)
    };
    let (skills, notices) = load();
    assert_eq!(
        (&skills, &notices),
        (&load().0, &load().1),
        "not deterministic"
    );
    // What the user's files gave, composed beside a locked layer: every byte marked.
    doctrine_fuzz::user_content::check_user_content(slots, &skills);
    for s in skills.iter() {
        for text in [&s.name, &s.when, &s.body] {
            assert!(
                !text.contains(MARKER),
                "text from outside reached skill {s:?}"
            );
        }
        assert!(
            !s.when.is_empty() && !s.body.is_empty(),
            "an empty skill: {s:?}"
        );
        assert!(s.when.chars().count() <= MAX_WHEN_TO_USE_CHARS);
        for field in [&s.name, &s.when].into_iter().chain(&s.triggers) {
            assert!(
                !field.chars().any(|c| c.is_control()
                    || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}')),
                "a one-line field of {s:?} breaks its line"
            );
        }
        // A body inside the marker never closes it.
        let (out, _) = marked("<system-reminder>\n", &s.body, "\n</system-reminder>");
        assert_eq!(out.matches("</system-reminder>").count(), 1, "{out:?}");
    }
    // No two loaded skills read alike; each replacement or look-alike said so.
    let mut folded: Vec<String> = skills.iter().map(|s| fold(&s.name)).collect();
    folded.sort();
    let count = folded.len();
    folded.dedup();
    assert_eq!(
        folded.len(),
        count,
        "two loaded skills read alike: {skills:?}"
    );
    for n in &notices {
        assert!(!n.message.is_empty(), "a notice without a message: {n:?}");
    }
    let capped = notices.iter().any(|n| n.kind == NoticeKind::TooManyEntries);
    assert_eq!(capped, made.len() > MAX_SKILL_ENTRIES, "{notices:?}");
    if capped {
        return;
    }
    for (name, _) in made {
        let entry = dir.join(name);
        let loaded = skills.iter().any(|s| match &s.origin {
            SkillOrigin::User(path) => path.starts_with(&entry) || *path == entry,
            _ => false,
        });
        let reported = notices.iter().any(|n| about(n, dir, name));
        assert!(
            loaded || reported,
            "{name:?} was neither loaded as a skill nor reported; notices: {notices:?}"
        );
    }
}

/// What the overlays guide promises an overlay file becomes: normalised (BOM, line endings), then
/// stripped of surrounding whitespace and BOMs.
fn trimmed(text: &str) -> String {
    let text = normalise(text);
    let mut view = text.as_str();
    loop {
        let next = view.trim().trim_matches('\u{feff}');
        if next.len() == view.len() {
            return view.to_string();
        }
        view = next;
    }
}
