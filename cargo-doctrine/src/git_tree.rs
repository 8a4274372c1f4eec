//! A manifest's crate directory as it was at a git revision, written out to a temporary
//! directory (removed when dropped), so the macro's own loader reads the old tree exactly
//! as it reads a checkout. Only git is run: `rev-parse`, `ls-tree` and `cat-file --batch`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The temporary copy; dropping it removes it.
pub(crate) struct OldTree {
    root: PathBuf,
}

impl Drop for OldTree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A file of the tree: its mode and blob, and its path inside the repository.
struct Entry {
    mode: String,
    blob: String,
    path: String,
}

impl OldTree {
    /// `crate_dir` (inside a git work tree) at `rev`. Returns the copy and the paths in it
    /// that stand for `crate_dir` and `manifest`.
    pub(crate) fn at(
        rev: &str,
        crate_dir: &Path,
        manifest: &Path,
    ) -> Result<(Self, PathBuf, PathBuf), String> {
        let top =
            PathBuf::from(git(crate_dir, &["rev-parse", "--show-toplevel"], None)?.trim_end());
        let top = top
            .canonicalize()
            .map_err(|e| format!("{}: {e}", top.display()))?;
        let inside = |p: &Path| {
            p.strip_prefix(&top).map(Path::to_path_buf).map_err(|_| {
                format!(
                    "{} is not inside the git work tree {}",
                    p.display(),
                    top.display()
                )
            })
        };
        let (crate_rel, manifest_rel) = (inside(crate_dir)?, inside(manifest)?);
        let commit = git(
            &top,
            &[
                "rev-parse",
                "--verify",
                "--end-of-options",
                &format!("{rev}^{{commit}}"),
            ],
            None,
        )
        .map_err(|e| format!("`{rev}` is not a revision of {}: {e}", top.display()))?;
        let entries = tree(&top, commit.trim_end(), &crate_rel)?;
        let root = std::env::temp_dir().join(format!(
            "cargo-doctrine-{}-{}",
            std::process::id(),
            commit.get(..12).unwrap_or("old")
        ));
        // A run that crashed under the same process id may have left its copy: start clean.
        let _ = std::fs::remove_dir_all(&root);
        let old = OldTree { root };
        old.write(&top, &entries)?;
        let (c, m) = (old.root.join(crate_rel), old.root.join(manifest_rel));
        Ok((old, c, m))
    }

    /// Writes every entry under the copy's root: blobs as files, links as links.
    fn write(&self, top: &Path, entries: &[Entry]) -> Result<(), String> {
        let failed = |p: &Path, e: std::io::Error| format!("cannot write {}: {e}", p.display());
        std::fs::create_dir_all(&self.root).map_err(|e| failed(&self.root, e))?;
        let blobs: String = entries.iter().map(|e| format!("{}\n", e.blob)).collect();
        let bodies = git_bytes(top, &["cat-file", "--batch"], Some(blobs.as_bytes()))?;
        let mut reader = BufReader::new(bodies.as_slice());
        for entry in entries {
            let body = next_blob(&mut reader)
                .ok_or_else(|| format!("git gave no blob for {}", entry.path))?;
            let path = self.root.join(&entry.path);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| failed(dir, e))?;
            }
            match entry.mode.as_str() {
                #[cfg(unix)]
                "120000" => {
                    std::os::unix::fs::symlink(String::from_utf8_lossy(&body).as_ref(), &path)
                }
                _ => std::fs::write(&path, &body),
            }
            .map_err(|e| failed(&path, e))?;
        }
        Ok(())
    }
}

/// Every file and link under `dir` (relative to the top) in `commit`; submodules are
/// left out.
fn tree(top: &Path, commit: &str, dir: &Path) -> Result<Vec<Entry>, String> {
    let dir = dir.to_string_lossy();
    let mut args = vec!["ls-tree", "-r", "-z", "--full-tree", commit];
    if !dir.is_empty() {
        args.extend(["--", &dir]);
    }
    let listing = git(top, &args, None)?;
    let entries = listing
        .split('\0')
        .filter(|l| !l.is_empty())
        .filter_map(|line| {
            let (meta, path) = line.split_once('\t')?;
            let mut meta = meta.split(' ');
            let (mode, kind, blob) = (meta.next()?, meta.next()?, meta.next()?);
            (kind == "blob").then(|| Entry {
                mode: mode.to_string(),
                blob: blob.to_string(),
                path: path.to_string(),
            })
        });
    Ok(entries.collect())
}

/// The next object of `git cat-file --batch`'s output: `<oid> blob <size>\n<body>\n`.
fn next_blob(reader: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut header = String::new();
    reader.read_line(&mut header).ok()?;
    let size: usize = header.split(' ').nth(2)?.trim_end().parse().ok()?;
    let mut body = vec![0; size];
    reader.read_exact(&mut body).ok()?;
    let mut newline = [0];
    reader.read_exact(&mut newline).ok()?;
    Some(body)
}

fn git(dir: &Path, args: &[&str], input: Option<&[u8]>) -> Result<String, String> {
    let out = git_bytes(dir, args, input)?;
    String::from_utf8(out).map_err(|_| format!("git {} printed what is not UTF-8", args.join(" ")))
}

/// Runs git in `dir` with `args`, feeding it `input`; its standard output, or its error.
fn git_bytes(dir: &Path, args: &[&str], input: Option<&[u8]>) -> Result<Vec<u8>, String> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let mut stdin = child.stdin.take();
    // Fed from another thread: git writes while it reads, and both pipes are bounded.
    let input = input.map(<[u8]>::to_vec).unwrap_or_default();
    let feeder = std::thread::spawn(move || {
        if let Some(stdin) = stdin.as_mut() {
            let _ = stdin.write_all(&input);
        }
    });
    let out = child
        .wait_with_output()
        .map_err(|e| format!("git failed: {e}"))?;
    let _ = feeder.join();
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        return Err(format!("git {} failed: {}", args.join(" "), why.trim()));
    }
    Ok(out.stdout)
}
