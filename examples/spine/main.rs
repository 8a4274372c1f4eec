//! The spine: a shared behavioural layer between a host's base prompt and a persona.
//!
//! cargo run --example spine -- --spine on
//! cargo run --example spine -- --spine on --persona-body "You are Dev." --persona-mode replace
//! cargo run --example spine -- --leg --spine examples/spine/prompts/spine.worker.md

use std::process::ExitCode;

mod persona;

use persona::{Mode, Persona, Role, Selector};

const USAGE: &str = "usage: spine [--leg] [--spine off|on|PATH] [--user-dir DIR] [--persona-body TEXT] [--persona-mode append|replace] [--no-spine-for-persona]";
const HOST_BASE: &str =
    "You are an assistant in a terminal. Tools: read, write, bash. Working directory: /repo.";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut role, mut spine, mut user_dir) = (
        Role::Supervisor,
        "off".to_string(),
        "examples/spine/user-dir".to_string(),
    );
    let (mut body, mut mode, mut opt_in) = (None, Mode::Append, true);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        let result: Result<(), String> = (|| {
            match arg.as_str() {
                "--leg" => role = Role::Leg,
                "--spine" => spine = value()?,
                "--user-dir" => user_dir = value()?,
                "--persona-body" => body = Some(value()?),
                "--persona-mode" => {
                    mode = match value()?.as_str() {
                        "append" => Mode::Append,
                        "replace" => Mode::Replace,
                        other => {
                            return Err(format!(
                                "unknown persona mode `{other}`; valid values: append, replace"
                            ))
                        }
                    }
                }
                "--no-spine-for-persona" => opt_in = false,
                other => return Err(format!("unknown argument `{other}`")),
            }
            Ok(())
        })();
        if let Err(e) = result {
            eprintln!("spine: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let selector = match spine.as_str() {
        "off" | "0" | "false" | "no" => Selector::Off,
        "on" | "1" | "true" | "yes" => Selector::On {
            user_dir: user_dir.into(),
        },
        path => Selector::Path(path.into()),
    };
    let persona = body.as_deref().map(|body| Persona {
        body,
        mode,
        spine: opt_in,
    });
    let (prompt, warnings) = persona::compose(role, HOST_BASE, persona, &selector);
    for w in warnings {
        eprintln!("warning: {w}");
    }
    println!("{prompt}");
    ExitCode::SUCCESS
}
