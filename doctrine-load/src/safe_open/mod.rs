//! Opening a file so that what is read is what was judged: open first (without blocking and,
//! beneath a directory, without following a link out of it), then decide from the open
//! descriptor (regular file or not, size, links), then read at most a cap.
//!
//! A check made on a path and an open that walks the path again leave a window in which the
//! entry can be swapped (for a symlink to a secret, a FIFO that blocks the reader forever, a
//! device that never ends). Nothing here looks at a path before opening it, except to word
//! a message after the decision is made.
//!
//! Used by the runtime overlay loader, by selectors (a file named by path) and by the code
//! generator (manifest and the files it names); and, to write, by `cargo doctrine`: every
//! file it writes (a git revision's tree, `--out`, `--output`) is made beneath a directory
//! handle, one name at a time, never through a link, and only as a regular file
//! ([`DirHandle::write_entry`], [`DirHandle::make_subdir_nofollow`]).

use std::fs::File;
use std::io::{self, Read};

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::open_regular;
#[cfg(unix)]
pub use unix::DirHandle;

#[cfg(not(unix))]
mod portable;
#[cfg(not(unix))]
pub use portable::open_regular;
#[cfg(not(unix))]
pub use portable::DirHandle;

/// One direct entry of a [`DirHandle`].
#[derive(Debug)]
pub struct Entry {
    pub name: std::ffi::OsString,
    /// For messages only (an unknown entry that is a directory is worded so); opening
    /// decides everything else.
    pub is_dir: bool,
}

/// What a non-regular file turned out to be, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Directory,
    Fifo,
    CharDevice,
    BlockDevice,
    Socket,
    /// Opening gave `ENXIO`: a socket, or a device node with no device behind it.
    #[cfg_attr(not(unix), allow(dead_code))]
    NoDevice,
    /// A symlink opened as itself (only where links are opened without being followed).
    Symlink,
    Other,
}

impl Kind {
    /// "a directory", "a FIFO (named pipe)", …: what the entry is, in a sentence.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Directory => "a directory",
            Kind::Fifo => "a FIFO (named pipe)",
            Kind::CharDevice => "a character device",
            Kind::BlockDevice => "a block device",
            Kind::Socket => "a socket",
            Kind::NoDevice => "a socket or a device with nothing behind it",
            Kind::Symlink => "a symlink",
            Kind::Other => "something other than a file or directory",
        }
    }
}

/// Why a file was not opened for reading.
#[derive(Debug)]
pub enum Refused {
    /// Nothing is there (any more): `ENOENT`, e.g. a dangling symlink.
    Missing(io::Error),
    /// Resolving the path would leave the directory it was opened beneath (a symlink out
    /// of it, or an absolute one): `EXDEV` from `openat2`.
    #[cfg_attr(not(unix), allow(dead_code))]
    Escapes,
    /// A symlink, not followed: the `why` of [`Refused::Unconfined`] that sent the caller to
    /// the no-follow open.
    Symlink(&'static str),
    /// Confined opening is not available here (no `openat2`, or a sandbox forbids it);
    /// says why. The caller picks its fallback.
    Unconfined(&'static str),
    /// Opened, and the descriptor is not a regular file.
    NotRegular(Kind),
    /// Any other failure to open or inspect.
    Io(io::Error),
}

/// How [`DirHandle::write_entry`] treats a file already there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// Nothing may be there, not even a dangling link (`O_EXCL`): a copy being made afresh,
    /// where an entry already there means a path was given twice.
    New,
    /// A regular file with one name is emptied and rewritten from its open descriptor;
    /// anything else there (a link, a FIFO, a directory, a file with other names) is
    /// refused, never followed or replaced.
    Replace,
}

/// Why a file or directory was not written (the caller names the path and the fix).
#[derive(Debug)]
pub enum NotWritten {
    /// Not one plain name (empty, `.`, `..`, or holding `/` or NUL): written as is, it
    /// would land elsewhere than in the directory.
    NotAName,
    /// More bytes than the caller's cap.
    TooLarge {
        size: u64,
        cap: u64,
    },
    /// Something is there and [`Write::New`] was asked for.
    Exists,
    /// A symlink (dangling or not): never followed to write.
    Symlink,
    /// Not a regular file: what it is instead.
    NotRegular(Kind),
    /// Making a directory, something else is there: what it is ("a regular file", …).
    NotADirectory(&'static str),
    /// A regular file with `n` names: rewriting it would change the file under its other
    /// names too, which may be anywhere on the file system.
    HardLinked(u64),
    Io(io::Error),
}

impl std::fmt::Display for NotWritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotWritten::NotAName => f.write_str(
                "it is not one plain name (it is empty, `.` or `..`, or holds `/` or NUL), \
                 so it would not stay in its directory",
            ),
            NotWritten::TooLarge { size, cap } => {
                write!(
                    f,
                    "it would be {size} bytes, over the {cap} bytes written at most"
                )
            }
            NotWritten::Exists => f.write_str("something is already there under that name"),
            NotWritten::Symlink => f.write_str(
                "it is a symlink, and a link is never followed to write (it could lead \
                 anywhere, a dangling one included)",
            ),
            NotWritten::NotRegular(kind) => {
                write!(f, "it is {}, not a regular file", kind.describe())
            }
            NotWritten::NotADirectory(what) => write!(f, "it is {what}, not a directory"),
            NotWritten::HardLinked(n) => write!(
                f,
                "it is a file with {n} names (hard links); rewriting it would change it under \
                 the other names too"
            ),
            NotWritten::Io(e) => e.fmt(f),
        }
    }
}

/// What every write checks before it opens anything: `name` is one plain entry and
/// `bytes` fit under `cap`.
pub(crate) fn entry_fits(name: &std::ffi::OsStr, bytes: &[u8], cap: u64) -> Result<(), NotWritten> {
    if !plain_name(name) {
        return Err(NotWritten::NotAName);
    }
    let size = bytes.len() as u64;
    match size > cap {
        true => Err(NotWritten::TooLarge { size, cap }),
        false => Ok(()),
    }
}

/// Whether `name` is one entry of a directory: not empty, `.` or `..`, no `/` or NUL.
/// What a write is given to create beneath a directory handle must be one, or the kernel
/// would walk `a/b` (following links in `a`) or climb out with `..`.
pub fn plain_name(name: &std::ffi::OsStr) -> bool {
    let bytes = name.as_encoded_bytes();
    !bytes.is_empty()
        && bytes != b"."
        && bytes != b".."
        && !bytes.contains(&b'/')
        && !bytes.contains(&0)
        // Windows reads `\` as a separator too, and `:` as a stream of the file.
        && (cfg!(unix) || !bytes.iter().any(|b| matches!(b, b'\\' | b':')))
}

/// A regular file, opened; what the descriptor said about it.
#[derive(Debug)]
pub struct Opened {
    file: File,
    /// Size in bytes when opened.
    pub size: u64,
    /// Hard links to the file, where the platform tells (not on Windows with stable std).
    pub links: Option<u64>,
}

impl Opened {
    /// Reads at most `cap` bytes from the start. A caller that must know whether more was
    /// there asks for one byte more than it keeps.
    pub fn read_at_most(self, cap: u64) -> io::Result<Vec<u8>> {
        // Never reserve more than the file claims, so a huge cap costs nothing up front.
        let hint = usize::try_from(self.size.min(cap)).unwrap_or(0);
        let mut bytes = Vec::with_capacity(hint);
        self.file.take(cap).read_to_end(&mut bytes)?;
        Ok(bytes)
    }
}

/// Builds the result from what `metadata` (an `fstat` on the open descriptor) says.
fn decide(file: File) -> Result<Opened, Refused> {
    let meta = file.metadata().map_err(Refused::Io)?;
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(Opened {
            size: meta.len(),
            links: links(&meta),
            file,
        });
    }
    Err(Refused::NotRegular(kind_of(kind)))
}

#[cfg(unix)]
fn kind_of(kind: std::fs::FileType) -> Kind {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        Kind::Directory
    } else if kind.is_fifo() {
        Kind::Fifo
    } else if kind.is_char_device() {
        Kind::CharDevice
    } else if kind.is_block_device() {
        Kind::BlockDevice
    } else if kind.is_socket() {
        Kind::Socket
    } else if kind.is_symlink() {
        Kind::Symlink
    } else {
        Kind::Other
    }
}

#[cfg(not(unix))]
fn kind_of(kind: std::fs::FileType) -> Kind {
    if kind.is_dir() {
        Kind::Directory
    } else if kind.is_symlink() {
        Kind::Symlink
    } else {
        Kind::Other
    }
}

#[cfg(unix)]
fn links(meta: &std::fs::Metadata) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    Some(meta.nlink())
}

#[cfg(not(unix))]
fn links(_: &std::fs::Metadata) -> Option<u64> {
    None
}
