//! `parts = true` on a `[[message]]` (`tests/fixtures/messages/parts.toml`): each layer
//! with text is a content part of its own, the wrapper on the first and last part, the
//! join between two parts in neither; a message in parts may span tiers, its stable part
//! ending the tier with a breakpoint; the provider shapes send one block or `input_text`
//! part per part. The prompt's text is what it is without parts.

use doctrine::cache::{anthropic_request, openai_request, CacheControl, Message};
use doctrine::instructions::{Authority, Instruction};

mod parts {
    doctrine::doctrine!("../../tests/fixtures/messages/parts.toml");
}

const DOCS: [Instruction<'static>; 2] = [
    Instruction {
        source: Authority::Project,
        scope: "AGENTS.md",
        locked: false,
        text: "Run `make check` before you commit.",
    },
    Instruction {
        source: Authority::Directory,
        scope: "src/AGENTS.md",
        locked: false,
        text: "Keep modules small.",
    },
];

fn compose(approvals: Option<&str>, cwd: Option<&str>) -> parts::Prompt {
    let facts = parts::Facts {
        sandbox: parts::Sandbox::WorkspaceWrite,
        cwd,
    };
    parts::compose(facts)
        .approvals(approvals)
        .project_docs(&DOCS)
        .finish()
}

/// Each part as (layer, text, tier, breakpoint).
fn parts_of<'p>(m: &Message<'p>) -> Vec<(&'static str, &'p str, &'static str, bool)> {
    let each = m.parts.iter().map(|p| {
        assert_eq!(
            p.text,
            &m.text[p.range.start - m.range.start..p.range.end - m.range.start]
        );
        (p.layer, p.text, p.tier, p.breakpoint)
    });
    each.collect()
}

#[test]
fn each_layer_of_a_message_in_parts_is_a_part() {
    let p = compose(Some("Ask first."), Some("/repo"));
    assert_eq!(
        p.as_str(),
        "You are a careful coding agent.\n\n\
         <permissions>\nSandbox: workspace-write.\nAsk first.\n</permissions>\n\n\
         Run `make check` before you commit.\n\nKeep modules small.\n\n\
         <environment_context>\n<cwd>/repo</cwd>\n</environment_context>"
    );
    let m = p.messages();
    assert_eq!(m.len(), 3);
    // A message without `parts` is one text.
    assert!(m[0].parts.is_empty());
    // The wrapper is on the first and the last part; the join (`\n`) is in neither.
    assert_eq!(
        m[1].text,
        "<permissions>\nSandbox: workspace-write.\nAsk first.\n</permissions>"
    );
    assert_eq!(
        parts_of(&m[1]),
        [
            (
                "sandbox",
                "<permissions>\nSandbox: workspace-write.",
                "stable",
                false
            ),
            ("approvals", "Ask first.\n</permissions>", "stable", false),
        ]
    );
    // The instruction files, then the environment: the stable part ends its tier.
    assert_eq!(
        parts_of(&m[2]),
        [
            (
                "project_docs",
                "Run `make check` before you commit.\n\nKeep modules small.",
                "stable",
                true
            ),
            (
                "environment",
                "<environment_context>\n<cwd>/repo</cwd>\n</environment_context>",
                "volatile",
                false
            ),
        ]
    );
    assert_eq!((m[2].tier, m[2].breakpoint), ("stable", false));
    // The cached prefix ends with the stable part; the volatile part is the last one.
    assert!(p.stable().ends_with("Keep modules small."));
    assert_eq!(p.volatile(), m[2].parts[1].text);
    // One layer printing: one part, the wrapper whole around it.
    let p = compose(None, None);
    let m = p.messages();
    assert_eq!(
        parts_of(&m[1]),
        [(
            "sandbox",
            "<permissions>\nSandbox: workspace-write.\n</permissions>",
            "stable",
            false
        )]
    );
    // Without the environment the instruction files end the message and its tier.
    assert_eq!(
        parts_of(&m[2]),
        [(
            "project_docs",
            "Run `make check` before you commit.\n\nKeep modules small.",
            "stable",
            true
        )]
    );
    assert!(m[2].breakpoint);
}

#[test]
fn the_request_shapers_send_a_block_or_an_input_text_per_part() {
    let p = compose(Some("Ask first."), Some("/repo"));
    let a = anthropic_request(&p);
    assert_eq!(a.system.len(), 1);
    assert_eq!(a.system[0].text, "You are a careful coding agent.");
    let blocks = |i: usize| {
        let c = &a.context[i].content;
        c.iter()
            .map(|b| (b.text, b.cache_control))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        blocks(0),
        [
            ("<permissions>\nSandbox: workspace-write.", None),
            ("Ask first.\n</permissions>", None),
        ]
    );
    assert_eq!(
        blocks(1),
        [
            (
                "Run `make check` before you commit.\n\nKeep modules small.",
                Some(CacheControl::Ephemeral)
            ),
            (
                "<environment_context>\n<cwd>/repo</cwd>\n</environment_context>",
                None
            ),
        ]
    );
    assert!(a.turn.is_empty());
    let o = openai_request(&p);
    assert_eq!(o.instructions, "You are a careful coding agent.");
    let items: Vec<(&str, &str, Vec<&str>)> = o
        .context
        .iter()
        .map(|i| (i.role, i.content, i.parts.clone()))
        .collect();
    assert_eq!(
        items,
        [
            (
                "developer",
                "<permissions>\nSandbox: workspace-write.\nAsk first.\n</permissions>",
                vec![
                    "<permissions>\nSandbox: workspace-write.",
                    "Ask first.\n</permissions>"
                ]
            ),
            (
                "user",
                "Run `make check` before you commit.\n\nKeep modules small.\n\n\
                 <environment_context>\n<cwd>/repo</cwd>\n</environment_context>",
                vec![
                    "Run `make check` before you commit.\n\nKeep modules small.",
                    "<environment_context>\n<cwd>/repo</cwd>\n</environment_context>"
                ]
            ),
        ]
    );
}
