//! What several test modules share.

pub mod crew_tools;
pub mod seed_composer;
