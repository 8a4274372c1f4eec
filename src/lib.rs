//! Examples and cross-crate tests for doctrine live in this package.
