//! The manifest a command is given (or finds), and the request the `doctrine!` macro would
//! make for it: judged from its own directory, inside its crate directory, the nearest
//! directory above it that holds a `Cargo.toml` (as the macro takes the nearest one above
//! the file that invokes it).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use doctrine_codegen::{read_manifest, Diagnostics, Request};

use crate::cli::Stop;
use crate::git_tree::OldTree;

/// Where a command looks for a manifest it is not given, in order, in the current directory.
const DEFAULTS: [&str; 2] = ["src/doctrine.toml", "doctrine.toml"];

/// The `MANIFEST` argument, as a command's help describes it.
pub(crate) const ARGUMENT: (&str, &str) = (
    "[MANIFEST]",
    "The layer manifest [default: src/doctrine.toml, else doctrine.toml]",
);

/// A manifest the macro would read: inside its crate directory, a regular file, UTF-8.
pub(crate) struct Manifest {
    /// Canonical.
    path: PathBuf,
    crate_dir: PathBuf,
    source: String,
}

impl Manifest {
    /// The manifest at `arg`, or else the first of [`DEFAULTS`] that exists, found and read
    /// by the macro's own [`read_manifest`], so the tool refuses what the macro refuses (a
    /// symlink out of the crate directory, a FIFO, a directory). `command` names the command
    /// in the message saying what to pass.
    pub(crate) fn open(arg: Option<OsString>, command: &str) -> Result<Self, Stop> {
        let given = match arg {
            Some(arg) => PathBuf::from(arg),
            None => default(command)?,
        };
        let cannot = |why: String| Stop::Fail(format!("cannot read {}: {why}", given.display()));
        // Only to word a missing file plainly; what is read is decided by `read_manifest`.
        std::fs::metadata(&given).map_err(|e| cannot(e.to_string()))?;
        let (dir, name) = split(&given).map_err(|e| cannot(e.to_string()))?;
        // The crate directory is the link's, not its target's: as the macro, whose crate
        // directory is where the invoking file is.
        let crate_dir = dir
            .ancestors()
            .find(|d| d.join("Cargo.toml").is_file())
            .unwrap_or(&dir)
            .to_path_buf();
        let file = read_manifest(&Request::new(name, &dir, &crate_dir))
            .map_err(|d| cannot(unplaced(&d)))?;
        Ok(Manifest {
            path: file.path,
            crate_dir: file.crate_dir,
            source: file.source,
        })
    }

    /// Canonical: diagnostics name files relative to it.
    pub(crate) fn crate_dir(&self) -> &Path {
        &self.crate_dir
    }

    /// Canonical.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The manifest's text, as read when it was opened.
    pub(crate) fn source(&self) -> &str {
        &self.source
    }

    /// What the macro would be asked for this manifest (runtime path `::doctrine`).
    pub(crate) fn request(&self) -> Request {
        request(&self.path, &self.crate_dir)
    }
}

/// The old side of a comparison, once the new side is open: with `rev`, the same manifest
/// as git has it there (its tree kept alive by the returned value: dropping it removes the
/// tree), else the next manifest `paths` gives. Shared by `diff` and `book --diff/--rev`.
pub(crate) fn old_side(
    rev: Option<&str>,
    new: &Manifest,
    paths: &mut Vec<OsString>,
    command: &str,
) -> Result<(Option<OldTree>, Request), Stop> {
    let Some(rev) = rev else {
        return Ok((None, Manifest::open(paths.pop(), command)?.request()));
    };
    let (tree, crate_dir, path) =
        OldTree::at(rev, new.crate_dir(), new.path()).map_err(Stop::Fail)?;
    if let Some(notice) = tree.notice() {
        crate::cli::complain(&notice);
    }
    if !path.is_file() {
        let shown = new
            .path()
            .strip_prefix(new.crate_dir())
            .unwrap_or(new.path());
        return Err(Stop::Fail(format!(
            "{} does not exist at {rev}",
            shown.display()
        )));
    }
    Ok((Some(tree), request(&path, &crate_dir)))
}

/// What the macro would be asked for the manifest at `path` in crate directory
/// `crate_dir` (runtime path `::doctrine`).
pub(crate) fn request(path: &Path, crate_dir: &Path) -> Request {
    let dir = path.parent().unwrap_or(Path::new("/"));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    Request::new(name, dir, crate_dir)
}

/// Why the manifest could not be read, without the file it names (the message says which):
/// each message, then its help.
fn unplaced(d: &Diagnostics) -> String {
    let each = d.list.iter().map(|d| match &d.help {
        Some(help) => format!("{}\n  help: {help}", d.message),
        None => d.message.clone(),
    });
    each.collect::<Vec<_>>().join("\n")
}

/// The canonical directory `given` is in, and its file name (`.` or `..` become the
/// directory they name, in its parent).
fn split(given: &Path) -> std::io::Result<(PathBuf, String)> {
    let given = match given.file_name() {
        Some(_) => given.to_path_buf(),
        None => given.canonicalize()?,
    };
    let parent = match given.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = given.file_name().unwrap_or_default().to_string_lossy();
    Ok((parent.canonicalize()?, name.into_owned()))
}

fn default(command: &str) -> Result<PathBuf, Stop> {
    if let Some(found) = DEFAULTS.iter().map(PathBuf::from).find(|p| p.is_file()) {
        return Ok(found);
    }
    let here = std::env::current_dir().map_or_else(|_| ".".into(), |d| d.display().to_string());
    Err(Stop::Fail(format!(
        "no manifest given, and {} has neither {}: pass its path, \
         e.g. `cargo doctrine {command} path/to/doctrine.toml`",
        here,
        DEFAULTS.join(" nor ")
    )))
}
