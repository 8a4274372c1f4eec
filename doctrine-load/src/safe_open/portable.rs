//! The fallback for platforms that are not unix, in plain `std`: no confined open exists,
//! so symlinks are never followed, and every decision is made on the opened handle's
//! metadata. (Not built or tested on the Linux machines this crate is developed on.)

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use super::{decide, entry_fits, plain_name, Entry, Kind, NotWritten, Opened, Refused, Write};

/// The directory's path: without descriptors relative to a directory, entries are opened
/// by joined path.
#[derive(Debug)]
pub struct DirHandle {
    path: PathBuf,
}

impl DirHandle {
    pub fn open(path: &Path) -> io::Result<DirHandle> {
        if !fs::metadata(path)?.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            ));
        }
        Ok(DirHandle {
            path: path.to_path_buf(),
        })
    }

    pub fn entries(&self) -> io::Result<(Vec<Entry>, Vec<io::Error>)> {
        let (mut found, mut errors) = (Vec::new(), Vec::new());
        for entry in fs::read_dir(&self.path)? {
            match entry {
                Ok(entry) => found.push(Entry {
                    is_dir: entry.file_type().is_ok_and(|t| t.is_dir()),
                    name: entry.file_name(),
                }),
                Err(e) => errors.push(e),
            }
        }
        Ok((found, errors))
    }

    pub fn open_beneath(&self, _rel: &Path) -> Result<Opened, Refused> {
        Err(Refused::Unconfined(
            "only Linux (`openat2`) can follow a link without leaving the directory",
        ))
    }

    pub fn open_entry_nofollow(&self, name: &OsStr, why: &'static str) -> Result<Opened, Refused> {
        let path = self.path.join(name);
        let file = match open_link_itself(&path) {
            Ok(Some(file)) => file,
            Ok(None) => return Err(Refused::Symlink(why)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(Refused::Missing(e)),
            Err(e) => return Err(Refused::Io(e)),
        };
        match decide(file) {
            Err(Refused::NotRegular(Kind::Symlink)) => Err(Refused::Symlink(why)),
            other => other,
        }
    }

    pub fn open_subdir_nofollow(
        &self,
        name: &OsStr,
        why: &'static str,
    ) -> Result<DirHandle, Refused> {
        let path = self.path.join(name);
        // The same gap as `open_link_itself` off Windows: looked at, then used by path.
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => Err(Refused::Symlink(why)),
            Ok(m) if m.is_dir() => Ok(DirHandle { path }),
            Ok(_) => Err(Refused::Io(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            ))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Refused::Missing(e)),
            Err(e) => Err(Refused::Io(e)),
        }
    }

    /// As on unix, by path: a link swapped in between the look and the use is the gap
    /// left (what is written is still judged from the handle).
    pub fn make_subdir_nofollow(&self, name: &OsStr) -> Result<DirHandle, NotWritten> {
        if !plain_name(name) {
            return Err(NotWritten::NotAName);
        }
        let path = self.path.join(name);
        match fs::create_dir(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(NotWritten::Io(e)),
        }
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => Err(NotWritten::Symlink),
            Ok(m) if m.is_dir() => Ok(DirHandle { path }),
            Ok(m) if m.is_file() => Err(NotWritten::NotADirectory("a regular file")),
            Ok(m) => Err(NotWritten::NotADirectory(
                super::kind_of(m.file_type()).describe(),
            )),
            Err(e) => Err(NotWritten::Io(e)),
        }
    }

    pub fn write_entry(
        &self,
        name: &OsStr,
        bytes: &[u8],
        cap: u64,
        how: Write,
    ) -> Result<(), NotWritten> {
        use std::io::Write as _;
        entry_fits(name, bytes, cap)?;
        let path = self.path.join(name);
        let mut options = OpenOptions::new();
        options.write(true);
        match how {
            // `create_new` never follows a link, a dangling one included.
            Write::New => options.create_new(true),
            Write::Replace => {
                match fs::symlink_metadata(&path) {
                    Ok(m) if m.file_type().is_symlink() => return Err(NotWritten::Symlink),
                    _ => {}
                }
                options.create(true)
            }
        };
        let mut file = options.open(&path).map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => NotWritten::Exists,
            _ => NotWritten::Io(e),
        })?;
        let meta = file.metadata().map_err(NotWritten::Io)?;
        if !meta.is_file() {
            return Err(NotWritten::NotRegular(super::kind_of(meta.file_type())));
        }
        file.set_len(0).map_err(NotWritten::Io)?;
        file.write_all(bytes).map_err(NotWritten::Io)
    }

    pub fn read_link(&self, rel: &Path) -> Option<PathBuf> {
        fs::read_link(self.path.join(rel)).ok()
    }
}

/// Windows: opens a symlink (a reparse point) as itself, so its handle's metadata says
/// "symlink" and the caller refuses it.
#[cfg(windows)]
fn open_link_itself(path: &Path) -> io::Result<Option<File>> {
    use std::os::windows::fs::OpenOptionsExt;
    const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
    OpenOptions::new()
        .read(true)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path)
        .map(Some)
}

/// Elsewhere std cannot open a link as itself: `None` for a path that is a symlink now (a
/// link swapped in after this look is the one gap left; what it leads to is still judged
/// from the handle).
#[cfg(not(windows))]
fn open_link_itself(path: &Path) -> io::Result<Option<File>> {
    if fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Ok(None);
    }
    OpenOptions::new().read(true).open(path).map(Some)
}

pub fn open_regular(path: &Path) -> Result<Opened, Refused> {
    match File::open(path) {
        Ok(file) => decide(file),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Refused::Missing(e)),
        Err(e) => Err(Refused::Io(e)),
    }
}
