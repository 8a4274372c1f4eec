// The manifest whose generated code is pinned in doctrine-core's snapshot compiles and
// composes what it says.
mod d {
    doctrine::doctrine!("../../../doctrine-core/tests/fixtures/small/doctrine.toml");
}

use d::{Mood, Pace, Role};

#[test]
fn composes() {
    let more = d::Overlay {
        style_more: "Use British spelling.".into(),
    };
    let p = d::compose(Role::Builder, Mood::Sunny)
        .knobs(d::Knobs { pace: Pace::Brisk })
        .overlay(&more)
        .task("Fix the login bug.")
        .today(Some("2026-01-01"))
        .finish();
    let sep = "\n\n---\n\n";
    let stable = [
        "You can edit files.",
        "Never run destructive commands without asking.",
        "Answer briefly.\n\nPace: brisk.\n\nUse British spelling.",
        "Be cheerful.",
        "Fix the login bug.",
    ]
    .join(sep);
    assert_eq!(p.stable(), stable);
    assert_eq!(p.volatile(), "2026-01-01");
    assert_eq!(p.as_str(), format!("{stable}{sep}2026-01-01"));

    // The checker gets no pace line; its strict layer is gated on the flag.
    let p = d::compose(Role::Checker, Mood::Stern)
        .flag(d::Flag::Strict, true)
        .task("Review the patch.")
        .today(None)
        .finish();
    assert_eq!(
        p.as_str(),
        [
            "You can read files.",
            "Never run destructive commands without asking.",
            "Answer briefly.",
            "Refuse changes without a test.",
            "Be terse.",
            "Review the patch.",
        ]
        .join(sep)
    );
    assert_eq!(d::sources::STYLE.provenance.version, Some("2.1.0"));
}
