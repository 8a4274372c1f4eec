//! The code generator refuses what is not a regular file and caps what it reads: a FIFO
//! would block the compiler forever, a device or a huge file would fill its memory.
//!
//! Every generation runs on a thread of its own under a watchdog, so a regression that
//! blocks fails the test instead of hanging the suite.
#![cfg(unix)]

use std::fs;
use std::path::Path;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use doctrine_codegen::__internals::MAX_FILE_BYTES;
use doctrine_codegen::{generate, load, Diagnostics, Request};

use crate::support;
use support::mkfifo;

/// How long one generation may take before the test calls it hung.
const HUNG_AFTER: Duration = Duration::from_secs(20);

/// A crate directory (with `Cargo.toml`) holding `doctrine.toml` = `manifest` and `files`,
/// then changed by `setup`.
fn crate_dir(
    manifest: Option<&str>,
    files: &[(&str, &str)],
    setup: impl FnOnce(&Path),
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("Cargo.toml"), "").unwrap();
    if let Some(manifest) = manifest {
        fs::write(dir.path().join("doctrine.toml"), manifest).unwrap();
    }
    for (path, text) in files {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    setup(dir.path());
    dir
}

fn request(dir: &Path) -> Request {
    Request::new("doctrine.toml", dir, dir)
}

/// `generate`'s errors, one string each (`location: message\n  help: …`); fails the test if
/// generation succeeds or does not return within `HUNG_AFTER`.
fn generate_errors(dir: &Path) -> Vec<String> {
    let req = request(dir);
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || tx.send(generate(&req).map(|_| ())).unwrap());
    let result: Result<(), Diagnostics> = rx
        .recv_timeout(HUNG_AFTER)
        .unwrap_or_else(|_| panic!("generate did not return within {HUNG_AFTER:?}: it blocked"));
    match result {
        Ok(()) => panic!("expected errors"),
        Err(d) => d.located().map(|d| d.to_string()).collect(),
    }
}

const FILE_LAYER: &str = "[[layer]]\nname = \"base\"\nfile = \"base.md\"\n";

const NOT_REGULAR_HELP: &str = "help: replace it with a regular file holding the text";

#[test]
fn fifo_file_is_refused_at_its_manifest_entry() {
    let dir = crate_dir(Some(FILE_LAYER), &[], |d| mkfifo(&d.join("base.md")));
    let errors = generate_errors(dir.path());
    assert_eq!(
        errors,
        [format!(
            "doctrine.toml:3:8: in `base.md`: file is a FIFO (named pipe), not a regular \
             file; only regular files are read, so a pipe or device cannot stall or flood \
             the build\n  {NOT_REGULAR_HELP}"
        )]
    );
}

#[test]
fn symlink_to_a_fifo_is_refused_naming_the_fifo() {
    let dir = crate_dir(Some(FILE_LAYER), &[], |d| {
        fs::create_dir(d.join("pipes")).unwrap();
        mkfifo(&d.join("pipes/feed"));
        std::os::unix::fs::symlink("pipes/feed", d.join("base.md")).unwrap();
    });
    let errors = generate_errors(dir.path());
    assert_eq!(errors.len(), 1, "{errors:#?}");
    // The link is resolved first, so the message names the FIFO it leads to.
    assert!(
        errors[0].starts_with(
            "doctrine.toml:3:8: in `pipes/feed`: file is a FIFO (named pipe), not a regular file"
        ),
        "{}",
        errors[0]
    );
}

#[test]
fn fifo_in_a_dir_layer_is_refused_and_the_other_files_are_read() {
    let manifest = "[[layer]]\nname = \"mood\"\ndir = \"moods\"\n";
    let dir = crate_dir(Some(manifest), &[("moods/calm.md", "Calm.")], |d| {
        mkfifo(&d.join("moods/stormy.md"))
    });
    let errors = generate_errors(dir.path());
    assert_eq!(
        errors,
        [format!(
            "doctrine.toml:3:7: in `moods/stormy.md`: file is a FIFO (named pipe), not a \
             regular file; only regular files are read, so a pipe or device cannot stall or \
             flood the build\n  {NOT_REGULAR_HELP}"
        )]
    );
}

#[test]
fn fifo_manifest_is_refused() {
    let dir = crate_dir(None, &[], |d| mkfifo(&d.join("doctrine.toml")));
    let errors = generate_errors(dir.path());
    assert_eq!(
        errors,
        [format!(
            "doctrine.toml: manifest is a FIFO (named pipe), not a regular file; only regular \
             files are read, so a pipe or device cannot stall or flood the build\n  \
             {NOT_REGULAR_HELP}"
        )]
    );
}

#[test]
fn directory_named_like_a_file_is_refused() {
    let dir = crate_dir(Some(FILE_LAYER), &[("base.md/inner", "x")], |_| {});
    let errors = generate_errors(dir.path());
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].starts_with(
            "doctrine.toml:3:8: in `base.md`: file is a directory, not a regular file"
        ),
        "{}",
        errors[0]
    );
}

#[test]
fn character_device_is_refused() {
    let dir = crate_dir(Some(FILE_LAYER), &[], |_| {});
    // Major 1, minor 5: the zero device, which never ends. Needs CAP_MKNOD (root here).
    let made = rustix::fs::mknodat(
        rustix::fs::CWD,
        dir.path().join("base.md"),
        rustix::fs::FileType::CharacterDevice,
        rustix::fs::Mode::from_raw_mode(0o644),
        rustix::fs::makedev(1, 5),
    );
    if let Err(e) = made {
        eprintln!("skipped: cannot create a device node here ({e})");
        return;
    }
    let errors = generate_errors(dir.path());
    assert_eq!(errors.len(), 1, "{errors:#?}");
    // A container's device rules may refuse the open itself; either way nothing is read.
    assert!(
        errors[0].starts_with(
            "doctrine.toml:3:8: in `base.md`: file is a character device, not a regular file"
        ) || errors[0].starts_with("doctrine.toml:3:8: in `base.md`: cannot read file"),
        "{}",
        errors[0]
    );
}

/// A sparse file: its size is one byte over the cap, but it takes no disk and the
/// refusal comes from the size, before any byte is read.
#[test]
fn file_over_the_cap_is_refused_with_its_size_and_the_cap() {
    let dir = crate_dir(Some(FILE_LAYER), &[], |d| {
        let file = fs::File::create(d.join("base.md")).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
    });
    let errors = generate_errors(dir.path());
    assert_eq!(MAX_FILE_BYTES, 16 * 1024 * 1024);
    assert_eq!(
        errors,
        [
            "doctrine.toml:3:8: in `base.md`: file is 16777217 bytes, over the 16777216-byte \
          (16 MiB) cap per file\n  help: keep each file under 16 MiB; split a long text \
          across several layers"
        ]
    );
}

#[test]
fn manifest_over_the_cap_is_refused() {
    let dir = crate_dir(None, &[], |d| {
        let file = fs::File::create(d.join("doctrine.toml")).unwrap();
        file.set_len(MAX_FILE_BYTES * 4).unwrap();
    });
    let errors = generate_errors(dir.path());
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].starts_with(
            "doctrine.toml: manifest is 67108864 bytes, over the 16777216-byte (16 MiB) cap"
        ),
        "{}",
        errors[0]
    );
}

/// The cap is inclusive: a file of exactly `MAX_FILE_BYTES` is read (checked with `load`,
/// which stops before code generation embeds 16 MiB).
#[test]
fn file_at_the_cap_is_read() {
    let dir = crate_dir(Some(FILE_LAYER), &[], |d| {
        let mut text = "x".repeat(usize::try_from(MAX_FILE_BYTES).unwrap());
        text.replace_range(..5, "Hello");
        fs::write(d.join("base.md"), text).unwrap();
    });
    let doctrine = load(&request(dir.path())).unwrap();
    assert_eq!(doctrine.texts.len(), 1);
    assert_eq!(doctrine.texts[0].body.len() as u64, MAX_FILE_BYTES);
    assert!(doctrine.texts[0].body.starts_with("Hello"));
}

#[test]
fn regular_files_still_generate() {
    let dir = crate_dir(Some(FILE_LAYER), &[("base.md", "Be brief.")], |_| {});
    let req = request(dir.path());
    let tokens = generate(&req).unwrap().to_string();
    assert!(tokens.contains("\"Be brief.\""), "{tokens}");
}

/// The path is checked first (`resolve`), then read: a directory swapped for a symlink out
/// of the crate in between is caught by the open itself, beneath the crate directory.
#[cfg(any(target_os = "linux", target_os = "android"))]
#[test]
fn path_swapped_for_a_link_out_of_the_crate_after_the_check_is_refused() {
    use doctrine_codegen::__internals::CrateDir;
    use doctrine_codegen::ReadError;
    let tmp = tempfile::tempdir().unwrap();
    let krate = tmp.path().join("crate");
    let outside = tmp.path().join("outside");
    fs::create_dir_all(krate.join("prompts")).unwrap();
    fs::create_dir(&outside).unwrap();
    fs::write(krate.join("prompts/base.md"), "Inside.").unwrap();
    fs::write(outside.join("base.md"), "Outside.").unwrap();
    let krate = krate.canonicalize().unwrap();
    let checked = krate.join("prompts/base.md").canonicalize().unwrap();
    let reader = CrateDir::new(krate.clone());
    assert_eq!(reader.read(&checked).unwrap(), b"Inside.");
    // Now swap `prompts` for a link to the outside directory and read the same path.
    fs::rename(krate.join("prompts"), tmp.path().join("was-prompts")).unwrap();
    std::os::unix::fs::symlink(&outside, krate.join("prompts")).unwrap();
    let err = reader.read(&checked).unwrap_err();
    assert!(matches!(err, ReadError::Escapes), "{err:?}");
    let (message, _) = err.describe("file");
    assert_eq!(
        message,
        "file now leaves the crate directory through a symlink (it changed after its path \
         was checked)"
    );
}
