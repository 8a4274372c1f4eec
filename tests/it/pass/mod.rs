//! Programs that must compile and compose exactly what they say: each module invokes the
//! macro on its own manifest (beside it) and checks the bytes. `strict_lints` is `pub` so
//! that its items are reachable, as a user's would be.

mod claims;
mod empty_shipped_text;
mod fact_alternatives;
mod facts_fixture;
mod flag_gated;
mod golden;
mod negated_flag;
mod optional_choice;
mod overlay_append;
mod roles_texts;
mod single_file;
mod small_fixture;
pub mod strict_lints;
mod tricky_names;
