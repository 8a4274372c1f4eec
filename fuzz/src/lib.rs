//! What the fuzz targets share: a scratch directory on a RAM disk, the repository root,
//! and the run-time inputs the prompt targets (`formulation`, `messages`) read alike.

pub mod user_content;

use std::fs;
use std::path::{Path, PathBuf};

/// The repository this crate sits in, for copying fixtures.
pub fn repo_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// A fresh directory `<prefix>-<pid>` for this process, under `/dev/shm` when it exists
/// (every run writes files, and a RAM disk keeps that off the real disk). libFuzzer ends
/// the process with `exit`, so nothing is dropped: directories left by earlier processes
/// that are gone are removed here instead.
pub fn scratch_dir(prefix: &str) -> PathBuf {
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let mine = format!("{prefix}-{}", std::process::id());
    // Without `/proc` no process can be told to be gone, so nothing is removed.
    let can_tell = Path::new("/proc/self").exists();
    if let Ok(entries) = fs::read_dir(&base).map(|e| e.filter(|_| can_tell)) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name.strip_prefix(&format!("{prefix}-")) else {
                continue;
            };
            let alive = Path::new("/proc").join(pid).exists();
            if name == mine || (pid.parse::<u32>().is_ok() && !alive) {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
    }
    let dir = base.join(mine);
    fs::create_dir_all(&dir).expect("cannot create the scratch directory");
    dir
}

/// Copies the files of `from` (recursively) into `to`, skipping names `skip` refuses.
pub fn copy_tree(from: &Path, to: &Path, skip: &dyn Fn(&Path) -> bool) {
    let Ok(entries) = fs::read_dir(from) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if skip(&path) {
            continue;
        }
        let target = to.join(entry.file_name());
        if path.is_dir() {
            fs::create_dir_all(&target).expect("cannot create a fixture directory");
            copy_tree(&path, &target, skip);
        } else {
            fs::copy(&path, &target).expect("cannot copy a fixture file");
        }
    }
}

/// The formulation a fuzz input's byte picks.
pub fn formulation(pick: u8) -> doctrine::input::Formulation {
    use doctrine::input::Formulation;
    [
        Formulation::Markdown,
        Formulation::Tagged,
        Formulation::Bare,
    ][usize::from(pick % 3)]
}

/// An instruction from a fuzz input's source byte (its rank; locked when the high bit is
/// set), scope and text.
pub fn instruction(
    (source, scope, text): &(u8, String, String),
) -> doctrine::instructions::Instruction<'_> {
    use doctrine::instructions::{Authority, Instruction};
    Instruction {
        source: Authority::ALL[usize::from(*source) % Authority::ALL.len()],
        scope,
        locked: source & 0x80 != 0,
        text,
    }
}

/// The `manifest` targets' crate directory and checks.
pub mod manifest {
    use std::path::{Path, PathBuf};
    use std::sync::OnceLock;

    use doctrine_codegen::{generate, Located, Position, Request};

    use super::{copy_tree, repo_root, scratch_dir};

    /// The crate directory, made once per process: a `Cargo.toml`, the markdown trees of every
    /// example and fixture (so the seed manifests find their files), and the small files the
    /// random manifests of `doctrine-codegen/tests/it/never_panics.rs` name.
    fn crate_dir() -> &'static Path {
        static DIR: OnceLock<PathBuf> = OnceLock::new();
        DIR.get_or_init(|| {
            let dir = scratch_dir("doctrine-fuzz-manifest");
            let skip = |p: &Path| {
                p.extension().is_some_and(|e| e == "rs")
                    || p.file_name().is_some_and(|n| n == "doctrine.toml")
            };
            for parent in ["examples", "doctrine-core/tests/fixtures"] {
                for entry in std::fs::read_dir(repo_root().join(parent))
                    .expect("fixture directory")
                    .flatten()
                {
                    if entry.path().is_dir() {
                        copy_tree(&entry.path(), &dir, &skip);
                    }
                }
            }
            let files: &[(&str, &[u8])] = &[
                ("Cargo.toml", b""),
                ("a.md", b"---\nversion: 1\n---\nA {root}.\n"),
                ("b.md", b"B\r\n"),
                ("dir/one.md", b"One"),
                ("dev.md", b"dev"),
                ("verify.md", b"verify"),
                ("bad.md", b"ok \xff\n"),
                ("d/a.md", b"a"),
                (
                    "skills/one.md",
                    b"---\nwhen: When a build breaks.\n---\nRead the log.\n",
                ),
                (
                    "skills/two/SKILL.md",
                    b"---\nname: two\nwhen: x\ntriggers: [a b]\n---\nB.\n",
                ),
            ];
            for (name, bytes) in files {
                let path = dir.join(name);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, bytes).unwrap();
            }
            nix::unistd::mkfifo(&dir.join("pipe.md"), nix::sys::stat::Mode::S_IRWXU)
                .expect("cannot make the FIFO");
            dir
        })
    }

    /// Writes `data` as the manifest and checks what `generate` answers: code that parses as
    /// Rust, or diagnostics that each name a place in the manifest or in a file of the crate.
    pub fn check(data: &[u8]) {
        let dir = crate_dir();
        std::fs::write(dir.join("doctrine.toml"), data).expect("cannot write the manifest");
        let result = generate(&Request::new("doctrine.toml", dir, dir));
        match result {
            Ok(tokens) => {
                if let Err(e) = syn::parse2::<syn::File>(tokens) {
                    panic!("generated code does not parse: {e}");
                }
            }
            Err(diagnostics) => {
                assert!(
                    !diagnostics.list.is_empty(),
                    "an error without a diagnostic"
                );
                let manifest = String::from_utf8_lossy(data);
                let manifest: Vec<&str> = manifest.split('\n').collect();
                for d in diagnostics.located() {
                    let message = &d.diagnostic.message;
                    assert!(!message.is_empty(), "a diagnostic without a message: {d}");
                    check_location(&d, &manifest, dir);
                }
            }
        }
    }

    /// A location is `doctrine.toml` or a file inside the crate (relative, as shown to the
    /// user), optionally with a line and column that lie inside that file.
    fn check_location(d: &Located<'_>, manifest: &[&str], dir: &Path) {
        let path = d.file;
        assert!(!path.is_empty(), "an empty location");
        let location = match d.position {
            Some(Position { line, column }) => format!("{path}:{line}:{column}"),
            None => path.to_string(),
        };
        assert!(
            !Path::new(path).is_absolute(),
            "location `{location}` is absolute, not relative to the crate"
        );
        let Some(Position { line, column: col }) = d.position else {
            return;
        };
        assert!(line >= 1 && col >= 1, "location `{location}` counts from 0");
        // The manifest's lines are split once per run; a markdown file is read when named.
        let (file, named): (String, Vec<&str>);
        let lines: &[&str] = if path == "doctrine.toml" {
            manifest
        } else {
            let bytes = std::fs::read(dir.join(path))
                .unwrap_or_else(|e| panic!("location `{location}` names no readable file: {e}"));
            file = String::from_utf8_lossy(&bytes).into_owned();
            named = file.split('\n').collect();
            &named
        };
        assert!(
            line <= lines.len(),
            "location `{location}`: the file has {} lines",
            lines.len()
        );
        let width = lines[line - 1].chars().count();
        assert!(
            col <= width + 1,
            "location `{location}`: line {line} has {width} characters"
        );
    }
}
