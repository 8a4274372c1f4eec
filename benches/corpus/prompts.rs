//! The corpus prompts composed by doctrine, with the values `benches/templates.rs` times
//! them on and `benches/ir_templates.sh` counts their instructions on: one file, so the
//! two measure the same prompts.

use std::hint::black_box;

pub mod h {
    doctrine::doctrine!("../../tests/fixtures/handlebars/doctrine.toml");
}

pub use h::{Facts, Flag, Phase, ToolsItem};

pub const TOOLS: [ToolsItem<'static>; 3] = [
    ToolsItem {
        name: "bash",
        risky: true,
    },
    ToolsItem {
        name: "grep & find",
        risky: false,
    },
    ToolsItem {
        name: "read",
        risky: false,
    },
];
pub const NAMES: [&str; 3] = ["bash", "grep", "read"];
pub const NOTE: &str = "Keep <b>changes</b> small & \"reviewable\"; ask before `rm`.";

/// `system.hbs`, with tools and the user's rules.
pub fn doctrine_prompt() -> h::Prompt {
    h::compose(Facts {
        project: black_box("ledger <core>"),
        note: black_box(NOTE),
        plan_hint: "list <files> & steps",
        phase: Some(Phase::Build),
        tools: black_box(&TOOLS),
        tool_names: &NAMES,
    })
    .flag(Flag::HasTools, true)
    .flag(Flag::UserRules, true)
    .finish()
}

pub mod r {
    doctrine::doctrine!("../../tests/fixtures/handlebars/review/doctrine.toml");
}

pub const FILES: [r::FilesItem<'static>; 3] = [
    r::FilesItem {
        path: "src/ledger.rs",
        lang: Some("Rust"),
        generated: false,
    },
    r::FilesItem {
        path: "docs/<guide>.md",
        lang: None,
        generated: false,
    },
    r::FilesItem {
        path: "src/schema.rs",
        lang: Some("Rust & SQL"),
        generated: true,
    },
];

/// `review.hbs`, strict, over three files.
pub fn review_prompt() -> r::Prompt {
    r::compose(r::Facts {
        reviewer: black_box(Some("Ada")),
        files: black_box(&FILES),
    })
    .flag(r::Flag::Strict, true)
    .finish()
}

pub mod j {
    doctrine::doctrine!("../jinja_corpus/doctrine.toml");
}

pub const JINJA_TOOLS: [&str; 3] = ["edit", "shell", "read"];

/// Both imported templates: each a layer of one prompt.
pub fn jinja_prompt() -> j::Prompt {
    j::compose(j::Facts {
        branch: black_box(Some("main")),
        ci: None,
        detached: None,
        dirty: Some("true"),
        has_rules: Some("true"),
        mode: Some("build"),
        note: black_box(Some("Keep it small & safe.")),
        project: black_box("ledger"),
        rules_file: Some("RULES.md"),
        sandboxed: None,
        tools: black_box(&JINJA_TOOLS),
        user_rules: None,
    })
    .finish()
}
