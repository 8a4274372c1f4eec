//! Arbitrary bytes as a `doctrine.toml` in a crate directory holding the examples' and the
//! fixtures' markdown files: `generate` answers with code that parses as Rust, or with
//! diagnostics that each name a place in the manifest or in a file inside the crate.
//! Seeded with every manifest of the repository, and run with `manifest.dict`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| doctrine_fuzz::manifest::check(data));
