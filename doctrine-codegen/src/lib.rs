//! Manifest → Rust code, as a plain library: the `doctrine!` macro (`doctrine-macros`) is
//! a thin shell over [`generate`], and tests, benchmarks and the `cargo doctrine` tool call
//! it directly. A crate of its own, compiled for the host, so that a user's build compiles
//! the generator only where the macro runs, and the agent binary links the runtime alone.
//!
//! The stages live in separate files, as in serde_derive: `parse` (TOML → raw shapes
//! with spans), `validate` (names, files, order; every error collected) and `expand`
//! (model → tokens); `plan` builds the composition as data that `expand` prints and a
//! tool composes with at run time. Only [`Request`], [`generate`], [`generate_ahead`], [`skeleton`] (what the
//! macro emits beside a failing manifest's errors), [`load`], [`read_manifest`] (the
//! manifest alone, found and read as `load` does), [`plan`], `manifest_schema` (the
//! manifest's JSON Schema, built from the reader's declarations; feature `schema`), [`watch`] (for a build
//! script), [`write_file`] (a tool's output, to a regular file only), the diagnostics and
//! [`model`] (the validated manifest as the generator sees it, for tools such as
//! `cargo doctrine`: documented, but it grows with the manifest, so a release may change it)
//! are API, with the modules `named`, `inputs` and `naming` (feature `named`: a prompt
//! composed from names at run time, as `cargo doctrine` does); the rest may change in any
//! release. The macro turns neither feature on, so a user's build leaves both out.
#![forbid(unsafe_code)]
#![deny(unreachable_pub)]

mod de;
mod diag;
mod expand;
#[cfg(any(feature = "jinja", feature = "handlebars"))]
pub mod import;
#[cfg(feature = "named")]
pub mod inputs;
#[cfg(feature = "schema")]
mod json;
mod lines;
mod load;
mod manifest_file;
pub mod model;
#[cfg(feature = "named")]
pub mod named;
mod names;
#[cfg(feature = "named")]
pub mod naming;
mod parse;
pub mod plan;
mod raw;
mod read;
mod reserved;
#[cfg(feature = "schema")]
mod schema;
mod sections;
mod skeleton;
mod text;
mod validate;
mod watch;

pub use manifest_file::{read_manifest, ManifestFile};
pub use model::Doctrine;
pub use names::crate_path;
pub use read::{write_file, ReadError};
#[cfg(feature = "schema")]
pub use schema::manifest_schema;
pub use skeleton::skeleton;
pub use watch::{watch, watched};

/// What this crate's own tests, benchmarks and fuzz targets reach inside the generator
/// for. Not API: it may change in any release.
#[doc(hidden)]
pub mod __internals {
    pub use super::raw::MANIFEST_KEYS;

    /// Whether this build counts tokens (feature `tokens`): `[budget] tokens` is then
    /// checked rather than refused, so an error case's diagnostics differ
    /// (`tests/errors/<case>.tokens.diag`).
    pub const COUNTS_TOKENS: bool = cfg!(feature = "tokens");
    pub use super::read::{CrateDir, MAX_FILE_BYTES};
    #[cfg(feature = "schema")]
    pub use super::schema::reference_keys;
    pub use super::text::{strip_frontmatter, Fields};
    pub use super::validate::without_token_counts;
    pub use doctrine_load::__internals::frontmatter::FrontmatterError;

    /// The normalisation every embedded file gets (see `runtime::text`).
    pub fn normalise(raw: &str) -> String {
        doctrine_load::__internals::text::normalise(raw)
    }
    pub use super::validate::{
        item_placeholders, jinja, mustache, placeholders, standalone, Count, Piece, TemplateError,
        MAX_LOOPS, MAX_SECTION_DEPTH,
    };

    /// A name as it reads: how overlay file names and skill names are compared.
    pub fn fold(name: &str) -> String {
        doctrine_load::__internals::text::fold(name)
    }

    /// A skill file read as the compiler and the user-skill loader read it: `(name, when,
    /// triggers, body)`, or the problem's message.
    pub fn parse_skill(
        text: &str,
        stem: &str,
    ) -> Result<(String, String, Vec<String>, String), String> {
        doctrine_load::__internals::frontmatter::skill::parse(text, stem)
            .map(|s| (s.name, s.when, s.triggers, s.body))
            .map_err(|p| p.message)
    }

    /// The names the generator keeps for itself.
    pub mod reserved {
        pub use crate::reserved::*;
    }
}

use std::path::PathBuf;

use proc_macro2::TokenStream;

pub use diag::{Diagnostic, Diagnostics, FileId, Files, Located, Position, Span};

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
    let krate = crate_path(&req.krate).map_err(|e| {
        Diagnostics::about(
            &req.manifest,
            format!("`crate = \"{}\"` is not a path: {e}", req.krate),
            "name the crate the runtime is re-exported as, e.g. `crate = \"::doctrine\"`",
        )
    })?;
    let file = read_manifest(req)?;
    let mut sink = diag::Sink::new(file.display.clone(), &file.source);
    let raw = parse::parse(&file.source, &mut sink);
    validated(raw, &file, krate, sink)
}

/// `raw` (what parsing read of `file`, reporting into `sink`) validated: the model, or
/// every diagnostic.
fn validated(
    raw: Option<raw::Manifest>,
    file: &ManifestFile,
    krate: TokenStream,
    mut sink: diag::Sink<'_>,
) -> Result<model::Doctrine, Diagnostics> {
    let base_dir = file.path.parent().unwrap_or(&file.crate_dir).to_path_buf();
    let doctrine = raw.and_then(|raw| {
        validate::validate(
            raw,
            validate::Context {
                manifest: file.path.clone(),
                manifest_display: file.display.clone(),
                crate_dir: file.crate_dir.clone(),
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

/// The items of [`generate`] as a module written ahead of time, to commit and `include!`
/// in a crate that builds without the macro (`cargo doctrine expand --out`): each file read
/// is included by its path inside `req.crate_dir` (`concat!(env!("CARGO_MANIFEST_DIR"),
/// …)`) and its hash checked where the module compiles, so a file edited since the module
/// was written is a compile error naming it.
pub fn generate_ahead(req: &Request) -> Result<TokenStream, Diagnostics> {
    let d = load(req)?;
    let crate_dir = req.crate_dir.canonicalize().map_err(|e| {
        Diagnostics::about(
            &req.manifest,
            format!("cannot resolve the crate directory: {e}"),
            "run from inside the crate",
        )
    })?;
    expand::expand_ahead(&d, &crate_dir)
}
