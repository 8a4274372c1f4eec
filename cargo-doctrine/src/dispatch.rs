//! How a command line reaches a command: the program's own options (`--help`,
//! `--version`), `help COMMAND`, and the command named, found in [`ALL`]. Apart from
//! `cli`, which says what a command is, so that the commands and this list of them do not
//! import each other.

use std::ffi::OsString;

use lexopt::Arg;

use crate::cli::{complain, help, paragraphs, table, Command, Exit, Stop, EXIT_STATUS};
use crate::commands::ALL;
use crate::out::Out;

/// Runs the command line after the program's name (`cargo` passes `doctrine` first).
pub(crate) fn run(mut args: Vec<OsString>, out: &mut Out) -> Exit {
    if args.first().is_some_and(|a| a == "doctrine") {
        args.remove(0);
    }
    let mut parser = lexopt::Parser::from_args(args);
    let first = match parser.next() {
        Ok(first) => first,
        Err(e) => return top_usage(&e.to_string()),
    };
    match first {
        None => {
            complain(&overview());
            Exit::Failed
        }
        Some(Arg::Short('h') | Arg::Long("help")) => {
            out.print(&overview());
            Exit::Clean
        }
        Some(Arg::Short('V') | Arg::Long("version")) => {
            out.print(&format!("cargo-doctrine {}\n", env!("CARGO_PKG_VERSION")));
            Exit::Clean
        }
        Some(Arg::Value(name)) if name == "help" => help_command(&mut parser, out),
        Some(Arg::Value(name)) => match find(&name) {
            Some(command) => run_command(command, &mut parser, out),
            None => top_usage(&unknown_command(&name)),
        },
        Some(Arg::Short(c)) => top_usage(&format!(
            "unknown option `-{c}`; before a command: --help, --version"
        )),
        Some(Arg::Long(name)) => top_usage(&format!(
            "unknown option `--{name}`; before a command: --help, --version"
        )),
    }
}

fn run_command(command: &Command, parser: &mut lexopt::Parser, out: &mut Out) -> Exit {
    match (command.run)(parser, out) {
        Ok(exit) => exit,
        Err(Stop::Help) => {
            out.print(&help(command));
            Exit::Clean
        }
        Err(Stop::Usage(message)) => {
            complain(&format!(
                "error: {message}\n\nUsage: cargo doctrine {} {}\n\
                 Run `cargo doctrine {} --help` for its options and examples.",
                command.name, command.usage, command.name
            ));
            Exit::Failed
        }
        Err(Stop::Fail(message)) => {
            complain(&format!("error: {message}"));
            Exit::Failed
        }
    }
}

/// `cargo doctrine help [COMMAND]`.
fn help_command(parser: &mut lexopt::Parser, out: &mut Out) -> Exit {
    match parser.next() {
        Ok(None) => {
            out.print(&overview());
            Exit::Clean
        }
        Ok(Some(Arg::Value(name))) => match find(&name) {
            Some(command) => {
                out.print(&help(command));
                Exit::Clean
            }
            None => top_usage(&unknown_command(&name)),
        },
        Ok(Some(_)) => top_usage("`help` takes the name of a command"),
        Err(e) => top_usage(&e.to_string()),
    }
}

fn find(name: &OsString) -> Option<&'static Command> {
    ALL.iter().copied().find(|c| name == c.name)
}

fn unknown_command(name: &OsString) -> String {
    let names: Vec<&str> = ALL.iter().map(|c| c.name).chain(["help"]).collect();
    format!(
        "unknown command `{}`; the commands: {}",
        name.to_string_lossy(),
        names.join(", ")
    )
}

fn top_usage(message: &str) -> Exit {
    complain(&format!(
        "error: {message}\n\nUsage: cargo doctrine COMMAND [OPTIONS] [ARGS]\n\
         Run `cargo doctrine --help` for the commands."
    ));
    Exit::Failed
}

/// `cargo doctrine --help`: the commands.
fn overview() -> String {
    let mut rows: Vec<(String, &str)> = ALL.iter().map(|c| (c.name.into(), c.about)).collect();
    rows.push(("help".into(), "Print the help of a command"));
    let options = [
        ("-h, --help".to_string(), "Print this help"),
        ("-V, --version".to_string(), "Print the version"),
    ];
    let intro = format!(
        "cargo-doctrine {}: checks doctrine manifests with the doctrine! macro's own loader, \
         prints what the macro generates, renders the prompts compiled code composes, and shows \
         what a change does to every prompt and to its cached prefix.",
        env!("CARGO_PKG_VERSION")
    );
    format!(
        "{}\n\nUsage: cargo doctrine COMMAND [OPTIONS] [ARGS]\n\n\
         Commands:\n{}\nOptions:\n{}\n{}\n\n\
         Run `cargo doctrine COMMAND --help` for a command's options and examples.\n",
        paragraphs(&intro),
        table(&rows),
        table(&options),
        paragraphs(EXIT_STATUS)
    )
}
