//! What a command is made of: a [`Command`] names its
//! arguments and options, which its `--help` lists and an unknown option's error repeats,
//! and holds the function that parses the rest of the line and does the work.

use std::fmt::Write as _;
use std::io::Write as _;

use lexopt::Arg;

use crate::out::Out;

/// How a run ends: its exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// Done, with nothing to report.
    Clean = 0,
    /// The manifest has errors, and they were printed.
    Diagnostics = 1,
    /// Nothing was done: a usage error, a manifest that cannot be read, output that cannot
    /// be written.
    Failed = 2,
    /// A bug in doctrine; 101 is what a Rust panic exits with.
    Bug = 101,
}

/// The exit statuses, as every help ends with them.
pub(crate) const EXIT_STATUS: &str =
    "Exit status: 0 nothing to report, 1 the manifest has errors (printed), \
2 a usage error or a manifest that cannot be read.";

/// Why a command stopped before its work.
#[derive(Debug)]
pub(crate) enum Stop {
    /// `-h` or `--help`: the command's help is printed, and the run succeeds.
    Help,
    /// The command line is wrong: the message is followed by the command's usage.
    Usage(String),
    /// The command line is right, but the work cannot start (a manifest that cannot be read).
    Fail(String),
}

impl From<lexopt::Error> for Stop {
    fn from(e: lexopt::Error) -> Self {
        Stop::Usage(e.to_string())
    }
}

/// One option of a command, as its help lists it.
pub(crate) struct Opt {
    /// `--format`.
    pub(crate) name: &'static str,
    /// The value's placeholder (`FORMAT`), or `""` for a switch.
    pub(crate) value: &'static str,
    pub(crate) help: &'static str,
}

/// A command: what `--help` says about it, and what runs it.
pub(crate) struct Command {
    pub(crate) name: &'static str,
    /// One line, for the list of commands and the top of the command's help.
    pub(crate) about: &'static str,
    /// What follows `cargo doctrine NAME` in the usage line.
    pub(crate) usage: &'static str,
    /// Each positional argument as the usage line spells it, and what it is.
    pub(crate) arguments: &'static [(&'static str, &'static str)],
    /// The options besides `-h, --help`, which every command takes.
    pub(crate) options: &'static [Opt],
    /// Paragraphs after the options (what the output is); may be empty.
    pub(crate) notes: &'static str,
    /// Command lines a reader can copy.
    pub(crate) examples: &'static [&'static str],
    /// Parses the arguments after the command's name (sending what it does not take to
    /// [`unexpected`]) and does the work.
    pub(crate) run: fn(&mut lexopt::Parser, &mut Out) -> Result<Exit, Stop>,
}

/// What a command says of an argument it does not take: `-h`/`--help` asks for its help;
/// anything else is a usage error naming the options it does take.
pub(crate) fn unexpected(command: &Command, arg: Arg<'_>) -> Stop {
    let spelled = match arg {
        Arg::Short('h') | Arg::Long("help") => return Stop::Help,
        Arg::Value(value) => {
            return Stop::Usage(format!("unexpected argument `{}`", value.to_string_lossy()))
        }
        Arg::Short(c) => format!("-{c}"),
        Arg::Long(name) => format!("--{name}"),
    };
    let mut valid: Vec<&str> = command.options.iter().map(|o| o.name).collect();
    valid.push("--help");
    Stop::Usage(format!(
        "unknown option `{spelled}`; `{}` takes {}",
        command.name,
        valid.join(", ")
    ))
}

/// Writes a line to standard error; a closed standard error is no reason to panic.
pub(crate) fn complain(message: &str) {
    let message = crate::terminal::shown(message);
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// `cargo doctrine NAME --help`.
pub(crate) fn help(command: &Command) -> String {
    let mut text = format!(
        "{}.\n\nUsage: cargo doctrine {} {}\n",
        paragraphs(command.about),
        command.name,
        command.usage
    );
    if !command.arguments.is_empty() {
        let rows: Vec<(String, &str)> = command
            .arguments
            .iter()
            .map(|(name, what)| (name.to_string(), *what))
            .collect();
        let _ = write!(text, "\nArguments:\n{}", table(&rows));
    }
    let mut rows: Vec<(String, &str)> = command
        .options
        .iter()
        .map(|o| {
            (
                format!("{} {}", o.name, o.value).trim_end().to_string(),
                o.help,
            )
        })
        .collect();
    rows.push(("-h, --help".into(), "Print this help"));
    let _ = write!(text, "\nOptions:\n{}", table(&rows));
    if !command.notes.is_empty() {
        let _ = write!(text, "\n{}\n", paragraphs(command.notes));
    }
    let _ = write!(text, "\n{}\n\nExamples:\n", paragraphs(EXIT_STATUS));
    for example in command.examples {
        let _ = writeln!(text, "  {example}");
    }
    text
}

/// How wide a help's lines are, at most (a word longer than that stands alone).
const WIDTH: usize = 90;

/// Two columns, the first padded to its widest entry, the second wrapped beside it.
pub(crate) fn table(rows: &[(String, &str)]) -> String {
    let width = rows.iter().map(|(left, _)| left.len()).max().unwrap_or(0);
    let indent = " ".repeat(width + 4);
    rows.iter()
        .map(|(left, right)| {
            let lines = wrap(right, WIDTH.saturating_sub(width + 4).max(30));
            format!("  {left:width$}  {}\n", lines.join(&format!("\n{indent}")))
        })
        .collect()
}

/// `text`, its paragraphs (`\n\n` apart) wrapped at [`WIDTH`].
pub(crate) fn paragraphs(text: &str) -> String {
    let wrapped: Vec<String> = text
        .split("\n\n")
        .map(|p| wrap(p, WIDTH).join("\n"))
        .collect();
    wrapped.join("\n\n")
}

/// The words of `text` in lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("one line at least");
        if line.is_empty() {
            line.push_str(word);
        } else if line.chars().count() + 1 + word.chars().count() <= width {
            line.push(' ');
            line.push_str(word);
        } else {
            lines.push(word.to_string());
        }
    }
    lines
}
