// The manifest behind doctrine-core's second generated-code snapshot compiles and composes
// what it says: facts, a fact gate, titles per formulation, an overlay, instructions.
mod d {
    doctrine::doctrine!("../../../doctrine-core/tests/fixtures/facts/doctrine.toml");
}

use doctrine::input::Formulation;
use doctrine::instructions::{Authority, Instruction};

#[test]
fn composes() {
    let rules = [Instruction {
        source: Authority::Project,
        scope: "AGENTS.md",
        locked: false,
        text: "Run the tests.",
    }];
    let facts = d::ActFacts {
        root: "/srv",
        urgency: Some(d::Urgency::High),
    };
    let p = d::compose(facts).rules(&rules).extra(None).finish();
    assert_eq!(
        p.as_str(),
        "## Base\n\nWork in /srv.\n\n---\n\n## Voice\n\nSpeak plainly.\n\n\n---\n\n## Rules\n\n[instruction: source=project, scope=AGENTS.md]\nRun the tests.\n\n---\n\nBe quick."
    );
    assert_eq!(p.volatile(), "Be quick.");

    let calm = d::ActFacts {
        root: "/srv",
        urgency: Some(d::Urgency::Low),
    };
    let voice = d::Overlay {
        voice: "Speak like a pirate.".into(),
    };
    let p = d::compose(calm)
        .family("claude-3")
        .overlay(&voice)
        .rules(&[])
        .extra(Some("Thanks."))
        .finish();
    assert_eq!(
        p.as_str(),
        "<base>\nWork in /srv.\n</base>\n\n---\n\n<voice>\nSpeak like a pirate.\n</voice>\n\n---\n\nThanks."
    );
    assert_eq!(d::formulation_for("gpt-4"), Formulation::Markdown);

    let ask = d::compose(d::AskFacts { root: "/srv" })
        .formulation(Formulation::Bare)
        .rules(&[])
        .extra(None)
        .finish();
    assert_eq!(ask.as_str(), "Work in /srv.\n\n---\n\nSpeak plainly.\n");
}
