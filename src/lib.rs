//! Examples and cross-crate tests for `doctrine` live in this package (`examples/`,
//! `tests/`, `benches/`), so that the paths in their manifests stay inside one crate
//! directory.
//!
//! The generated code, for the quickstart manifest:
//!
//! ```
//! mod prompt {
//!     doctrine::doctrine!("../examples/quickstart/doctrine.toml");
//! }
//! let p = prompt::compose(prompt::Role::Reviewer).finish();
//! assert!(p.as_str().starts_with("You are a careful engineer"));
//! assert_eq!(p.layer("role"), Some(prompt::text::ROLE_DEFAULT));
//! ```
