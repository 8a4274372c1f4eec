//! The root package's integration tests, in one binary (one link, one process): each
//! module was a test binary of its own.

mod manifest_errors;
