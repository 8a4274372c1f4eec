//! A coding agent's request: instructions chosen from the model name, a developer message
//! of permissions (a locked rule, and the user's command rules forwarded in a code fence),
//! a user message of instruction files, and the turn's environment after the history;
//! printed as the messages an API takes (the developer message's parts too). The files
//! arrive as written, headings, rule lines and code blocks included.
//!
//! cargo run -p doctrine-examples --example requests
//! cargo run -p doctrine-examples --example requests -- orca-2-mini

mod requests {
    doctrine::doctrine!("doctrine.toml");
}

use doctrine::instructions::{Authority, Instruction};
use requests::{Approval, Base, Facts, Sandbox};

fn main() {
    let model = std::env::args().nth(1).unwrap_or_else(|| "orca-2".into());
    // The instruction files an agent found, as their bytes are (trailing line breaks kept).
    let docs = [
        Instruction {
            source: Authority::Project,
            scope: "AGENTS.md",
            locked: false,
            text: AGENTS,
        },
        Instruction {
            source: Authority::Directory,
            scope: "web/AGENTS.md",
            locked: false,
            text: WEB_AGENTS,
        },
    ];
    // The environment as the agent finds it: the directory it runs in is its one root.
    let cwd = std::env::current_dir().map_or_else(|_| ".".into(), |d| d.display().to_string());
    let roots = [cwd.as_str()];
    let facts = Facts {
        sandbox: Sandbox::Workspace,
        approval: Approval::OnFailure,
        roots: &roots,
        cwd: &cwd,
        date: None,
    };
    let prompt = requests::compose(facts, Base::Plain)
        .model(&model)
        .command_rules(Some(COMMAND_RULES))
        .user_notes(Some("Prefer small commits."))
        .project_docs(&docs)
        .finish();
    for m in prompt.messages() {
        let when = if m.after_history {
            " (after the history)"
        } else {
            ""
        };
        println!("--- {}{when}\n{}", m.role, m.text);
        // A message sent in parts: each part's layer and text, as the API takes them.
        for part in &m.parts {
            println!("  part `{}`: {:?}", part.layer, part.text);
        }
    }
    eprintln!("{}", prompt.explain());
}

/// The repository's instruction file: headings, a rule line and a code block.
const AGENTS: &str = "# Working in this repository

## Checks
Run the whole suite before a commit:

```sh
make check
```

---

Keep commits small; one change each.
";

/// A directory's own file, under the repository's.
const WEB_AGENTS: &str = "# The web app

## Style
Components live in `web/src/ui/`; one per file.
";

/// The user's command rules, as they keep them in their home directory.
const COMMAND_RULES: &str = "# Commands I allow

- `cargo test`, `make check`: always
- `git push`: never

## Ask first
Anything that installs software.";
