//! `cargo doctrine check`: every diagnostic the `doctrine!` macro would report for a
//! manifest, from the macro's own loader, as rustc prints them or as rustc's JSON.

use lexopt::{Arg, ValueExt};

use doctrine_codegen::{Diagnostics, Doctrine};

use crate::cache_lint;
use crate::cli::{self, Command, Exit, Opt, Stop};
use crate::json;
use crate::manifest::{self, Manifest};
use crate::out::Out;
use crate::prompts;
use crate::sarif;
use crate::tokens::{self, Counter};

pub(crate) const COMMAND: Command = Command {
    name: "check",
    about: "Report every problem in a manifest and its files, as the doctrine! macro would",
    usage: "[--format human|json|sarif] [--min-cache-tokens N] [--encoding ENCODING] [MANIFEST]",
    arguments: &[manifest::ARGUMENT],
    options: &[
        Opt {
            name: "--format",
            value: "FORMAT",
            help: "`human` (the default), `json` (rustc's) or `sarif` (SARIF 2.1.0, for code scanning)",
        },
        Opt {
            name: "--min-cache-tokens",
            value: "N",
            help: "The fewest tokens the model caches, for the notes [default: 1024]",
        },
        tokens::OPTION,
    ],
    notes: "Prints the errors the macro would report, or, for a manifest without errors, notes \
about caching (none when there is nothing to say): a stable prefix shorter than the model \
caches, a layer that varies by role placed before layers every role shares, and a layer \
that takes run-time text beside a locked layer outside a container (its headings are \
escaped). `human` \
prints each as rustc prints the macro's error (`error: FILE:LINE:COL: message`, or `note: …`, \
then `  help: …`), one blank line apart; `json` prints one rustc JSON diagnostic per line (as \
`rustc --error-format=json` and `cargo --message-format=json` carry them); `sarif` prints one \
SARIF 2.1.0 log (GitHub code scanning and other services read it). Files are named \
relative to the crate directory: the nearest directory above the manifest that holds a \
Cargo.toml. Notes do not change the exit status.",
    examples: &[
        "cargo doctrine check",
        "cargo doctrine check --format json src/doctrine.toml",
        "cargo doctrine check --format sarif > doctrine.sarif",
    ],
    run,
};

#[derive(Clone, Copy)]
enum Format {
    Human,
    Json,
    Sarif,
}

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let mut format = Format::Human;
    let mut manifest = None;
    let mut min = cache_lint::MIN_CACHE_TOKENS;
    let mut counter = Counter::Estimate;
    while let Some(arg) = parser.next()? {
        match arg {
            Arg::Long("encoding") => counter = Counter::parse(&parser.value()?.string()?)?,
            Arg::Long("min-cache-tokens") => {
                let value = parser.value()?.string()?;
                min = value.parse().map_err(|_| {
                    Stop::Usage(format!(
                        "--min-cache-tokens takes a number of tokens, not `{value}`"
                    ))
                })?;
            }
            Arg::Long("format") => {
                format = match parser.value()?.to_str() {
                    Some("human") => Format::Human,
                    Some("json") => Format::Json,
                    Some("sarif") => Format::Sarif,
                    other => {
                        return Err(Stop::Usage(format!(
                            "unknown format `{}`; the formats: human, json, sarif",
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
    let diagnostics = match doctrine_codegen::load(&manifest.request()) {
        Ok(doctrine) => {
            let shown = doctrine.manifest_display.clone();
            let notes = notes(doctrine, &manifest, min, counter);
            print(&notes, "note", format, &manifest, out);
            if let Format::Human = format {
                let fine = fine(&shown, notes.list.len(), counter.caveat());
                out.print(&crate::terminal::shown(&fine));
            }
            return Ok(Exit::Clean);
        }
        Err(diagnostics) => diagnostics,
    };
    if diagnostics.list.is_empty() {
        cli::complain("error: the manifest failed without a diagnostic; please report this");
        return Ok(Exit::Bug);
    }
    print(&diagnostics, "error", format, &manifest, out);
    Ok(Exit::Diagnostics)
}

/// The line that ends a clean check: the manifest is fine, with how many notes came (and,
/// when they count estimated tokens in a build that cannot count exactly, that they do).
fn fine(shown: &str, notes: usize, caveat: Option<String>) -> String {
    let caveat = caveat.map(|c| format!("; {c}")).unwrap_or_default();
    let said = match notes {
        0 => String::new(),
        1 => format!(" (1 note above{caveat})"),
        n => format!(" ({n} notes above{caveat})"),
    };
    let gap = if notes > 0 { "\n" } else { "" };
    format!("{gap}{shown}: no errors, the manifest is fine{said}\n")
}

/// Each diagnostic at `level`, in `format`.
fn print(all: &Diagnostics, level: &str, format: Format, manifest: &Manifest, out: &mut Out) {
    match format {
        Format::Human => {
            let blocks: Vec<String> = all.located().map(|d| format!("{level}: {d}\n")).collect();
            // A diagnostic quotes the manifest (a key, a name): its control characters are
            // shown escaped, never acted on by the terminal.
            out.print(&crate::terminal::shown(&blocks.join("\n")));
        }
        Format::Json => {
            for d in all.located() {
                out.print(&json::diagnostic(&d, level, manifest.crate_dir()));
            }
        }
        Format::Sarif => out.print(&sarif::log(all, level, manifest.crate_dir())),
    }
}

/// The cache notes for a manifest without errors; none when it makes too many prompts to
/// go through.
fn notes(doctrine: Doctrine, manifest: &Manifest, min: usize, counter: Counter) -> Diagnostics {
    match prompts::of(doctrine, false) {
        Ok(prompts) => cache_lint::notes(&prompts, min, counter, manifest.source()),
        Err(_) => Diagnostics::default(),
    }
}
