//! A coding agent's turn: the skill index (shipped skills and the user's) in the cached
//! prefix, then the task, the skill bodies it calls for and the reminders the session state
//! asks for, appended.
//!
//! cargo run -p doctrine-examples --example agent
//! cargo run -p doctrine-examples --example agent -- "the login test is flaky since the last merge; cut a release after"

mod agent {
    doctrine::doctrine!("doctrine.toml");
}

use agent::{Facts, SessionState};
use std::path::Path;

use doctrine::input::ContextBand;

const DEFAULT_TASK: &str =
    "The parser test is flaky since the last merge. Fix it, then cut a release.";

fn main() {
    let task = std::env::args()
        .nth(1)
        .unwrap_or_else(|| DEFAULT_TASK.to_string());
    // Shipped skills, then the user's: a user skill replaces a shipped one of its name. A
    // real agent passes its own directories (e.g. the user's config, then the project's).
    let mut skills = agent::shipped_skills();
    // The examples' package is `examples/package`; this example's files are beside it.
    let examples = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new(".."));
    let user = examples.join("agent/user-skills");
    for notice in skills.load_user(&[user]) {
        eprintln!("notice: {notice}");
    }
    let prompt = agent::compose(Facts { skills: &skills })
        .task(&task)
        .finish();
    // What the user's files put into the prompt, byte for byte: here the index line of the
    // user's `release` skill.
    for part in prompt.user_content() {
        eprintln!(
            "[user content in `{}`: {:?}, from {}]",
            part.layer,
            &prompt.as_str()[part.range.clone()],
            part.source
        );
    }

    // What this turn appends after the prompt: the bodies the task calls for, then the
    // reminders the harness's state asks for. A harness tracks this state itself.
    let state = SessionState {
        changed_files: &["src/parser.rs"],
        denied_tools: &[],
        compacted: true,
        context: ContextBand::crossed(ContextBand::of(55, 100), ContextBand::of(63, 100)),
    };
    // Wrapped so that no body or list item can close the marker early; a notice says when
    // one tried.
    let mut turn = Vec::new();
    for s in skills.matching(&task) {
        let (part, notice) = agent::marked_checked(&format!("skill `{}`", s.name), &s.body);
        turn.push(part);
        notice.into_iter().for_each(|n| eprintln!("notice: {n}"));
    }
    for r in agent::emit(&state) {
        let (part, notice) = r.render_checked();
        turn.push(part);
        notice.into_iter().for_each(|n| eprintln!("notice: {n}"));
    }

    println!("{prompt}");
    for part in turn {
        println!("\n{part}");
    }
    eprintln!(
        "[cached prefix: {} bytes; appended this turn: {} parts]",
        prompt.stable().len(),
        skills.matching(&task).len() + agent::emit(&state).len()
    );
}
