//! What several test modules share.

pub mod book_reader;
pub mod crew_tools;
pub mod error_cases;
pub mod extensions_jinja;
pub mod seed_composer;
pub mod told_cut;
