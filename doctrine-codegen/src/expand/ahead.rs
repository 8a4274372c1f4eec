//! The module written ahead of time (`cargo doctrine expand --out`), to commit and
//! `include!`: instead of the macro's `include_bytes!` of absolute paths, each file it was
//! generated from is included by its path inside the crate, and hashed where the module
//! compiles (`content_hash`, a `const fn`): an edit since is a compile error naming the
//! file, as a stale macro expansion cannot be.

use std::path::Path;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::lit;
use crate::model::Doctrine;
use crate::read::CrateDir;
use crate::Diagnostics;

/// One check per file read (the manifest first), or the first file that cannot be named
/// from the crate directory or read again.
pub(super) fn checks(d: &Doctrine, crate_dir: &Path) -> Result<TokenStream, Diagnostics> {
    let reader = CrateDir::new(crate_dir.to_path_buf());
    let pv = d.private();
    let mut out = TokenStream::new();
    for path in std::iter::once(&d.manifest).chain(&d.tracked) {
        let refuse = |why: String| {
            Diagnostics::about(
                &d.manifest_display,
                why,
                "write the module from a manifest whose files are all inside the crate",
            )
        };
        let rel = path
            .strip_prefix(crate_dir)
            .map_err(|_| refuse(format!("{} is outside the crate directory", path.display())))?;
        let rel = rel
            .to_str()
            .ok_or_else(|| refuse(format!("{} is not UTF-8", rel.display())))?
            .replace('\\', "/");
        let bytes = reader
            .read(path)
            .map_err(|e| refuse(format!("cannot read {rel} again: {}", e.describe(&rel).0)))?;
        let hash = Literal::u64_suffixed(doctrine_core::__private::content_hash(&bytes));
        let at = lit(&format!("/{rel}"));
        let message = lit(&format!(
            "doctrine: `{rel}` changed since this module was generated from it: run \
             `cargo doctrine expand --out <this file> {}` again",
            d.manifest_display
        ));
        out.extend(quote! {
            const _: () = ::core::assert!(
                #pv::content_hash(::core::include_bytes!(::core::concat!(
                    ::core::env!("CARGO_MANIFEST_DIR"),
                    #at
                ))) == #hash,
                #message
            );
        });
    }
    Ok(out)
}
