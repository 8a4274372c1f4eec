//! The generated code for a small manifest, pretty-printed and pinned, so a change in
//! what the macro emits is a reviewed diff.

use std::path::Path;

use doctrine_core::codegen::{generate, Request};

fn expanded(fixture: &str) -> String {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = crate_dir.join("tests/fixtures").join(fixture);
    let tokens = generate(&Request::new("doctrine.toml", base.clone(), crate_dir))
        .unwrap_or_else(|e| panic!("{e}"));
    let file: syn::File = syn::parse2(tokens).expect("generated code parses as a Rust file");
    let code = prettyplease::unparse(&file);
    // `include_bytes!` takes absolute paths; pin them relative to the crate.
    let prefix = format!("{}/", crate_dir.canonicalize().unwrap().display());
    code.replace(&prefix, "$CRATE/")
}

#[test]
fn generated_code_for_small_manifest() {
    insta::assert_snapshot!(expanded("small"));
}

#[test]
fn generated_code_for_facts_manifest() {
    insta::assert_snapshot!(expanded("facts"));
}
