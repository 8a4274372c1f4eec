//! doctrine-codegen's integration tests, in one binary (one build, one link, one process);
//! each module was a test binary of its own. Run one with
//! `cargo test -p doctrine-codegen --test it validate::`. Apart: `scale` (its ignored test
//! runs `cargo check` on wide manifests).

mod any_of_gates;
mod budget_tokens;
mod codegen_file_kinds;
mod files_patterns;
mod fixture_diagnostics;
mod header_tags;
mod hostile_frontmatter;
mod hostile_manifests;
mod hostile_placeholders;
mod locked_user_content;
mod never_panics;
mod overlay_cap_max;
mod reference_claims;
mod reserved_names;
#[path = "../support/mod.rs"]
mod support;
mod validate;
mod validate_claims;
