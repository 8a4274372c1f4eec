//! Cross-crate tests and benches for `doctrine` live in this package (`tests/`,
//! `benches/`); the examples are the `doctrine-examples` package
//! (`examples/package/Cargo.toml`), whose build needs none of the tests' dependencies.
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
