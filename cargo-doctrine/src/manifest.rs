//! The manifest a command is given (or finds), and the request the `doctrine!` macro would
//! make for it: judged from its own directory, inside its crate directory, the nearest
//! directory above it that holds a `Cargo.toml` (as the macro takes the nearest one above
//! the file that invokes it).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use doctrine_core::codegen::Request;

use crate::cli::Stop;

/// Where a command looks for a manifest it is not given, in order, in the current directory.
const DEFAULTS: [&str; 2] = ["src/doctrine.toml", "doctrine.toml"];

/// The `MANIFEST` argument, as a command's help describes it.
pub(crate) const ARGUMENT: (&str, &str) = (
    "[MANIFEST]",
    "The layer manifest [default: src/doctrine.toml, else doctrine.toml]",
);

/// A manifest that exists and is a regular file.
pub(crate) struct Manifest {
    /// Canonical.
    path: PathBuf,
    crate_dir: PathBuf,
}

impl Manifest {
    /// The manifest at `arg`, or else the first of [`DEFAULTS`] that exists. `command`
    /// names the command in the message saying what to pass.
    pub(crate) fn open(arg: Option<OsString>, command: &str) -> Result<Self, Stop> {
        let given = match arg {
            Some(arg) => PathBuf::from(arg),
            None => default(command)?,
        };
        let cannot = |why: String| Stop::Fail(format!("cannot read {}: {why}", given.display()));
        let path = given.canonicalize().map_err(|e| cannot(e.to_string()))?;
        if !path.is_file() {
            return Err(cannot("not a file".into()));
        }
        std::fs::File::open(&path).map_err(|e| cannot(e.to_string()))?;
        let dir = path.parent().unwrap_or(Path::new("/"));
        let crate_dir = dir
            .ancestors()
            .find(|d| d.join("Cargo.toml").is_file())
            .unwrap_or(dir)
            .to_path_buf();
        Ok(Manifest { path, crate_dir })
    }

    /// Canonical: diagnostics name files relative to it.
    pub(crate) fn crate_dir(&self) -> &Path {
        &self.crate_dir
    }

    /// What the macro would be asked for this manifest (runtime path `::doctrine`).
    pub(crate) fn request(&self) -> Request {
        let dir = self.path.parent().unwrap_or(Path::new("/"));
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        Request::new(name, dir, &self.crate_dir)
    }
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
