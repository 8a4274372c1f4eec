//! What the macro emits beside a failing manifest's errors: the module the manifest would
//! generate, as far as it could be read, so that an editor keeps completing and checking
//! the code that names it while rustc reports the manifest's errors and nothing more.
//!
//! It is the generator's own output for a copy of the manifest repaired until it
//! validates (`syntax`: lines that do not parse left out; `prune`: what each error points
//! at removed, or a text emptied), so it compiles as any generated module does; it never
//! runs, since the errors beside it stop the build. A part whose shape a repair changed
//! is left out with every part that names it (`shape`): rustc says nothing about a path
//! into a module whose macro failed, but code naming an item of another shape than the
//! manifest's would fail to compile, one more error for the same mistake.

mod prune;
mod shape;
mod syntax;
mod tree;

use proc_macro2::TokenStream;
use toml::de::DeTable;

use super::diag::{Diagnostics, Sink};
use super::expand::{expand_without, Part};
use super::model::Doctrine;
use super::raw::Manifest;
use super::{crate_path, read_manifest, ManifestFile, Request};
use doctrine_load::__internals::frontmatter::toml_depth::too_deep;

/// How many times the manifest is pruned and validated again: one round repairs every
/// mistake its errors point at, and each of the next what the last removal broke (a
/// layer scoped to a role that was removed), a chain a few links long at most.
const MAX_ROUNDS: usize = 8;

/// The items a manifest whose generation failed still gives, for the macro to emit beside
/// the errors: the generated module's types and builder as far as the manifest could be
/// read, a text with an error left empty and a part with one left out. Empty when not
/// even the manifest could be read.
pub fn skeleton(req: &Request) -> TokenStream {
    repaired(req)
        .map(|(d, reshaped)| expand_without(&d, &Part::with_dependents(&reshaped)))
        .unwrap_or_default()
}

/// The manifest, pruned where its errors point until it validates, and the parts of the
/// generated module whose shape that changed.
fn repaired(req: &Request) -> Option<(Doctrine, Vec<Part>)> {
    let krate = crate_path(&req.krate).ok()?;
    let file = read_manifest(req).ok()?;
    if too_deep(&file.source).is_some() {
        return None;
    }
    let mut pruner = prune::Pruner::default();
    let text = syntax::readable(&file.source, &mut pruner.reshaped)?;
    let mut doc = DeTable::parse_recoverable(&text).0.into_inner();
    for _ in 0..MAX_ROUNDS {
        let diagnostics = match check(&doc, &file, krate.clone()) {
            Ok(d) => return Some((d, pruner.reshaped)),
            Err(diagnostics) => diagnostics,
        };
        if !pruner.repair(&mut doc, &offsets(&diagnostics, &file)) {
            return None;
        }
    }
    None
}

/// `doc` read and validated as `load` reads and validates a manifest.
fn check(
    doc: &DeTable<'_>,
    file: &ManifestFile,
    krate: TokenStream,
) -> Result<Doctrine, Diagnostics> {
    let mut sink = Sink::new(file.display.clone(), &file.source);
    let raw = Manifest::read(doc, &mut sink);
    super::validated(Some(raw), file, krate, sink)
}

/// Where in the manifest each diagnostic points, as a byte offset; `None` for one about
/// another file (a markdown file's line) or the manifest as a whole.
fn offsets(diagnostics: &Diagnostics, file: &ManifestFile) -> Vec<Option<usize>> {
    let files = &diagnostics.files;
    diagnostics
        .list
        .iter()
        .map(|d| {
            let manifest = files.name(d.span.file) == file.display;
            d.span.start().filter(|_| manifest)
        })
        .collect()
}
