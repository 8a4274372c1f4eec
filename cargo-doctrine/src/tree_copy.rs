//! A git tree's files written beneath a fresh directory, for `--rev`. A tree is other
//! people's data: a commit made by hand (`git mktree`, `commit-tree`) can list a `..` name,
//! the same path twice, or a symlink to a directory outside and then files "inside" it, and
//! a fetch does not refuse it. So every path is checked before anything is written, and
//! each file is made one name at a time beneath the root's descriptor, never through a link
//! and never over something already there (`safe_open`'s write side).

use std::collections::HashSet;
use std::ffi::OsStr;
use std::path::Path;

use doctrine_codegen::__internals::MAX_FILE_BYTES;
use doctrine_load::__internals::safe_open::{DirHandle, NotWritten, Write};

/// The most bytes of one file copied: what the macro's loader reads of a file at most, so
/// a larger one would be refused when read anyway; it is left out and reported.
pub(crate) const MAX_COPIED_FILE_BYTES: u64 = MAX_FILE_BYTES;
/// The most bytes a copy writes in all, and the most entries it lists: a crate directory is
/// far smaller; these stop a hostile tree from filling the disk.
pub(crate) const MAX_COPIED_BYTES: u64 = 1 << 30;
pub(crate) const MAX_COPIED_ENTRIES: usize = 200_000;

/// One entry of a tree as `git ls-tree -r` lists it.
#[derive(Clone, Debug)]
pub struct Listed {
    /// Git's octal mode: `100644`, `100755` (files), `120000` (a symlink).
    pub mode: String,
    /// `/`-separated, relative to the copy's root.
    pub path: String,
    /// The blob's size in bytes.
    pub size: u64,
    /// The blob's object name (empty where the body is given, as [`write_tree`] takes it).
    pub oid: String,
}

/// What a copy left out, for the notice that says so.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Symlinks: never made in the copy (one to a directory outside would let a later path
    /// write through it; one inside would be read through by the loader, which a checkout
    /// on another machine need not match). The copy reads as if they were absent.
    pub links: Vec<String>,
    /// Files over [`MAX_COPIED_FILE_BYTES`], which the loader would refuse to read.
    pub too_large: Vec<String>,
    /// Paths that are not UTF-8 (shown lossily), which no manifest can name.
    pub not_utf8: Vec<String>,
}

impl LeftOut {
    /// One notice line naming what was left out, or `None` when nothing was.
    pub(crate) fn notice(&self, rev: &str) -> Option<String> {
        let mut parts = Vec::new();
        if !self.links.is_empty() {
            parts.push(format!(
                "{} symlink(s) not made, so the old side reads as if they were absent: {}",
                self.links.len(),
                shown(&self.links)
            ));
        }
        if !self.too_large.is_empty() {
            parts.push(format!(
                "{} file(s) over {} MiB left out (the loader reads no more of a file): {}",
                self.too_large.len(),
                MAX_COPIED_FILE_BYTES >> 20,
                shown(&self.too_large)
            ));
        }
        if !self.not_utf8.is_empty() {
            parts.push(format!(
                "{} path(s) that are not UTF-8 left out (a manifest cannot name them): {}",
                self.not_utf8.len(),
                shown(&self.not_utf8)
            ));
        }
        (!parts.is_empty()).then(|| format!("notice: the tree at `{rev}`: {}", parts.join("; ")))
    }
}

/// At most five paths, then how many more.
fn shown(paths: &[String]) -> String {
    let mut s: Vec<String> = paths
        .iter()
        .take(5)
        .map(|p| format!("`{}`", p.escape_debug()))
        .collect();
    if paths.len() > 5 {
        s.push(format!("and {} more", paths.len() - 5));
    }
    s.join(", ")
}

/// The entries to write, in order, once the whole listing is judged: refused outright when
/// a path could not be written as a checkout writes it (a `..`, `.` or empty name, a NUL,
/// the same path twice, a path both a file and a directory), or when the tree is too large.
pub(crate) fn plan(listed: &[Listed]) -> Result<(Vec<&Listed>, LeftOut), String> {
    if listed.len() > MAX_COPIED_ENTRIES {
        return Err(format!(
            "it lists {} files, more than the {MAX_COPIED_ENTRIES} copied; compare a crate \
             directory with fewer files",
            listed.len()
        ));
    }
    let hand_made = "no checkout writes such a path, so the commit was made by hand (`git \
                     fsck` reports it); compare against another revision";
    let mut files = HashSet::new();
    let mut dirs = HashSet::new();
    for entry in listed {
        if let Some(name) = entry.path.split('/').find(|n| !plain(n)) {
            return Err(format!(
                "it holds the path `{}`, whose name `{}` is not one plain name (empty, `.` \
                 or `..`, or holding NUL); {hand_made}",
                entry.path.escape_debug(),
                name.escape_debug()
            ));
        }
        if !files.insert(entry.path.as_str()) {
            return Err(format!(
                "it lists the path `{}` twice; {hand_made}",
                entry.path.escape_debug()
            ));
        }
        let mut at = 0;
        while let Some(slash) = entry.path[at..].find('/') {
            dirs.insert(&entry.path[..at + slash]);
            at += slash + 1;
        }
    }
    if let Some(clash) = files.iter().find(|f| dirs.contains(*f)) {
        return Err(format!(
            "it lists `{}` both as a file (or link) and as a directory; {hand_made}",
            clash.escape_debug()
        ));
    }
    let (mut write, mut left, mut total) = (Vec::new(), LeftOut::default(), 0u64);
    for entry in listed {
        if entry.mode == "120000" {
            left.links.push(entry.path.clone());
        } else if entry.size > MAX_COPIED_FILE_BYTES {
            left.too_large.push(entry.path.clone());
        } else {
            total += entry.size;
            write.push(entry);
        }
    }
    if total > MAX_COPIED_BYTES {
        return Err(format!(
            "its files hold {total} bytes, more than the {} MiB copied; compare a smaller \
             crate directory",
            MAX_COPIED_BYTES >> 20
        ));
    }
    Ok((write, left))
}

/// One name of a path as the loader's write side takes it (no `/`, `.`, `..`, NUL).
fn plain(name: &str) -> bool {
    doctrine_load::__internals::safe_open::plain_name(OsStr::new(name))
}

/// Writes files beneath one root directory, each directory made (or opened) one name at a
/// time without following a link. Keeps the last directory open: git lists a directory's
/// files together.
pub(crate) struct Writer {
    root: DirHandle,
    last: Option<(String, DirHandle)>,
}

impl Writer {
    pub(crate) fn new(root: &Path) -> Result<Self, String> {
        let root =
            DirHandle::open(root).map_err(|e| format!("cannot open {}: {e}", root.display()))?;
        Ok(Writer { root, last: None })
    }

    /// Writes `body` at `path` (planned: plain names, no clash), as a new file.
    pub(crate) fn write(&mut self, path: &str, body: &[u8]) -> Result<(), String> {
        let failed = |e: NotWritten| format!("cannot write `{}` in the copy: {e}", path);
        let (dir, name) = match path.rsplit_once('/') {
            Some((dir, name)) => (Some(dir), name),
            None => (None, path),
        };
        let handle = match dir {
            None => &self.root,
            Some(dir) => {
                if self.last.as_ref().is_none_or(|(d, _)| d != dir) {
                    let mut parts = dir.split('/').map(OsStr::new);
                    let first = parts.next().unwrap_or_default();
                    let mut at = self.root.make_subdir_nofollow(first);
                    for part in parts {
                        at = at.and_then(|h| h.make_subdir_nofollow(part));
                    }
                    self.last = Some((dir.to_string(), at.map_err(failed)?));
                }
                &self.last.as_ref().expect("set above").1
            }
        };
        handle
            .write_entry(OsStr::new(name), body, MAX_COPIED_FILE_BYTES, Write::New)
            .map_err(failed)
    }
}

/// One file of a tree with its body, for [`write_tree`].
#[derive(Clone, Debug)]
pub struct TreeFile {
    /// Git's octal mode (`120000`: a symlink, whose body is its target).
    pub mode: String,
    pub path: String,
    pub body: Vec<u8>,
}

/// Writes `files` beneath `root` (an empty directory) as `--rev` writes a revision's tree:
/// judged whole first, then each file made beneath `root`'s descriptor. What was left out,
/// or why nothing (or not everything) was written. The fuzz target's way in.
pub fn write_tree(root: &Path, files: &[TreeFile]) -> Result<LeftOut, String> {
    let listed: Vec<Listed> = files
        .iter()
        .map(|f| Listed {
            mode: f.mode.clone(),
            path: f.path.clone(),
            size: f.body.len() as u64,
            oid: String::new(),
        })
        .collect();
    let (write, left) = plan(&listed)?;
    // Planned paths are distinct, so each names one body.
    let bodies: std::collections::HashMap<&str, &[u8]> = files
        .iter()
        .map(|f| (f.path.as_str(), f.body.as_slice()))
        .collect();
    let mut writer = Writer::new(root)?;
    for entry in write {
        writer.write(&entry.path, bodies[entry.path.as_str()])?;
    }
    Ok(left)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, body: &str) -> TreeFile {
        TreeFile {
            mode: "100644".into(),
            path: path.into(),
            body: body.into(),
        }
    }

    #[test]
    fn files_are_written_beneath_the_root_and_links_are_left_out() {
        let tmp = tempfile::tempdir().unwrap();
        let link = TreeFile {
            mode: "120000".into(),
            ..file("a/link", "/etc")
        };
        let files = [
            file("top.md", "1"),
            file("a/b/c.md", "2"),
            link,
            file("a/d.md", "3"),
        ];
        let left = write_tree(tmp.path(), &files).unwrap();
        assert_eq!(left.links, ["a/link"]);
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("a/b/c.md")).unwrap(),
            "2"
        );
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("a/d.md")).unwrap(),
            "3"
        );
        assert!(std::fs::symlink_metadata(tmp.path().join("a/link")).is_err());
    }

    #[test]
    fn a_link_already_in_the_root_is_never_written_through() {
        let tmp = tempfile::tempdir().unwrap();
        let (root, outside) = (tmp.path().join("root"), tmp.path().join("outside"));
        std::fs::create_dir(&root).unwrap();
        std::fs::create_dir(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("pre")).unwrap();
        std::os::unix::fs::symlink(outside.join("new"), root.join("dangling")).unwrap();
        let err = write_tree(&root, &[file("pre/x.md", "x")]).unwrap_err();
        assert!(
            err.contains("cannot write `pre/x.md` in the copy: it is a symlink"),
            "{err}"
        );
        let err = write_tree(&root, &[file("dangling", "x")]).unwrap_err();
        assert!(err.contains("something is already there"), "{err}");
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    }

    #[test]
    fn a_file_over_the_cap_is_left_out() {
        let listed = [Listed {
            mode: "100644".into(),
            path: "big.bin".into(),
            size: MAX_COPIED_FILE_BYTES + 1,
            oid: String::new(),
        }];
        let (write, left) = plan(&listed).unwrap();
        assert!(write.is_empty());
        assert_eq!(left.too_large, ["big.bin"]);
        let notice = left.notice("HEAD").unwrap();
        assert!(
            notice.contains("1 file(s) over 16 MiB left out"),
            "{notice}"
        );
    }
}
