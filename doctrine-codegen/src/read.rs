//! Reading the manifest and the files it names: regular files only, opened without
//! blocking (beneath the crate directory's descriptor on Linux), at most
//! [`MAX_FILE_BYTES`] each. A FIFO would stall the compiler forever and a device like
//! `/dev/zero` would fill its memory; both are refused from the open descriptor.

use std::cell::OnceCell;
use std::io;
use std::path::{Path, PathBuf};

use doctrine_load::__internals::safe_open::{self, DirHandle, Opened, Refused};

/// The most bytes read from one file, the manifest included: 16 MiB. A prompt text is
/// kilobytes; the cap only stops a runaway file from exhausting the compiler's memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file the manifest names (or the manifest itself) was not read.
#[derive(Debug)]
pub enum ReadError {
    /// Not a regular file: what it is instead ("a FIFO (named pipe)", …).
    NotRegular(&'static str),
    /// Over [`MAX_FILE_BYTES`]: its size when opened, or `None` when it grew past the
    /// cap while being read.
    TooLarge(Option<u64>),
    /// It resolved inside the crate directory when checked, but the open found a symlink
    /// leading out (it changed in between).
    Escapes,
    Io(io::Error),
}

impl ReadError {
    /// The message and the help line, naming `what` was read (`file` or `manifest`).
    pub fn describe(&self, what: &str) -> (String, String) {
        let cap = format!("{MAX_FILE_BYTES}-byte ({} MiB) cap", MAX_FILE_BYTES >> 20);
        match self {
            ReadError::NotRegular(kind) => (
                format!(
                    "{what} is {kind}, not a regular file; only regular files are read, so \
                     a pipe or device cannot stall or flood the build"
                ),
                "replace it with a regular file holding the text".into(),
            ),
            ReadError::TooLarge(size) => (
                match size {
                    Some(size) => format!("{what} is {size} bytes, over the {cap} per file"),
                    None => format!("{what} grew past the {cap} per file while it was read"),
                },
                format!(
                    "keep each file under {} MiB; split a long text across several layers",
                    MAX_FILE_BYTES >> 20
                ),
            ),
            ReadError::Escapes => (
                format!(
                    "{what} now leaves the crate directory through a symlink (it changed \
                     after its path was checked)"
                ),
                "keep doctrine files inside the crate directory so the crate builds the same \
                 anywhere"
                    .into(),
            ),
            ReadError::Io(e) => (
                format!("cannot read {what}: {e}"),
                "check the file's permissions".into(),
            ),
        }
    }
}

/// The crate directory, opened once on first use, that files are read beneath.
#[derive(Debug)]
pub struct CrateDir {
    path: PathBuf,
    handle: OnceCell<Option<DirHandle>>,
}

impl CrateDir {
    /// `path` is the canonical crate directory.
    pub fn new(path: PathBuf) -> Self {
        CrateDir {
            path,
            handle: OnceCell::new(),
        }
    }

    /// Reads `canonical`, a path already resolved inside the crate directory.
    pub fn read(&self, canonical: &Path) -> Result<Vec<u8>, ReadError> {
        capped(self.open(canonical)?)
    }

    /// Opens beneath the crate directory where the system confines that (Linux); else by
    /// the canonical path that `resolve` checked. Either way without blocking, and the
    /// descriptor decides what the file is.
    fn open(&self, canonical: &Path) -> Result<Opened, ReadError> {
        let dir = self.handle.get_or_init(|| DirHandle::open(&self.path).ok());
        if let (Some(dir), Ok(rel)) = (dir, canonical.strip_prefix(&self.path)) {
            match dir.open_beneath(rel) {
                Err(Refused::Unconfined(_)) => {}
                decided => return decided.map_err(from_refused),
            }
        }
        safe_open::open_regular(canonical).map_err(from_refused)
    }
}

/// Reads the regular file at `path` (any path: a tool's argument, not a file the manifest
/// names), opened without blocking and judged from the open descriptor, at most
/// [`MAX_FILE_BYTES`].
#[cfg(feature = "named")]
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    capped(safe_open::open_regular(path).map_err(from_refused)?)
}

/// Writes `bytes` to `path` (a tool's output file) only as a regular file with one name,
/// at most [`MAX_FILE_BYTES`]: the directory `path` is in is opened as given, and the file
/// is created or emptied beneath it without following a symlink (a dangling one would
/// create a file wherever it points) and without blocking (a FIFO cannot stall the tool
/// nor a device take the text), judged from the open descriptor.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), ReadError> {
    use safe_open::{NotWritten, Write};
    let (Some(name), parent) = (path.file_name(), path.parent()) else {
        return Err(ReadError::Io(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the path names no file",
        )));
    };
    let parent = match parent {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = DirHandle::open(parent).map_err(ReadError::Io)?;
    dir.write_entry(name, bytes, MAX_FILE_BYTES, Write::Replace)
        .map_err(|e| match e {
            NotWritten::NotRegular(kind) => ReadError::NotRegular(kind.describe()),
            NotWritten::Symlink => ReadError::NotRegular("a symlink"),
            NotWritten::TooLarge { size, .. } => ReadError::TooLarge(Some(size)),
            NotWritten::Io(e) => ReadError::Io(e),
            other => ReadError::Io(io::Error::other(other.to_string())),
        })
}

/// The bytes of `file`, refused over [`MAX_FILE_BYTES`].
fn capped(file: Opened) -> Result<Vec<u8>, ReadError> {
    if file.size > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(Some(file.size)));
    }
    // One byte past the cap tells a file that grew after it was opened.
    let bytes = file
        .read_at_most(MAX_FILE_BYTES + 1)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(None));
    }
    Ok(bytes)
}

fn from_refused(refused: Refused) -> ReadError {
    match refused {
        Refused::NotRegular(kind) => ReadError::NotRegular(kind.describe()),
        Refused::Escapes => ReadError::Escapes,
        Refused::Missing(e) | Refused::Io(e) => ReadError::Io(e),
        // Neither comes out of the opens above; worded as what they are.
        Refused::Symlink(_) => ReadError::NotRegular("a symlink"),
        Refused::Unconfined(why) => ReadError::Io(io::Error::other(why)),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn write_file_never_follows_a_link_at_its_path() {
        let tmp = tempfile::tempdir().unwrap();
        let (out, outside) = (tmp.path().join("out.json"), tmp.path().join("outside.json"));
        std::os::unix::fs::symlink(&outside, &out).unwrap();
        let got = write_file(&out, b"{}");
        assert!(
            matches!(got, Err(ReadError::NotRegular("a symlink"))),
            "{got:?}"
        );
        assert!(!outside.exists());
        std::fs::remove_file(&out).unwrap();
        write_file(&out, b"{}").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"{}");
    }
}
