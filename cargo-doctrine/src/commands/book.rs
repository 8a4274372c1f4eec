//! `cargo doctrine book`: every prompt a manifest makes as one self-contained web page
//! (`DIR/index.html`), and with `--diff`/`--rev` the review of a change on that page.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use lexopt::{Arg, ValueExt};

use doctrine_codegen::load;
use doctrine_codegen::named::Named;

use crate::book;
use crate::cli::{self, Command, Exit, Opt, Stop};
use crate::compose::{
    self, FACT, FAMILY, INSTRUCTION, MAX_BYTES, MODEL, OVERLAY, SELECT, SKILLS, SLOT,
};
use crate::manifest::{self, Manifest};
use crate::out::Out;
use crate::out_files::OutDir;
use crate::prompts::Prompts;
use crate::sides::Sides;
use crate::tokens::Counter;

pub(crate) const COMMAND: Command = Command {
    name: "book",
    about: "Write every prompt as one web page of labelled layers (--diff: a review)",
    usage: "[--out DIR] [--choices] [--models] [--fact NAME=VALUE]… [--max-bytes FACT=N]… [--slot NAME=TEXT|@FILE]… \
            [--instruction LAYER=SOURCE[@SCOPE]:TEXT]… [--select NAME=VALUE]… [--overlay DIR] \
            [--skills DIR]… [--family NAME] [--model NAME] [--role ROLE --flag NAME… --knob NAME=VALUE… --choice LAYER=VARIANT…] \
            ([MANIFEST] | --diff OLD NEW | --rev REV [MANIFEST])",
    arguments: &[
        manifest::ARGUMENT,
        ("OLD NEW", "With --diff: two manifests, the change from OLD's prompts to NEW's"),
    ],
    options: &[
        Opt {
            name: "--out",
            value: "DIR",
            help: "The directory to write index.html into (made if missing; index.html is written only as a regular file, never through a symlink, and the default directory is not followed if it is one) [default: doctrine-book]",
        },
        Opt {
            name: "--diff",
            value: "",
            help: "Review the change from the manifest OLD to the manifest NEW",
        },
        Opt {
            name: "--rev",
            value: "REV",
            help: "Review the change from the manifest's crate directory as git has it at REV \
                   to the working tree",
        },
        Opt {
            name: "--choices",
            value: "",
            help: "Also combine every variant of each choice layer",
        },
        Opt {
            name: "--models",
            value: "",
            help: "Also one page per `[models]` rule, and one for a name no rule matches \
                   (the default), each composed as `.model()` composes it",
        },
        FACT,
        MAX_BYTES,
        SLOT,
        INSTRUCTION,
        SELECT,
        OVERLAY,
        SKILLS,
        FAMILY,
        MODEL,
        Opt {
            name: "--role, --flag, --knob, --choice",
            value: "",
            help: "Name one combination, as `render` takes them: the book is then that one prompt",
        },
    ],
    notes: "One self-contained HTML file: no network, no font, no framework, a small script of \
its own (filters, pages of the index, the copy control); it opens from file://. The index lists \
every combination (roles × flags × knobs, × choices with --choices), identical prompts grouped, \
with bytes, o200k_base tokens, the stable prefix and the number of distinct layer texts, filtered \
by role and by input. Each distinct prompt's page holds its exact bytes as one labelled block \
per layer (name, source, tier, locked, overlay field, gate), separators drawn as separators, \
the stable/volatile boundary and each cache breakpoint with the tokens up to it; locked \
layers, user-file bytes and run-time values are marked by colour and by a text label; layers \
left out are listed with the reason. The inputs (facts, list budgets, slots, instructions, selectors, \
overlay, skill directories, family) apply to every prompt; a required fact must be given. In review mode they \
apply to both sides: each changed layer text is shown once with the prompts it reaches, changed bytes are highlighted in the prompt \
pages, and each prompt's cached prefix before → after is stated, with the simulated cache \
(3 sessions × 4 turns) before → after.",
    examples: &[
        "cargo doctrine book examples/crew/doctrine.toml --out /tmp/crew-book",
        "cargo doctrine book examples/overlay/doctrine.toml --fact tools=grep --overlay examples/overlay/config-demo",
        "cargo doctrine book --rev HEAD src/doctrine.toml",
        "cargo doctrine book --diff old/doctrine.toml new/doctrine.toml --out review",
    ],
    run,
};

#[derive(Default)]
struct Args {
    out: Option<PathBuf>,
    diff: bool,
    rev: Option<String>,
    choices: bool,
    /// A page per `[models]` rule.
    models: bool,
    named: Named,
    paths: Vec<OsString>,
}

fn parse(parser: &mut lexopt::Parser) -> Result<Args, Stop> {
    let mut args = Args::default();
    while let Some(arg) = parser.next()? {
        match arg {
            Arg::Long("out") => args.out = Some(PathBuf::from(parser.value()?)),
            Arg::Long("diff") => args.diff = true,
            Arg::Long("rev") => args.rev = Some(parser.value()?.string()?),
            Arg::Long("choices") => args.choices = true,
            Arg::Long("models") => args.models = true,
            Arg::Long(name) => {
                let name = name.to_string();
                if !compose::input(&name, parser, &mut args.named)? {
                    return Err(cli::unexpected(&COMMAND, Arg::Long(&name)));
                }
            }
            Arg::Value(path) if args.paths.len() < 2 => args.paths.push(path),
            other => return Err(cli::unexpected(&COMMAND, other)),
        }
    }
    match (args.diff, &args.rev, args.paths.len()) {
        (true, Some(_), _) => Err(Stop::Usage(
            "give --diff OLD NEW or --rev REV, not both".into(),
        )),
        (true, None, 2) | (false, Some(_), 0 | 1) | (false, None, 0 | 1) => Ok(()),
        (true, None, _) => Err(Stop::Usage(
            "--diff takes two manifests, OLD and NEW".into(),
        )),
        (false, _, _) => Err(Stop::Usage(
            "give one manifest (two with --diff OLD NEW)".into(),
        )),
    }?;
    Ok(args)
}

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let mut args = parse(parser)?;
    let given = args.out.is_some();
    let dir = args
        .out
        .take()
        .unwrap_or_else(|| PathBuf::from("doctrine-book"));
    let book = if args.diff || args.rev.is_some() {
        match review(&mut args)? {
            Some(book) => book,
            None => return Ok(Exit::Diagnostics),
        }
    } else {
        let manifest = Manifest::open(args.paths.pop(), COMMAND.name)?;
        let doctrine = match load(&manifest.request()) {
            Ok(d) => d,
            Err(diagnostics) => {
                cli::complain(diagnostics.rendered().trim_end());
                return Ok(Exit::Diagnostics);
            }
        };
        let prompts = book::compose::every(doctrine, &args.named, args.choices, args.models)?;
        book::of(&prompts)
    };
    let html = book.html();
    let path = write(&dir, given, &html)?;
    // The page says its `~tokens` are estimates; a build that cannot count exactly says how to.
    let hint = Counter::book()
        .hint()
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    out.print(&format!(
        "{} ({} bytes{hint})\n",
        path.display(),
        html.len()
    ));
    Ok(Exit::Clean)
}

/// The book of the new side with the review of the change; `None` when a manifest has
/// errors (printed).
fn review(args: &mut Args) -> Result<Option<doctrine_book::Book>, Stop> {
    let sides = Sides::new(args.rev.as_deref(), &args.paths);
    let new = Manifest::open(args.paths.pop(), COMMAND.name)?;
    // Kept until the old prompts are made: dropping it removes the old tree.
    let (_old_tree, old_request) =
        manifest::old_side(args.rev.as_deref(), &new, &mut args.paths, COMMAND.name)?;
    // Both sides composed with the inputs given, as the book of one side is.
    let side = |request: &doctrine_codegen::Request, old: bool| -> Result<Option<Prompts>, Stop> {
        match load(request) {
            Ok(d) => book::compose::every(d, &args.named, args.choices, args.models).map(Some),
            Err(diagnostics) => {
                cli::complain(&sides.heading(old));
                cli::complain(diagnostics.rendered().trim_end());
                Ok(None)
            }
        }
    };
    let Some(old) = side(&old_request, true)? else {
        return Ok(None);
    };
    let Some(new) = side(&new.request(), false)? else {
        return Ok(None);
    };
    let shown = |p: &Prompts| p.doctrine.manifest_display.clone();
    let labels = sides.labels(shown(&old), shown(&new));
    let mut book = book::of(&new);
    book.review(book::review::of(&old, &new, labels, Counter::book()));
    Ok(Some(book))
}

/// The most bytes of a book's page: a 20,000-prompt book of long prompts stays far below.
const MAX_BOOK_BYTES: u64 = 1 << 30;

/// Writes `DIR/index.html`, making `DIR`; `given`: the user named `DIR` (else the default
/// is not followed if it is a link, as no one chose where it leads).
fn write(dir: &Path, given: bool, html: &str) -> Result<PathBuf, Stop> {
    OutDir::make(dir, "--out", given)?.write(
        "index.html",
        html.as_bytes(),
        MAX_BOOK_BYTES,
        "name a role (--role), or drop --choices or --models, for a smaller book",
    )
}
