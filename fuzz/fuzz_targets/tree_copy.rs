//! `cargo doctrine diff --rev`'s writer of a revision's tree (`cargo_doctrine::__fuzz::
//! write_tree`), given hostile trees: paths built from `..`, `.`, empty names, names
//! holding `/` or NUL, the same path twice, a symlink and then a directory of the same
//! name, links out of the root (relative, absolute, dangling), files under a link; the
//! root made afresh each run, sometimes holding links out already (a link to the outside
//! directory, a dangling one, one to an outside file). Checked: nothing is written or
//! changed outside the root; the root gains no symlink and no entry but the tree's own
//! directories and files, each file holding exactly its entry's bytes; a tree the model
//! says is malformed (a name not plain, a path twice, a path both file and directory) is
//! refused before anything is written; one it says is sound, in a root holding nothing in
//! its way, is written whole, its links listed as left out, in order.
#![no_main]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::os::unix::fs::{symlink, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use cargo_doctrine::__fuzz::{write_tree, TreeFile};
use doctrine_fuzz::scratch_dir;
use libfuzzer_sys::fuzz_target;

/// The outside file's bytes; it must stay so.
const CANARY: &[u8] = b"OUTSIDE-CANARY-3f9a";

#[derive(Arbitrary, Debug)]
struct Input {
    /// Links already in the root before the tree is written.
    pre: Vec<Pre>,
    entries: Vec<Entry>,
}

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Pre {
    /// `root/out` → the outside directory.
    OutDir,
    /// `root/gone` → `../outside/made` (missing).
    Dangling,
    /// `root/canary` → the outside file.
    OutFile,
}

impl Pre {
    fn name(self) -> &'static str {
        match self {
            Pre::OutDir => "out",
            Pre::Dangling => "gone",
            Pre::OutFile => "canary",
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Entry {
    path: Vec<Name>,
    kind: Kind,
    body: Vec<u8>,
}

/// One name of a path.
#[derive(Arbitrary, Debug)]
enum Name {
    Dot,
    DotDot,
    Empty,
    /// A name holding `/`: two names to a reader of the joined path.
    WithSlash,
    WithNul,
    /// `a`, `b`, `c`, `d`: few, so paths repeat and clash.
    Short(u8),
    /// The names of the links [`Pre`] puts in the root.
    Pre(Pre),
    Outside,
    Any(String),
}

impl Name {
    fn text(&self) -> String {
        match self {
            Name::Dot => ".".into(),
            Name::DotDot => "..".into(),
            Name::Empty => String::new(),
            Name::WithSlash => "x/..".into(),
            Name::WithNul => "n\0ul".into(),
            Name::Short(n) => ["a", "b", "c", "d"][usize::from(*n % 4)].into(),
            Name::Pre(p) => p.name().into(),
            Name::Outside => "outside".into(),
            // Kept under the file system's 255-byte name limit.
            Name::Any(s) => s.chars().take(24).collect(),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Kind {
    File,
    Executable,
    /// A symlink to where [`Target`] says.
    Link(Target),
    /// A mode git does not write, read as a file.
    OddMode,
}

#[derive(Arbitrary, Debug)]
enum Target {
    OutsideDir,
    OutsideFile,
    Absolute,
    Up,
    Dangling,
}

fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| scratch_dir("doctrine-fuzz-tree-copy"))
}

/// Every entry under `dir`, by path relative to it, without following links: `d` a
/// directory, `l:TARGET` a link, else the file's bytes (`f:` before them).
fn walk(dir: &Path, rel: &str, into: &mut BTreeMap<String, Vec<u8>>) {
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let meta = fs::symlink_metadata(entry.path()).unwrap();
        let kind = meta.file_type();
        if kind.is_symlink() {
            let target = fs::read_link(entry.path()).unwrap();
            into.insert(rel, format!("l:{}", target.display()).into_bytes());
        } else if kind.is_dir() {
            into.insert(rel.clone(), b"d".to_vec());
            walk(&entry.path(), &rel, into);
        } else {
            assert!(kind.is_file(), "{rel}: neither file, directory nor link");
            let mut bytes = b"f:".to_vec();
            bytes.extend(fs::read(entry.path()).unwrap());
            into.insert(rel, bytes);
        }
    }
}

/// Whether the tree is one a checkout could write: every name plain, no path twice, none
/// both a file and a directory (the writer's own rule, restated).
fn sound(files: &[TreeFile]) -> bool {
    let plain = |n: &str| !n.is_empty() && n != "." && n != ".." && !n.contains('\0');
    let mut paths = BTreeSet::new();
    let mut dirs = BTreeSet::new();
    for f in files {
        if !f.path.split('/').all(plain) || !paths.insert(f.path.as_str()) {
            return false;
        }
        let names: Vec<&str> = f.path.split('/').collect();
        for i in 1..names.len() {
            dirs.insert(names[..i].join("/"));
        }
    }
    !paths.iter().any(|p| dirs.contains(*p))
}

fuzz_target!(|input: Input| {
    let base = scratch();
    let _ = fs::remove_dir_all(base);
    let (root, outside) = (base.join("root"), base.join("outside"));
    fs::create_dir_all(&root).unwrap();
    fs::create_dir_all(&outside).unwrap();
    fs::write(outside.join("canary"), CANARY).unwrap();

    let pre: BTreeSet<Pre> = input.pre.iter().copied().collect();
    for p in &pre {
        let target = match p {
            Pre::OutDir => outside.clone(),
            Pre::Dangling => PathBuf::from("../outside/made"),
            Pre::OutFile => outside.join("canary"),
        };
        symlink(target, root.join(p.name())).unwrap();
    }
    let files: Vec<TreeFile> = input
        .entries
        .iter()
        .take(24)
        .map(|e| {
            let path: Vec<String> = e.path.iter().take(6).map(Name::text).collect();
            let (mode, body) = match &e.kind {
                Kind::File => ("100644", e.body.iter().copied().take(64).collect()),
                Kind::Executable => ("100755", e.body.iter().copied().take(64).collect()),
                Kind::OddMode => ("100664", e.body.clone()),
                Kind::Link(t) => {
                    let target = match t {
                        Target::OutsideDir => "../outside".to_string(),
                        Target::OutsideFile => "../../outside/canary".to_string(),
                        Target::Absolute => outside.display().to_string(),
                        Target::Up => "..".to_string(),
                        Target::Dangling => "../outside/made".to_string(),
                    };
                    ("120000", target.into_bytes())
                }
            };
            TreeFile {
                mode: mode.into(),
                path: path.join("/"),
                body,
            }
        })
        .collect();

    let mut before = BTreeMap::new();
    walk(&root, "", &mut before);
    let result = write_tree(&root, &files);

    // Nothing outside the root is made or changed.
    let mut beside: Vec<String> = fs::read_dir(base)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    beside.sort();
    assert_eq!(beside, ["outside", "root"], "{result:?}");
    let mut out = BTreeMap::new();
    walk(&outside, "", &mut out);
    assert_eq!(out.len(), 1, "outside holds {:?}", out.keys());
    assert_eq!(out["canary"], [b"f:", CANARY].concat());
    assert_eq!(fs::metadata(outside.join("canary")).unwrap().nlink(), 1);

    // The root: what was there, and the tree's own directories and files, nothing else.
    let mut after = BTreeMap::new();
    walk(&root, "", &mut after);
    for (path, was) in &before {
        assert_eq!(after.get(path), Some(was), "{path} changed");
    }
    let bodies: BTreeMap<&str, &TreeFile> = files
        .iter()
        .filter(|f| f.mode != "120000")
        .map(|f| (f.path.as_str(), f))
        .collect();
    for (path, now) in after.iter().filter(|(p, _)| !before.contains_key(*p)) {
        match now.as_slice() {
            b"d" => assert!(
                files
                    .iter()
                    .any(|f| f.path.starts_with(&format!("{path}/"))),
                "{path}: a directory no path needs"
            ),
            bytes => {
                let file = bodies.get(path.as_str());
                let file = file.unwrap_or_else(|| panic!("{path}: written, not in the tree"));
                assert_eq!(&bytes[..2], b"f:", "{path}: not a regular file");
                assert_eq!(&bytes[2..], file.body.as_slice(), "{path}: other bytes");
            }
        }
    }

    if !sound(&files) {
        assert!(result.is_err(), "a malformed tree was written");
        assert_eq!(after, before, "a malformed tree wrote something");
        return;
    }
    // A sound tree with nothing of the root's in its way is written whole.
    let in_the_way = files.iter().any(|f| {
        let first = f.path.split('/').next().unwrap_or("");
        pre.iter().any(|p| p.name() == first)
    });
    if in_the_way {
        return;
    }
    let left = result.unwrap_or_else(|e| panic!("a sound tree refused: {e}"));
    let links: Vec<&str> = files
        .iter()
        .filter(|f| f.mode == "120000")
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(left.links, links);
    for (path, file) in &bodies {
        assert_eq!(
            after.get(*path).map(|b| &b[2..]),
            Some(file.body.as_slice()),
            "{path}: not written"
        );
    }
});
