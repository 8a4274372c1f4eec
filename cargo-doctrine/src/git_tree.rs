//! A manifest's crate directory as it was at a git revision, written out to a fresh
//! temporary directory (removed when dropped), so the macro's own loader reads the old tree
//! exactly as it reads a checkout. Only git is run: `rev-parse`, `ls-tree` and `cat-file
//! --batch`; what it lists is judged and written by `tree_copy`, never trusted as paths.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::tree_copy::{self, LeftOut, Listed, Writer};

/// The temporary copy; dropping it removes it.
pub(crate) struct OldTree {
    /// Made afresh under a random name (never a path another process could have prepared);
    /// held only so that dropping the copy removes it.
    _root: tempfile::TempDir,
    left_out: LeftOut,
    rev: String,
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
        let (listed, not_utf8) = tree(&top, commit.trim_end(), &crate_rel)?;
        let refused = |e: String| format!("cannot copy the tree of `{rev}`: {e}");
        let (write, mut left_out) = tree_copy::plan(&listed).map_err(refused)?;
        left_out.not_utf8 = not_utf8;
        let root = tempfile::Builder::new()
            .prefix("cargo-doctrine-")
            .tempdir()
            .map_err(|e| format!("cannot make a temporary directory: {e}"))?;
        copy(&top, &mut Writer::new(root.path())?, &write).map_err(refused)?;
        let (c, m) = (root.path().join(crate_rel), root.path().join(manifest_rel));
        let old = OldTree {
            _root: root,
            left_out,
            rev: rev.to_string(),
        };
        Ok((old, c, m))
    }

    /// The notice naming what the copy left out (links, files too large), if anything.
    pub(crate) fn notice(&self) -> Option<String> {
        self.left_out.notice(&self.rev)
    }
}

/// Every file and link under `dir` (relative to the top) in `commit`, with its size;
/// submodules are left out, and so are paths that are not UTF-8 (returned, shown lossily).
fn tree(top: &Path, commit: &str, dir: &Path) -> Result<(Vec<Listed>, Vec<String>), String> {
    let dir = dir.to_string_lossy();
    // A crate directory named `a*` is that directory, not a pattern.
    let mut args = vec![
        "--literal-pathspecs",
        "ls-tree",
        "-r",
        "-z",
        "-l",
        "--full-tree",
    ];
    args.push(commit);
    if !dir.is_empty() {
        args.extend(["--", &dir]);
    }
    let listing = git_bytes(top, &args, None)?;
    let (mut listed, mut not_utf8) = (Vec::new(), Vec::new());
    for record in listing.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let Some(tab) = record.iter().position(|&b| b == b'\t') else {
            continue;
        };
        let (meta, path) = (String::from_utf8_lossy(&record[..tab]), &record[tab + 1..]);
        // `<mode> <type> <object> <size>`, the size padded with spaces.
        let mut meta = meta.split_ascii_whitespace();
        let (Some(mode), Some(kind), Some(oid), Some(size)) =
            (meta.next(), meta.next(), meta.next(), meta.next())
        else {
            continue;
        };
        if kind != "blob" {
            continue;
        }
        let Ok(path) = String::from_utf8(path.to_vec()) else {
            not_utf8.push(String::from_utf8_lossy(path).into_owned());
            continue;
        };
        listed.push(Listed {
            mode: mode.to_string(),
            path,
            size: size
                .parse()
                .map_err(|_| format!("git ls-tree gave the size `{size}`"))?,
            oid: oid.to_string(),
        });
    }
    Ok((listed, not_utf8))
}

/// Streams the blobs of `files` out of `git cat-file --batch` into `writer`, one at a
/// time, so no more than one file (at most `MAX_COPIED_FILE_BYTES`) is held in memory.
fn copy(top: &Path, writer: &mut Writer, files: &[&Listed]) -> Result<(), String> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let mut stdin = child.stdin.take();
    let oids: String = files.iter().map(|f| format!("{}\n", f.oid)).collect();
    // Fed from another thread: git writes while it reads, and both pipes are bounded.
    let feeder = std::thread::spawn(move || {
        if let Some(stdin) = stdin.as_mut() {
            let _ = stdin.write_all(oids.as_bytes());
        }
    });
    let copied = match child.stdout.take() {
        Some(out) => copy_each(&mut BufReader::new(out), writer, files),
        None => Err("git cat-file gave no output".into()),
    };
    finish(child, copied.is_err());
    let _ = feeder.join();
    copied
}

fn copy_each(out: &mut impl BufRead, writer: &mut Writer, files: &[&Listed]) -> Result<(), String> {
    for file in files {
        let body = next_blob(out, file)?;
        writer.write(&file.path, &body)?;
    }
    Ok(())
}

/// Waits for git, ending it first when the copy stopped early (it may be blocked writing).
fn finish(mut child: Child, early: bool) {
    if early {
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// The next object of `git cat-file --batch`'s output, `<oid> blob <size>\n<body>\n`,
/// which must be `file`'s blob at its listed size.
fn next_blob(reader: &mut impl BufRead, file: &Listed) -> Result<Vec<u8>, String> {
    let mut header = String::new();
    let missing = || format!("git gave no blob for `{}`", file.path.escape_debug());
    reader.read_line(&mut header).map_err(|_| missing())?;
    let mut parts = header.trim_end().split(' ');
    let (oid, kind, size) = (parts.next(), parts.next(), parts.next());
    if oid != Some(file.oid.as_str()) || kind != Some("blob") {
        return Err(missing());
    }
    if size.and_then(|s| s.parse::<u64>().ok()) != Some(file.size) {
        return Err(format!(
            "git gave a blob of another size than listed for `{}`",
            file.path.escape_debug()
        ));
    }
    let mut body = Vec::with_capacity(file.size as usize);
    reader
        .by_ref()
        .take(file.size)
        .read_to_end(&mut body)
        .map_err(|_| missing())?;
    let mut newline = [0];
    reader.read_exact(&mut newline).map_err(|_| missing())?;
    if body.len() as u64 != file.size {
        return Err(missing());
    }
    Ok(body)
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
