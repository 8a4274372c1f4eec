//! Manifest → Rust code, as a plain library: the `doctrine!` macro is a thin shell over
//! [`generate`], and tests and benchmarks call it directly.
//!
//! The stages live in separate files, as in serde_derive: `parse` (TOML → raw shapes
//! with spans), `validate` (names, files, order; every error collected) and `expand`
//! (model → tokens); `plan` builds the composition as data that `expand` prints and a
//! tool composes with at run time. Only [`Request`], [`generate`], [`load`], [`plan`],
//! [`manifest_schema`] (the manifest's JSON Schema, built from the reader's declarations)
//! and the diagnostics are API; the rest may change in any release.

mod de;
mod diag;
mod expand;
pub mod inputs;
mod json;
mod lines;
mod load;
mod model;
pub mod named;
mod names;
pub mod naming;
mod parse;
pub mod plan;
mod raw;
mod read;
mod reserved;
mod schema;
mod sections;
mod text;
mod validate;
mod watch;

pub use model::Doctrine;
pub use names::crate_path;
pub use schema::manifest_schema;
pub use watch::watched;

/// What this crate's own tests, benchmarks and fuzz targets reach inside the generator
/// for. Not API: it may change in any release.
#[doc(hidden)]
pub mod __internals {
    pub use super::raw::MANIFEST_KEYS;

    /// Whether this build counts tokens (feature `tokens`): `[budget] tokens` is then
    /// checked rather than refused, so an error case's diagnostics differ
    /// (`tests/errors/<case>.tokens.diag`).
    pub const COUNTS_TOKENS: bool = cfg!(feature = "tokens");
    pub use super::read::{CrateDir, ReadError, MAX_FILE_BYTES};
    pub use super::schema::reference_keys;
    pub use super::text::{strip_frontmatter, Fields};
    pub use crate::frontmatter::FrontmatterError;

    /// The normalisation every embedded file gets (see `runtime::text`).
    pub fn normalise(raw: &str) -> String {
        crate::runtime::text::normalise(raw)
    }
    pub use super::validate::{placeholders, Piece, TemplateError};

    /// A name as it reads: how overlay file names and skill names are compared.
    pub fn fold(name: &str) -> String {
        crate::runtime::text::fold(name)
    }

    /// A skill file read as the compiler and the user-skill loader read it: `(name, when,
    /// triggers, body)`, or the problem's message.
    pub fn parse_skill(
        text: &str,
        stem: &str,
    ) -> Result<(String, String, Vec<String>, String), String> {
        crate::frontmatter::skill::parse(text, stem)
            .map(|s| (s.name, s.when, s.triggers, s.body))
            .map_err(|p| p.message)
    }

    /// The validated manifest's types.
    pub mod model {
        pub use crate::codegen::model::*;
    }

    /// The names the generator keeps for itself.
    pub mod reserved {
        pub use crate::codegen::reserved::*;
    }
}

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;

pub use diag::{Diagnostic, Diagnostics};

/// What to generate from: a manifest path and the directories it is judged against.
#[derive(Clone, Debug)]
pub struct Request {
    /// The manifest path as written in the macro call.
    pub manifest: String,
    /// Directory the manifest path is relative to.
    pub base_dir: PathBuf,
    /// The crate directory: no file may resolve outside it.
    pub crate_dir: PathBuf,
    /// The path generated code names the runtime by (`doctrine!("…", crate = "…")`), as
    /// Rust source: `::doctrine` unless overridden.
    pub krate: String,
}

impl Request {
    /// A request for `manifest`, relative to `base_dir`, inside `crate_dir`, with generated
    /// code naming the runtime `::doctrine`.
    pub fn new(
        manifest: impl Into<String>,
        base_dir: impl Into<PathBuf>,
        crate_dir: impl Into<PathBuf>,
    ) -> Self {
        Request {
            manifest: manifest.into(),
            base_dir: base_dir.into(),
            crate_dir: crate_dir.into(),
            krate: "::doctrine".to_string(),
        }
    }
}

/// Reads and validates the manifest and every file it names.
pub fn load(req: &Request) -> Result<model::Doctrine, Diagnostics> {
    let fail = |location: String, message: String, help: &str| {
        Diagnostics(vec![Diagnostic {
            location,
            message,
            help: Some(help.to_string()),
        }])
    };
    let krate = crate_path(&req.krate).map_err(|e| {
        fail(
            req.manifest.clone(),
            format!("`crate = \"{}\"` is not a path: {e}", req.krate),
            "name the crate the runtime is re-exported as, e.g. `crate = \"::doctrine\"`",
        )
    })?;
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
    let manifest = req.base_dir.join(rel).canonicalize().map_err(|e| {
        fail(
            req.manifest.clone(),
            format!(
                "cannot open manifest {}: {e}",
                req.base_dir.join(rel).display()
            ),
            "paths are relative to the source file that invokes `doctrine!`",
        )
    })?;
    if !manifest.starts_with(&crate_dir) {
        return Err(fail(
            req.manifest.clone(),
            format!(
                "the manifest resolves to {}, outside the crate directory {}",
                manifest.display(),
                crate_dir.display()
            ),
            "keep the manifest inside the crate",
        ));
    }
    let display = load::Loader::new(crate_dir.clone(), crate_dir.clone()).display(&manifest);
    let bytes = read::CrateDir::new(crate_dir.clone())
        .read(&manifest)
        .map_err(|e| {
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
    let mut sink = diag::Sink::new(display.clone(), &source);
    let base_dir = manifest.parent().unwrap_or(&crate_dir).to_path_buf();
    let raw = parse::parse(&source, &mut sink);
    let doctrine = raw.and_then(|raw| {
        validate::validate(
            raw,
            validate::Context {
                manifest: manifest.clone(),
                manifest_display: display,
                crate_dir,
                base_dir,
                krate,
            },
            &mut sink,
        )
    });
    match doctrine {
        Some(d) if !sink.has_errors() => Ok(d),
        _ => Err(sink.into_diagnostics()),
    }
}

/// Generates the items for one `doctrine!` invocation.
pub fn generate(req: &Request) -> Result<TokenStream, Diagnostics> {
    load(req).map(|d| expand::expand(&d))
}
