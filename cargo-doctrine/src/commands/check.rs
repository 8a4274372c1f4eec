//! `cargo doctrine check`: every diagnostic the `doctrine!` macro would report for a
//! manifest, from the macro's own loader, as rustc prints them or as rustc's JSON.

use lexopt::Arg;

use crate::cli::{self, Command, Exit, Opt, Stop};
use crate::json;
use crate::manifest::{self, Manifest};
use crate::out::Out;

pub(crate) const COMMAND: Command = Command {
    name: "check",
    about: "Report every problem in a manifest and its files, as the doctrine! macro would",
    usage: "[--format human|json] [MANIFEST]",
    arguments: &[manifest::ARGUMENT],
    options: &[Opt {
        name: "--format",
        value: "FORMAT",
        help: "`human` (the default) or `json`",
    }],
    notes: "Prints nothing for a manifest without errors. `human` prints each diagnostic as \
rustc prints the macro's error (`error: FILE:LINE:COL: message`, then `  help: …`), one blank \
line apart; `json` prints one rustc JSON diagnostic per line (as `rustc --error-format=json` \
and `cargo --message-format=json` carry them). Files are named relative to the crate \
directory: the nearest directory above the manifest that holds a Cargo.toml.",
    examples: &[
        "cargo doctrine check",
        "cargo doctrine check --format json src/doctrine.toml",
    ],
    run,
};

#[derive(Clone, Copy)]
enum Format {
    Human,
    Json,
}

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let mut format = Format::Human;
    let mut manifest = None;
    while let Some(arg) = parser.next()? {
        match arg {
            Arg::Long("format") => {
                format = match parser.value()?.to_str() {
                    Some("human") => Format::Human,
                    Some("json") => Format::Json,
                    other => {
                        return Err(Stop::Usage(format!(
                            "unknown format `{}`; the formats: human, json",
                            other.unwrap_or("(not UTF-8)")
                        )))
                    }
                }
            }
            Arg::Value(path) if manifest.is_none() => manifest = Some(path),
            other => return Err(cli::unexpected(&COMMAND, other)),
        }
    }
    let manifest = Manifest::open(manifest, COMMAND.name)?;
    let Err(diagnostics) = doctrine_core::codegen::load(&manifest.request()) else {
        return Ok(Exit::Clean);
    };
    if diagnostics.0.is_empty() {
        cli::complain("error: the manifest failed without a diagnostic; please report this");
        return Ok(Exit::Bug);
    }
    match format {
        Format::Human => out.print(&diagnostics.rendered()),
        Format::Json => {
            for d in &diagnostics.0 {
                out.print(&json::diagnostic(d, manifest.crate_dir()));
            }
        }
    }
    Ok(Exit::Diagnostics)
}
