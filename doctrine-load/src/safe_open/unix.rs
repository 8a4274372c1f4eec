//! The unix side: `openat`/`openat2` through `rustix`, listing from the directory descriptor.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use rustix::fd::OwnedFd;
use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::{decide, entry_fits, plain_name, Entry, Kind, NotWritten, Opened, Refused, Write};

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

    /// Makes the direct subdirectory `name` if it is missing, and opens it, never following
    /// a link: a symlink there (to a directory or dangling) is refused, so nothing written
    /// beneath the result can land outside this directory.
    pub fn make_subdir_nofollow(&self, name: &OsStr) -> Result<DirHandle, NotWritten> {
        if !plain_name(name) {
            return Err(NotWritten::NotAName);
        }
        match rfs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777)) {
            Ok(()) | Err(Errno::EXIST) => {}
            Err(e) => return Err(NotWritten::Io(e.into())),
        }
        let flags = READ | OFlags::DIRECTORY | OFlags::NOFOLLOW;
        match rfs::openat(&self.fd, name, flags, Mode::empty()) {
            Ok(fd) => Ok(DirHandle { fd }),
            Err(Errno::LOOP | Errno::NOTDIR) => Err(self.not_a_directory(name)),
            #[cfg(any(target_os = "freebsd", target_os = "dragonfly"))]
            Err(Errno::MLINK) => Err(NotWritten::Symlink),
            Err(e) => Err(NotWritten::Io(e.into())),
        }
    }

    /// Writes `bytes` as the direct entry `name`: created as a regular file if missing;
    /// what is there already is treated as `how` says. Opened without following a link and
    /// without blocking (a FIFO with no reader fails at once, one with a reader is refused
    /// by its kind), and judged from the descriptor before a byte is written or cut.
    /// At most `cap` bytes: more is refused before anything is opened.
    pub fn write_entry(
        &self,
        name: &OsStr,
        bytes: &[u8],
        cap: u64,
        how: Write,
    ) -> Result<(), NotWritten> {
        use std::io::Write as _;
        entry_fits(name, bytes, cap)?;
        let mut flags = OFlags::WRONLY
            | OFlags::CREATE
            | OFlags::NOFOLLOW
            | OFlags::NONBLOCK
            | OFlags::NOCTTY
            | OFlags::CLOEXEC;
        if how == Write::New {
            flags |= OFlags::EXCL;
        }
        let fd = match rfs::openat(&self.fd, name, flags, Mode::from_raw_mode(0o666)) {
            Ok(fd) => fd,
            // `O_EXCL` answers so for anything there, a dangling link included.
            Err(Errno::EXIST) => return Err(NotWritten::Exists),
            Err(Errno::LOOP) => return Err(NotWritten::Symlink),
            #[cfg(any(target_os = "freebsd", target_os = "dragonfly"))]
            Err(Errno::MLINK) => return Err(NotWritten::Symlink),
            Err(Errno::ISDIR) => return Err(NotWritten::NotRegular(Kind::Directory)),
            // A FIFO no one reads, a socket or a driverless device: looked at (without
            // following) only to say which.
            Err(Errno::NXIO) => {
                let kind = rfs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)
                    .map_or(Kind::NoDevice, |st| {
                        kind_of_type(FileType::from_raw_mode(st.st_mode))
                    });
                return Err(NotWritten::NotRegular(kind));
            }
            Err(e) => return Err(NotWritten::Io(e.into())),
        };
        let mut file = File::from(fd);
        let meta = file.metadata().map_err(NotWritten::Io)?;
        if !meta.file_type().is_file() {
            return Err(NotWritten::NotRegular(super::kind_of(meta.file_type())));
        }
        let names = std::os::unix::fs::MetadataExt::nlink(&meta);
        if names > 1 {
            return Err(NotWritten::HardLinked(names));
        }
        file.set_len(0).map_err(NotWritten::Io)?;
        file.write_all(bytes).map_err(NotWritten::Io)
    }

    /// Why `name` could not be opened as a directory: a symlink, or what it is instead.
    fn not_a_directory(&self, name: &OsStr) -> NotWritten {
        match rfs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => match FileType::from_raw_mode(st.st_mode) {
                FileType::Symlink => NotWritten::Symlink,
                FileType::RegularFile => NotWritten::NotADirectory("a regular file"),
                other => NotWritten::NotADirectory(kind_of_type(other).describe()),
            },
            Err(e) => NotWritten::Io(e.into()),
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

/// What a `stat` mode says the entry is, for messages.
fn kind_of_type(kind: FileType) -> Kind {
    match kind {
        FileType::Directory => Kind::Directory,
        FileType::Fifo => Kind::Fifo,
        FileType::CharacterDevice => Kind::CharDevice,
        FileType::BlockDevice => Kind::BlockDevice,
        FileType::Socket => Kind::Socket,
        FileType::Symlink => Kind::Symlink,
        _ => Kind::Other,
    }
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

    #[test]
    fn a_write_takes_one_plain_name_and_nothing_lands_outside() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("root")).unwrap();
        let dir = DirHandle::open(&tmp.path().join("root")).unwrap();
        for name in ["", ".", "..", "../escaped", "a/b", "/abs", "nul\0"] {
            for how in [Write::New, Write::Replace] {
                let got = dir.write_entry(OsStr::new(name), b"x", 10, how);
                assert!(
                    matches!(got, Err(NotWritten::NotAName)),
                    "{name:?}: {got:?}"
                );
            }
            let got = dir.make_subdir_nofollow(OsStr::new(name));
            assert!(
                matches!(got, Err(NotWritten::NotAName)),
                "{name:?}: {got:?}"
            );
        }
        let mut left: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, ["root"]);
        assert_eq!(
            std::fs::read_dir(tmp.path().join("root")).unwrap().count(),
            0
        );
    }

    #[test]
    fn a_write_never_follows_a_link_not_even_a_dangling_one() {
        let tmp = tempfile::tempdir().unwrap();
        let (root, outside) = (tmp.path().join("root"), tmp.path().join("outside"));
        std::fs::create_dir(&root).unwrap();
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("kept"), "outside").unwrap();
        std::os::unix::fs::symlink(outside.join("made"), root.join("dangling")).unwrap();
        std::os::unix::fs::symlink(outside.join("kept"), root.join("to_file")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("to_dir")).unwrap();
        let dir = DirHandle::open(&root).unwrap();
        for name in ["dangling", "to_file", "to_dir"] {
            let got = dir.write_entry(OsStr::new(name), b"x", 10, Write::Replace);
            assert!(matches!(got, Err(NotWritten::Symlink)), "{name}: {got:?}");
            let got = dir.write_entry(OsStr::new(name), b"x", 10, Write::New);
            assert!(matches!(got, Err(NotWritten::Exists)), "{name}: {got:?}");
        }
        let got = dir.make_subdir_nofollow(OsStr::new("to_dir"));
        assert!(matches!(got, Err(NotWritten::Symlink)), "{got:?}");
        assert!(!outside.join("made").exists());
        assert_eq!(
            std::fs::read_to_string(outside.join("kept")).unwrap(),
            "outside"
        );
    }

    #[test]
    fn a_write_to_a_fifo_returns_at_once_refused_by_its_kind() {
        let tmp = tempfile::tempdir().unwrap();
        mkfifo(&tmp.path().join("pipe"));
        let dir = DirHandle::open(tmp.path()).unwrap();
        let got = dir.write_entry(OsStr::new("pipe"), b"x", 10, Write::Replace);
        assert!(
            matches!(got, Err(NotWritten::NotRegular(Kind::Fifo))),
            "{got:?}"
        );
        // With a reader the open succeeds, and the descriptor refuses it.
        let reader = rfs::open(tmp.path().join("pipe"), READ, Mode::empty()).unwrap();
        let got = dir.write_entry(OsStr::new("pipe"), b"x", 10, Write::Replace);
        assert!(
            matches!(got, Err(NotWritten::NotRegular(Kind::Fifo))),
            "{got:?}"
        );
        drop(reader);
    }

    #[test]
    fn a_regular_file_is_replaced_and_one_with_other_names_is_not() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DirHandle::open(tmp.path()).unwrap();
        std::fs::write(tmp.path().join("old"), "a longer old text").unwrap();
        dir.write_entry(OsStr::new("old"), b"new", 10, Write::Replace)
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("old")).unwrap(),
            "new"
        );
        let got = dir.write_entry(OsStr::new("old"), b"new", 10, Write::New);
        assert!(matches!(got, Err(NotWritten::Exists)), "{got:?}");

        std::fs::write(tmp.path().join("shared"), "elsewhere too").unwrap();
        std::fs::hard_link(tmp.path().join("shared"), tmp.path().join("other")).unwrap();
        let got = dir.write_entry(OsStr::new("shared"), b"x", 10, Write::Replace);
        assert!(matches!(got, Err(NotWritten::HardLinked(2))), "{got:?}");
        let got = dir.write_entry(OsStr::new("big"), b"eleven byte", 10, Write::Replace);
        assert!(
            matches!(got, Err(NotWritten::TooLarge { size: 11, cap: 10 })),
            "{got:?}"
        );
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("other")).unwrap(),
            "elsewhere too"
        );
        assert!(!tmp.path().join("big").exists());
    }

    #[test]
    fn a_directory_is_made_or_opened_beneath_never_a_file_in_its_place() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DirHandle::open(tmp.path()).unwrap();
        let sub = dir.make_subdir_nofollow(OsStr::new("sub")).unwrap();
        sub.write_entry(OsStr::new("f"), b"in sub", 10, Write::New)
            .unwrap();
        let again = dir.make_subdir_nofollow(OsStr::new("sub")).unwrap();
        let got = again.write_entry(OsStr::new("f"), b"x", 10, Write::New);
        assert!(matches!(got, Err(NotWritten::Exists)), "{got:?}");
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("sub/f")).unwrap(),
            "in sub"
        );
        let got = sub.make_subdir_nofollow(OsStr::new("f"));
        assert!(
            matches!(got, Err(NotWritten::NotADirectory("a regular file"))),
            "{got:?}"
        );
    }
}
