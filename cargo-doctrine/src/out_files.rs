//! The files a command writes besides standard output (`book --out`, `import --out`,
//! `schema --output`). A directory the user names is used as given (a link to a directory
//! is followed, as the loader opens a user's overlay directory); every file the tool
//! writes, the `--output` file included, and a directory it names itself (`book`'s default
//! `doctrine-book`), are made beneath their parent's descriptor (`safe_open`'s write side):
//! never through a symlink (a dangling one would create a file wherever it points, and the
//! directory the tool runs in may be someone else's checkout), only as a regular file with
//! one name (a FIFO would stall the tool, a device or a hard link would take the text
//! elsewhere), without blocking, and at most a cap.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use doctrine_load::__internals::safe_open::{DirHandle, NotWritten, Write};

use crate::cli::Stop;

/// An output directory, open: files are written beneath its descriptor.
pub(crate) struct OutDir {
    handle: DirHandle,
    path: PathBuf,
    /// The option that named it (`--out`), for the fix a message gives.
    option: &'static str,
}

impl OutDir {
    /// `path`, made if missing (the directories above it too). `given`: the user named it,
    /// and a link there is followed; otherwise (the tool's own default) its last name is
    /// made or opened without following one.
    pub(crate) fn make(path: &Path, option: &'static str, given: bool) -> Result<OutDir, Stop> {
        let fail = |e: &dyn std::fmt::Display, fix: &str| {
            Stop::Fail(format!("cannot make {}: {e}; {fix}", path.display()))
        };
        let writable = format!("give {option} a directory you can write");
        let handle = match path.file_name() {
            Some(name) if !given => {
                let parent = parent_of(path);
                std::fs::create_dir_all(parent).map_err(|e| fail(&e, &writable))?;
                let parent = DirHandle::open(parent).map_err(|e| fail(&e, &writable))?;
                parent
                    .make_subdir_nofollow(name)
                    .map_err(|e| fail(&e, &fix(&e, option, "directory")))?
            }
            _ => {
                std::fs::create_dir_all(path).map_err(|e| fail(&e, &writable))?;
                DirHandle::open(path).map_err(|e| fail(&e, &writable))?
            }
        };
        Ok(OutDir {
            handle,
            path: path.to_path_buf(),
            option,
        })
    }

    /// Writes `bytes` as `name` in the directory (a regular file there is replaced); the
    /// path written. `too_large` is the fix for more than `cap` bytes.
    pub(crate) fn write(
        &self,
        name: &str,
        bytes: &[u8],
        cap: u64,
        too_large: &str,
    ) -> Result<PathBuf, Stop> {
        let path = self.path.join(name);
        self.handle
            .write_entry(OsStr::new(name), bytes, cap, Write::Replace)
            .map_err(|e| refused(&path, &e, self.option, too_large))?;
        Ok(path)
    }
}

/// Writes `bytes` to the file `path` (`--output FILE`): the directory it is in is opened as
/// given, and the file is written beneath it as [`OutDir::write`] writes.
pub(crate) fn write_file(
    path: &Path,
    bytes: &[u8],
    cap: u64,
    option: &'static str,
    too_large: &str,
) -> Result<(), Stop> {
    let Some(name) = path.file_name() else {
        return Err(Stop::Fail(format!(
            "cannot write {}: it names a directory, not a file; give {option} a file's path",
            path.display()
        )));
    };
    let dir = DirHandle::open(parent_of(path)).map_err(|e| {
        Stop::Fail(format!(
            "cannot write {}: {e}; give {option} a file in a directory that exists",
            path.display()
        ))
    })?;
    dir.write_entry(name, bytes, cap, Write::Replace)
        .map_err(|e| refused(path, &e, option, too_large))
}

/// The directory `path` is in (`.` for a bare name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

fn refused(path: &Path, e: &NotWritten, option: &str, too_large: &str) -> Stop {
    let fix = match e {
        NotWritten::TooLarge { .. } => too_large.to_string(),
        e => fix(e, option, "path"),
    };
    Stop::Fail(format!("cannot write {}: {e}; {fix}", path.display()))
}

/// What to do about `e`, writing to the `what` an option names.
fn fix(e: &NotWritten, option: &str, what: &str) -> String {
    match e {
        NotWritten::Symlink => {
            format!("remove the link, or give {option} a {what} that is not one")
        }
        NotWritten::NotRegular(_) | NotWritten::NotADirectory(_) | NotWritten::Exists => {
            format!("remove it, or give {option} another {what}")
        }
        NotWritten::HardLinked(_) => {
            format!("remove this name (the file keeps its others), or give {option} another {what}")
        }
        NotWritten::NotAName | NotWritten::TooLarge { .. } | NotWritten::Io(_) => {
            format!("give {option} a {what} you can write")
        }
    }
}
