//! The manifest itself, found and read as the macro finds and reads it: a relative path
//! that resolves inside the crate directory, a regular file opened without blocking, at
//! most [`super::read::MAX_FILE_BYTES`], UTF-8. [`super::load`] starts here, and so does
//! `cargo doctrine`, so the tool accepts exactly the manifests the macro accepts.

use std::path::{Path, PathBuf};

use super::diag::Diagnostics;
use super::load::Loader;
use super::read::CrateDir;
use super::Request;

/// A manifest that was read.
#[derive(Clone, Debug)]
pub struct ManifestFile {
    /// Canonical, inside `crate_dir`.
    pub path: PathBuf,
    /// The canonical crate directory.
    pub crate_dir: PathBuf,
    /// `path` relative to the crate directory, as diagnostics name it.
    pub display: String,
    pub source: String,
}

/// Reads the manifest `req` names, or says (about the manifest, with a help) why not.
pub fn read_manifest(req: &Request) -> Result<ManifestFile, Diagnostics> {
    let fail = |name: String, message: String, help: &str| Diagnostics::about(name, message, help);
    let crate_dir = req.crate_dir.canonicalize().map_err(|e| {
        fail(
            req.crate_dir.display().to_string(),
            format!("cannot open the crate directory: {e}"),
            "build from a checkout where the crate directory exists",
        )
    })?;
    let rel = Path::new(&req.manifest);
    if rel.is_absolute() {
        return Err(fail(
            req.manifest.clone(),
            "the manifest path is absolute".into(),
            "give a path relative to the invoking source file",
        ));
    }
    let joined = req.base_dir.join(rel);
    let path = joined.canonicalize().map_err(|e| {
        fail(
            req.manifest.clone(),
            format!("cannot open manifest {}: {e}", joined.display()),
            "paths are relative to the source file that invokes `doctrine!`",
        )
    })?;
    if !path.starts_with(&crate_dir) {
        return Err(fail(
            req.manifest.clone(),
            format!(
                "the manifest resolves to {}, outside the crate directory {}",
                path.display(),
                crate_dir.display()
            ),
            "keep the manifest inside the crate",
        ));
    }
    let display = Loader::new(crate_dir.clone(), crate_dir.clone()).display(&path);
    let bytes = CrateDir::new(crate_dir.clone()).read(&path).map_err(|e| {
        let (message, help) = e.describe("manifest");
        fail(display.clone(), message, &help)
    })?;
    let source = String::from_utf8(bytes).map_err(|_| {
        fail(
            display.clone(),
            "manifest is not valid UTF-8".into(),
            "re-save it as UTF-8",
        )
    })?;
    Ok(ManifestFile {
        path,
        crate_dir,
        display,
        source,
    })
}
