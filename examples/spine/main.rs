//! The spine: a shared behavioural layer between a host's base prompt and a persona,
//! chosen at run time by two selectors (seed 003).
//!
//! cargo run -p doctrine-examples --example spine -- --spine on
//! cargo run -p doctrine-examples --example spine -- --spine on --persona-body "You are Dev." --persona-mode replace
//! cargo run -p doctrine-examples --example spine -- --leg --spine examples/spine/prompts/spine.worker.md
//! cargo run -p doctrine-examples --example spine -- --spine on --spine-legs off --doctor
//!
//! Unset, `--spine` and `--spine-legs` take `PI_PERSONA_SPINE` and `PI_PERSONA_SPINE_LEGS`
//! from the environment: the example reads them, the library reads no environment.

use std::process::ExitCode;

mod persona;

use persona::{Mode, Persona, Selectors};

const USAGE: &str = "usage: spine [--leg] [--spine off|on|PATH] [--spine-legs off|on|PATH] [--user-dir DIR] [--persona-body TEXT] [--persona-mode append|replace] [--no-spine-for-persona] [--supervisor-opts-out] [--doctor]";
const HOST_BASE: &str =
    "You are an assistant in a terminal. Tools: read, write, bash. Working directory: /repo.";

#[derive(Default)]
struct Args {
    leg: bool,
    spine: Option<String>,
    spine_legs: Option<String>,
    user_dir: Option<String>,
    body: Option<String>,
    mode: Option<Mode>,
    persona_opts_out: bool,
    supervisor_opts_out: bool,
    doctor: bool,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args::default();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--leg" => a.leg = true,
            "--spine" => a.spine = Some(value()?),
            "--spine-legs" => a.spine_legs = Some(value()?),
            "--user-dir" => a.user_dir = Some(value()?),
            "--persona-body" => a.body = Some(value()?),
            "--persona-mode" => {
                a.mode = Some(match value()?.as_str() {
                    "append" => Mode::Append,
                    "replace" => Mode::Replace,
                    other => {
                        return Err(format!(
                            "unknown persona mode `{other}`; valid values: append, replace"
                        ))
                    }
                })
            }
            "--no-spine-for-persona" => a.persona_opts_out = true,
            "--supervisor-opts-out" => a.supervisor_opts_out = true,
            "--doctor" => a.doctor = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(a)
}

fn main() -> ExitCode {
    let a = match parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("spine: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let env = |name: &str| std::env::var(name).ok();
    let spine = a.spine.or_else(|| env("PI_PERSONA_SPINE"));
    let spine_legs = a.spine_legs.or_else(|| env("PI_PERSONA_SPINE_LEGS"));
    let user_dir = a
        .user_dir
        .unwrap_or_else(|| "examples/spine/user-dir".to_string());
    let selectors = Selectors {
        spine: spine.as_deref(),
        spine_legs: spine_legs.as_deref(),
    };
    let (selection, notices) = selectors.resolve(&user_dir);
    if a.doctor {
        println!("{}", selection.doctor());
        return ExitCode::SUCCESS;
    }
    for n in notices {
        eprintln!("warning: {n}");
    }
    let persona = a.body.as_deref().map(|body| Persona {
        body,
        mode: a.mode.unwrap_or(Mode::Append),
        spine: !a.persona_opts_out,
    });
    let prompt = if a.leg {
        // The supervisor that spawned this leg: only its opt-out matters here.
        let supervisor = a.supervisor_opts_out.then_some(Persona {
            body: "",
            mode: Mode::Append,
            spine: false,
        });
        persona::leg(HOST_BASE, persona, supervisor, &selection)
    } else {
        persona::supervisor(HOST_BASE, persona, &selection)
    };
    println!("{prompt}");
    ExitCode::SUCCESS
}
