//! The examples' package holds no code of its own: each example is `../<name>/main.rs`,
//! declared in `Cargo.toml`. This empty library makes it a package cargo can pack, so
//! `cargo package --workspace` (the release check) passes; it is never published.
