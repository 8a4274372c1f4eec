//! The unix side: `openat`/`openat2` through `rustix`, listing from the directory descriptor.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use rustix::fd::OwnedFd;
use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::{decide, Entry, Kind, Opened, Refused};

/// How every file is opened: read-only, never blocking (a FIFO with no writer opens at
/// once and is then refused by its kind), never becoming the controlling terminal, not
/// inherited by child processes.
const READ: OFlags = OFlags::RDONLY
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOCTTY)
    .union(OFlags::CLOEXEC);

/// A directory opened once; entries are listed and opened relative to its descriptor, so
/// renaming or replacing the directory's path afterwards changes nothing.
#[derive(Debug)]
pub struct DirHandle {
    fd: OwnedFd,
}

impl DirHandle {
    /// Opens `path` as a directory (symlinks in `path` itself are followed: it is the
    /// caller's own configuration). Anything else fails with `ENOTDIR`, without blocking.
    pub fn open(path: &Path) -> io::Result<DirHandle> {
        let flags = READ | OFlags::DIRECTORY;
        Ok(DirHandle {
            fd: rfs::open(path, flags, Mode::empty())?,
        })
    }

    /// The direct entries (without `.` and `..`), in the order listed, and the errors met.
    pub fn entries(&self) -> io::Result<(Vec<Entry>, Vec<io::Error>)> {
        let (mut found, mut errors) = (Vec::new(), Vec::new());
        for entry in rfs::Dir::read_from(&self.fd)? {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    errors.push(e.into());
                    continue;
                }
            };
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let is_dir = match entry.file_type() {
                FileType::Directory => true,
                // Some file systems do not fill in the type when listing.
                FileType::Unknown => rfs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)
                    .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Directory),
                _ => false,
            };
            found.push(Entry {
                name: OsStr::from_bytes(name).to_os_string(),
                is_dir,
            });
        }
        Ok((found, errors))
    }

    /// Opens `rel` so that resolving it cannot leave this directory: symlinks inside are
    /// followed, one that leads out (or is absolute, or is a `/proc` magic link) fails in
    /// the kernel. Linux only (`openat2`, 5.6+); elsewhere, and where a sandbox forbids
    /// `openat2`, [`Refused::Unconfined`] says why and the caller chooses a fallback.
    pub fn open_beneath(&self, rel: &Path) -> Result<Opened, Refused> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            use rustix::fs::ResolveFlags;
            let how = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
            // `EAGAIN`: a rename elsewhere raced the `..` check; the kernel asks to retry.
            for _ in 0..16 {
                match rfs::openat2(&self.fd, rel, READ, Mode::empty(), how) {
                    Ok(fd) => return decide(File::from(fd)),
                    Err(Errno::AGAIN) => continue,
                    Err(Errno::XDEV) => return Err(Refused::Escapes),
                    Err(Errno::NOSYS) => {
                        return Err(Refused::Unconfined(
                            "this kernel has no `openat2` (Linux 5.6 or later), which is \
                             needed to follow a link without leaving the directory",
                        ))
                    }
                    // Seccomp filters (container runtimes, sandboxes) answer EPERM.
                    Err(Errno::PERM) => {
                        return Err(Refused::Unconfined(
                            "a sandbox forbids `openat2`, which is needed to follow a link \
                             without leaving the directory",
                        ))
                    }
                    Err(e) => return Err(refused(e)),
                }
            }
            Err(Refused::Io(Errno::AGAIN.into()))
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            let _ = rel;
            Err(Refused::Unconfined(
                "only Linux (`openat2`) can follow a link without leaving the directory",
            ))
        }
    }

    /// Opens the direct entry `name` without following a symlink: a symlink is refused
    /// with `why` (the reason links cannot be followed here).
    pub fn open_entry_nofollow(&self, name: &OsStr, why: &'static str) -> Result<Opened, Refused> {
        match rfs::openat(&self.fd, name, READ | OFlags::NOFOLLOW, Mode::empty()) {
            Ok(fd) => decide(File::from(fd)),
            // FreeBSD and DragonFly answer EMLINK where the others answer ELOOP.
            Err(Errno::LOOP) => Err(Refused::Symlink(why)),
            #[cfg(any(target_os = "freebsd", target_os = "dragonfly"))]
            Err(Errno::MLINK) => Err(Refused::Symlink(why)),
            Err(e) => Err(refused(e)),
        }
    }

    /// Opens the direct entry `name` as a directory without following a symlink: a symlink
    /// is refused with `why`, anything else that is not a directory fails with `ENOTDIR`
    /// (as `openat2` does for a path through a file).
    pub fn open_subdir_nofollow(
        &self,
        name: &OsStr,
        why: &'static str,
    ) -> Result<DirHandle, Refused> {
        let flags = READ | OFlags::DIRECTORY | OFlags::NOFOLLOW;
        match rfs::openat(&self.fd, name, flags, Mode::empty()) {
            Ok(fd) => Ok(DirHandle { fd }),
            Err(Errno::LOOP) => Err(Refused::Symlink(why)),
            #[cfg(any(target_os = "freebsd", target_os = "dragonfly"))]
            Err(Errno::MLINK) => Err(Refused::Symlink(why)),
            // `O_DIRECTORY | O_NOFOLLOW` on a symlink gives ENOTDIR on some systems.
            Err(Errno::NOTDIR) => match rfs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::Symlink => {
                    Err(Refused::Symlink(why))
                }
                _ => Err(Refused::Io(Errno::NOTDIR.into())),
            },
            Err(e) => Err(refused(e)),
        }
    }

    /// Where the symlink `rel` points, if it is one: only to name it in a message, after
    /// the decision was made on the open.
    pub fn read_link(&self, rel: &Path) -> Option<PathBuf> {
        let target = rfs::readlinkat(&self.fd, rel, Vec::new()).ok()?;
        Some(PathBuf::from(OsString::from_vec(target.into_bytes())))
    }
}

/// Opens `path` (following symlinks) without blocking and decides from the descriptor.
pub fn open_regular(path: &Path) -> Result<Opened, Refused> {
    match rfs::open(path, READ, Mode::empty()) {
        Ok(fd) => decide(File::from(fd)),
        Err(e) => Err(refused(e)),
    }
}

/// How a file is opened to be written (by the tool, never by a program): created if
/// missing, never blocking (a FIFO opens at once or fails), not truncated before the
/// descriptor says it is a regular file.
const WRITE: OFlags = OFlags::WRONLY
    .union(OFlags::CREATE)
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOCTTY)
    .union(OFlags::CLOEXEC);

/// Opens `path` (following symlinks) to be written, without blocking, and decides from the
/// descriptor: a regular file, emptied, or what it is instead.
pub fn create_regular(path: &Path) -> Result<File, Refused> {
    let opened = rfs::open(path, WRITE, Mode::from_raw_mode(0o666)).map_err(|e| match e {
        Errno::ISDIR => Refused::NotRegular(Kind::Directory),
        // A FIFO no one reads answers so, as a socket or a driverless device does; the
        // path is looked at only to say which it is.
        Errno::NXIO => Refused::NotRegular(match std::fs::metadata(path) {
            Ok(meta) => super::kind_of(meta.file_type()),
            Err(_) => Kind::NoDevice,
        }),
        e => refused(e),
    })?;
    let file = decide(File::from(opened))?.file;
    file.set_len(0).map_err(Refused::Io)?;
    Ok(file)
}

fn refused(e: Errno) -> Refused {
    match e {
        Errno::NOENT => Refused::Missing(e.into()),
        // What opening a unix socket, or a device node with no driver, answers.
        Errno::NXIO => Refused::NotRegular(Kind::NoDevice),
        _ => Refused::Io(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mkfifo(path: &Path) {
        rfs::mknodat(
            rfs::CWD,
            path,
            FileType::Fifo,
            Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
    }

    #[test]
    fn fifo_opens_without_blocking_and_is_refused_by_kind() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("pipe");
        mkfifo(&fifo);
        assert!(matches!(
            open_regular(&fifo),
            Err(Refused::NotRegular(Kind::Fifo))
        ));
        let dir = DirHandle::open(tmp.path()).unwrap();
        assert!(matches!(
            dir.open_entry_nofollow(OsStr::new("pipe"), "test"),
            Err(Refused::NotRegular(Kind::Fifo))
        ));
    }

    #[test]
    fn no_follow_open_refuses_a_symlink_with_the_reason_given() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("real"), "text").unwrap();
        std::os::unix::fs::symlink("real", tmp.path().join("link")).unwrap();
        let dir = DirHandle::open(tmp.path()).unwrap();
        match dir.open_entry_nofollow(OsStr::new("link"), "no confinement here") {
            Err(Refused::Symlink(why)) => assert_eq!(why, "no confinement here"),
            other => panic!("expected a refused symlink, got {other:?}"),
        }
        let real = dir
            .open_entry_nofollow(OsStr::new("real"), "unused")
            .unwrap();
        assert_eq!(real.size, 4);
        assert_eq!(real.links, Some(1));
        assert_eq!(real.read_at_most(3).unwrap(), b"tex");
    }

    #[test]
    fn listing_skips_dot_entries_and_marks_directories() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("sub")).unwrap();
        std::fs::write(tmp.path().join("file"), "").unwrap();
        let (mut entries, errors) = DirHandle::open(tmp.path()).unwrap().entries().unwrap();
        assert!(errors.is_empty(), "{errors:?}");
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        let got: Vec<(&OsStr, bool)> = entries
            .iter()
            .map(|e| (e.name.as_os_str(), e.is_dir))
            .collect();
        assert_eq!(
            got,
            [(OsStr::new("file"), false), (OsStr::new("sub"), true)]
        );
    }
}
