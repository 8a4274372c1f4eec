//! `diff --rev` and `book --rev` on commits made by hand (`git mktree`, `commit-tree`), as
//! someone else's repository may hold them: a tree whose paths climb out with `..`, or list
//! one path as a symlink to an outside directory and again as a directory. The copy of the
//! old tree must write nothing outside its temporary directory, whatever the tree says.

mod git_repo;
use git_repo::git;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const MANIFEST: &str = "[[layer]]\nname = \"base\"\ntext = \"Shared rules.\"\n";

/// Git's output for `args`, with `input` on its standard input.
fn git_out(dir: &Path, args: &[&str], input: &str) -> String {
    let mut child = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .trim_end()
        .to_string()
}

fn blob(repo: &Path, text: &str) -> String {
    git_out(repo, &["hash-object", "-w", "--stdin"], text)
}

/// A tree of `entries`, each `(mode, kind, object, name)`, made as given (no check).
fn mktree(repo: &Path, entries: &[(&str, &str, &str, &str)]) -> String {
    let listing: String = entries
        .iter()
        .map(|(mode, kind, oid, name)| format!("{mode} {kind} {oid}\t{name}\n"))
        .collect();
    git_out(repo, &["mktree"], &listing)
}

/// A test's directories: the repository (crate `agent/` committed with a manifest), the
/// temporary directory the tool is given (`TMPDIR`), and one outside both.
struct Setup {
    _top: tempfile::TempDir,
    repo: PathBuf,
    tmp: PathBuf,
    outside: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let top = tempfile::tempdir().unwrap();
        let (repo, tmp, outside) = (
            top.path().join("repo"),
            top.path().join("tmp"),
            top.path().join("outside"),
        );
        for dir in [&repo, &tmp, &outside] {
            std::fs::create_dir(dir).unwrap();
        }
        std::fs::create_dir(repo.join("agent")).unwrap();
        std::fs::write(repo.join("agent/Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
        std::fs::write(repo.join("agent/doctrine.toml"), MANIFEST).unwrap();
        git(&repo, &["init", "-q"]);
        git(&repo, &["add", "."]);
        git(&repo, &["commit", "-q", "-m", "one"]);
        Setup {
            _top: top,
            repo,
            tmp,
            outside,
        }
    }

    /// A commit whose `agent/` holds the committed manifest and `extra` beside it.
    fn commit_with(&self, extra: &[(&str, &str, &str, &str)]) -> String {
        let repo = &self.repo;
        let cargo = blob(repo, "[package]\nname = \"x\"\n");
        let manifest = blob(repo, MANIFEST);
        let mut entries = vec![
            ("100644", "blob", cargo.as_str(), "Cargo.toml"),
            ("100644", "blob", manifest.as_str(), "doctrine.toml"),
        ];
        entries.extend_from_slice(extra);
        let agent = mktree(repo, &entries);
        let top = mktree(repo, &[("040000", "tree", &agent, "agent")]);
        let commit = git_out(repo, &["commit-tree", &top, "-p", "HEAD", "-m", "evil"], "");
        git(repo, &["update-ref", "refs/heads/evil", &commit]);
        commit
    }

    /// The tool in `agent/` with `TMPDIR` set to this test's own temporary directory.
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_cargo-doctrine"))
            .args(args)
            .current_dir(self.repo.join("agent"))
            .env("TMPDIR", &self.tmp)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// Every name in the test's directories but the repository's, as `dir/name`.
    fn left(&self) -> Vec<String> {
        let mut names = Vec::new();
        for dir in [self.tmp.parent().unwrap(), &self.tmp, &self.outside] {
            for e in std::fs::read_dir(dir).unwrap() {
                let name = e.unwrap().file_name().to_string_lossy().into_owned();
                let shown = dir.file_name().unwrap().to_string_lossy();
                names.push(format!("{shown}/{name}"));
            }
        }
        names.retain(|n| !n.ends_with("/repo") && !n.ends_with("/tmp") && !n.ends_with("/outside"));
        names.sort();
        names
    }
}

fn refused(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    err
}

#[test]
fn a_tree_whose_path_climbs_out_with_dot_dot_is_refused_and_nothing_is_written() {
    let s = Setup::new();
    let pwned = blob(&s.repo, "pwned");
    // `agent/../../../escaped.txt`: without the check, written beside the temporary
    // directory the copy was made in.
    let mut tree = mktree(&s.repo, &[("100644", "blob", &pwned, "escaped.txt")]);
    for _ in 0..2 {
        tree = mktree(&s.repo, &[("040000", "tree", &tree, "..")]);
    }
    let commit = s.commit_with(&[("040000", "tree", &tree, "..")]);
    for args in [
        &["diff", "--rev", "evil"][..],
        &["book", "--rev", "evil", "--out", "../book"],
    ] {
        let err = refused(&s.run(args));
        assert!(
            err.contains(
                "error: cannot copy the tree of `evil`: it holds the path \
                 `agent/../../../escaped.txt`, whose name `..` is not one plain name"
            ),
            "{err}"
        );
        assert!(
            err.contains("the commit was made by hand (`git fsck` reports it)"),
            "{err}"
        );
        assert_eq!(s.left(), Vec::<String>::new(), "{args:?}");
    }
    // A `.` name alike.
    let dot = s.commit_with(&[("040000", "tree", &tree, ".")]);
    let err = refused(&s.run(&["diff", "--rev", &dot]));
    assert!(
        err.contains("whose name `.` is not one plain name"),
        "{err}"
    );
    assert_ne!(dot, commit);
    assert_eq!(s.left(), Vec::<String>::new());
}

#[test]
fn a_path_listed_as_a_link_out_and_as_a_directory_is_refused() {
    let s = Setup::new();
    let target = blob(&s.repo, s.outside.to_str().unwrap());
    let pwned = blob(&s.repo, "pwned");
    let inside = mktree(&s.repo, &[("100644", "blob", &pwned, "pwned.md")]);
    s.commit_with(&[
        ("120000", "blob", &target, "link"),
        ("040000", "tree", &inside, "link"),
    ]);
    for args in [
        &["diff", "--rev", "evil"][..],
        &["book", "--rev", "evil", "--out", "../book"],
    ] {
        let err = refused(&s.run(args));
        assert!(
            err.contains(
                "error: cannot copy the tree of `evil`: it lists `agent/link` both as a file \
                 (or link) and as a directory"
            ),
            "{err}"
        );
        assert_eq!(s.left(), Vec::<String>::new(), "{args:?}");
    }
    // The same path twice, both files.
    s.commit_with(&[
        ("100644", "blob", &pwned, "twice.md"),
        ("100644", "blob", &pwned, "twice.md"),
    ]);
    let err = refused(&s.run(&["diff", "--rev", "evil"]));
    assert!(
        err.contains("it lists the path `agent/twice.md` twice"),
        "{err}"
    );
    assert_eq!(s.left(), Vec::<String>::new());
}

#[test]
fn symlinks_in_the_tree_are_not_made_and_the_run_says_so() {
    let s = Setup::new();
    let target = blob(&s.repo, s.outside.join("secret.md").to_str().unwrap());
    std::fs::write(s.outside.join("secret.md"), "secret").unwrap();
    let dir_target = blob(&s.repo, s.outside.to_str().unwrap());
    s.commit_with(&[
        ("120000", "blob", &target, "notes.md"),
        ("120000", "blob", &dir_target, "out"),
    ]);
    let out = s.run(&["diff", "--rev", "evil"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        err.trim_end(),
        "notice: the tree at `evil`: 2 symlink(s) not made, so the old side reads as if they \
         were absent: `agent/notes.md`, `agent/out`"
    );
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains(": 0 changed, 1 unchanged"), "{shown}");
    assert_eq!(s.left(), ["outside/secret.md"]);
    assert_eq!(
        std::fs::read_to_string(s.outside.join("secret.md")).unwrap(),
        "secret"
    );
}
