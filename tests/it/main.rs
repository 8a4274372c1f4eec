//! The root package's integration tests, in one binary (one build, one link, one process);
//! each module was a test binary of its own. Run one with `cargo test --test it crew::`.
//! Apart, each in a binary of its own: `one_allocation` (a counting global allocator) and
//! `embedded_once` (it reads its own binary, which must hold the crew example once). What
//! only rustc can tell is trybuild's, in the facade (`doctrine/tests/compile_fail.rs`).

// A module named after the example it tests holds that example's generated code under the
// same name (`crew::crew`), as when each was a binary of its own.
#![allow(clippy::module_inception)]

mod agent;
mod ahead;
mod any_of;
mod book;
mod conditions;
mod crate_path;
mod crew;
mod doc_commands;
mod docs;
mod extensions;
mod forging;
mod forwarded_docs;
mod gates;
mod golden;
mod guide_links;
mod handlebars;
mod header;
mod jinja;
mod json_guard;
mod large_manifest;
mod list_budget;
mod lists;
mod loops;
mod manifest_errors;
mod message_parts;
mod messages;
mod models;
mod modes;
mod naming;
mod nested;
mod note;
mod overlay;
mod overlay_policy;
mod overlay_templates;
mod parity;
pub mod pass;
mod plan_parity;
mod prefix_constants;
mod prepared_parity;
mod provenance;
mod public_api;
mod release;
mod reminders;
mod render_parity;
mod render_parity_inputs;
mod requests;
mod safe_values;
mod sanitized_files;
mod schema;
mod skeleton;
mod skills;
mod skip_slots;
mod spine;
mod stems;
mod support;
mod syntax;
mod tiers;
mod trim_ends;
mod user_content;
mod user_skills;
mod value_texts;
mod wide;
