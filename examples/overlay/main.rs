//! A single-agent coding assistant whose user may change some layers from a configuration
//! directory, and can never reach the locked ones.
//!
//! cargo run -p doctrine-examples --example overlay -- --config-dir examples/overlay/config-demo
//! cargo run -p doctrine-examples --example overlay -- --config-dir examples/overlay/config-demo --family claude-sonnet
//! cargo run -p doctrine-examples --example overlay -- --config-dir examples/overlay/config-demo --explain

use std::path::PathBuf;
use std::process::ExitCode;

use doctrine::input::Repo;
use doctrine::instructions::{Authority, Instruction};

mod assistant {
    doctrine::doctrine!("doctrine.toml");
}

const USAGE: &str = "usage: overlay [--config-dir DIR] [--family NAME] [--tools LIST] [--user TEXT] [--project TEXT] [--explain]";

struct Args {
    config_dir: Option<PathBuf>,
    family: String,
    tools: String,
    user: String,
    project: String,
    explain: bool,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut out = Args {
        config_dir: None,
        family: "unknown".into(),
        tools: "read, search, edit, bash".into(),
        user: "Prefer short answers; I read them on a small screen.".into(),
        project: "Run `make check` before you say a change is done.".into(),
        explain: false,
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--config-dir" => out.config_dir = Some(PathBuf::from(value()?)),
            "--family" => out.family = value()?,
            "--tools" => out.tools = value()?,
            "--user" => out.user = value()?,
            "--project" => out.project = value()?,
            "--explain" => out.explain = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(out)
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("overlay: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // The overlay comes from one directory; a missing one is normal and silent.
    let (overlay, mut notices) = match &args.config_dir {
        Some(dir) => assistant::Overlay::load(dir),
        None => (assistant::Overlay::default(), Vec::new()),
    };
    let instructions = [
        Instruction {
            source: Authority::Locked,
            scope: "organisation policy",
            locked: true,
            text: "Never push to the main branch; open a pull request instead.",
        },
        Instruction {
            source: Authority::User,
            scope: "~/.config/quill",
            locked: false,
            text: &args.user,
        },
        Instruction {
            source: Authority::Project,
            scope: "AGENTS.md",
            locked: false,
            text: &args.project,
        },
    ];
    // Reported, never removed: the rest of an instruction is legitimate. The built-in
    // patterns, with the words the manifest's locked layers add (none here).
    notices.extend(assistant::safety_claims(&instructions));
    // Data the client gathered when the session opened; rendering runs no command.
    let repo = Repo {
        branch: Some("feature/cache"),
        main_branch: Some("main"),
        detached: false,
        clean: false,
        status: " M src/cache.rs\n?? notes.txt",
        truncated: false,
        commits: &[
            "3f2a1c9 Add an LRU cache in front of the store",
            "9b1e0d4 Split the storage module",
        ],
    }
    .render();
    let prompt = assistant::compose(assistant::Facts { tools: &args.tools })
        .family(&args.family)
        .overlay(&overlay)
        .instructions(&instructions)
        .repo(Some(repo.as_str()))
        .finish();
    for notice in &notices {
        eprintln!("notice: {notice}");
    }
    if args.explain {
        print!("{}", prompt.explain());
    } else {
        println!("{prompt}");
    }
    ExitCode::SUCCESS
}
