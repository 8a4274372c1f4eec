//! `cargo doctrine diff`: what a change to a manifest or its files does to every prompt it
//! makes. Each changed layer text is shown once, with the prompts it reaches; each prompt
//! gets one line with its byte and token deltas; and each stable prefix is reported kept or
//! invalidated, with how far into it, in tokens, the first changed byte falls.

use std::ffi::OsString;

use lexopt::{Arg, ValueExt};

use doctrine_codegen::named::Named;

use crate::cli::{self, Command, Exit, Opt, Stop};
use crate::compose;
use crate::manifest::{self, Manifest};
use crate::out::Out;
use crate::prompts::{self, Prompts};
use crate::report;
use crate::sides::Sides;
use crate::textdiff::Paint;
use crate::tokens::{self, Counter};

pub(crate) const COMMAND: Command = Command {
    name: "diff",
    about: "Show what a change does to every prompt, and to their cached prefixes",
    usage: "[--choices] [--color WHEN] [--encoding ENCODING] [--flag NAME]… [--knob NAME=VALUE]… \
            [--choice LAYER=VARIANT]… (OLD NEW | --rev REV [MANIFEST])",
    arguments: &[
        ("OLD NEW", "Two manifests: the prompts of OLD against those of NEW"),
        (
            "MANIFEST",
            "With --rev: the manifest in the working tree [default: src/doctrine.toml, else doctrine.toml]",
        ),
    ],
    options: &[
        Opt {
            name: "--rev",
            value: "REV",
            help: "Compare the manifest's crate directory as git has it at REV (a commit, \
branch or tag) with the working tree",
        },
        Opt {
            name: "--choices",
            value: "",
            help: "Also combine every variant of each choice layer",
        },
        Opt {
            name: "--color",
            value: "WHEN",
            help: "`auto` (the default: on a terminal, unless NO_COLOR is set), `always` or `never`",
        },
        tokens::OPTION,
        Opt {
            name: "--flag",
            value: "NAME",
            help: "A flag on in the simulated line's workload (repeatable; `NAME=off` too)",
        },
        Opt {
            name: "--knob",
            value: "NAME=VALUE",
            help: "A knob's value in the simulated line's workload (repeatable)",
        },
        Opt {
            name: "--choice",
            value: "LAYER=VARIANT",
            help: "A choice's variant in the simulated line's workload (repeatable)",
        },
    ],
    notes: "Prompts are matched by name (as `matrix` names them). First each distinct change \
of a layer's text, once, as a line diff with 3 lines of context, followed by the prompts it \
reaches; then a line per changed, added or removed prompt with its bytes and tokens before and \
after; then each stable prefix the old prompts had: kept (its cache stays valid), or \
invalidated, with the byte and the token at which it first differs (a provider caching the \
longest matching prefix still serves what comes before). Facts are not given, slots are \
empty, and there is no overlay, as in `matrix`. Last, `simulate`'s default workload and \
layout on each side, 3 sessions × 4 turns (every role, no flag): the fraction of input \
tokens served from the cache and the cost against no caching, before → after.",
    examples: &[
        "cargo doctrine diff --rev HEAD",
        "cargo doctrine diff --rev main src/doctrine.toml",
        "cargo doctrine diff old/doctrine.toml new/doctrine.toml",
    ],
    run,
};

/// What the command line asked for.
#[derive(Default)]
struct Args {
    rev: Option<String>,
    choices: bool,
    paint: Option<Paint>,
    counter: Option<Counter>,
    /// `--flag`, `--knob`, `--choice`: the simulated line's workload.
    fixed: Named,
    paths: Vec<OsString>,
}

fn parse(parser: &mut lexopt::Parser) -> Result<Args, Stop> {
    let mut args = Args::default();
    while let Some(arg) = parser.next()? {
        match arg {
            Arg::Long("rev") => args.rev = Some(parser.value()?.string()?),
            Arg::Long("choices") => args.choices = true,
            Arg::Long("flag") => args
                .fixed
                .flags
                .push(compose::flag(&parser.value()?.string()?)?),
            Arg::Long("knob") => {
                let value = parser.value()?.string()?;
                args.fixed.knobs.push(compose::pair("knob", value)?);
            }
            Arg::Long("choice") => {
                let value = parser.value()?.string()?;
                args.fixed.choices.push(compose::pair("choice", value)?);
            }
            Arg::Long("encoding") => {
                args.counter = Some(Counter::parse(&parser.value()?.string()?)?);
            }
            Arg::Long("color") => {
                let value = parser.value()?.string()?;
                args.paint = Some(Paint::parse(&value).map_err(Stop::Usage)?);
            }
            Arg::Value(path) if args.paths.len() < 2 => args.paths.push(path),
            other => return Err(cli::unexpected(&COMMAND, other)),
        }
    }
    match (&args.rev, args.paths.len()) {
        (None, 2) | (Some(_), 0 | 1) => Ok(args),
        (None, _) => Err(Stop::Usage(
            "give two manifests, OLD and NEW, or --rev REV".into(),
        )),
        (Some(_), _) => Err(Stop::Usage("with --rev, give one manifest at most".into())),
    }
}

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let mut args = parse(parser)?;
    let paint = args.paint.unwrap_or_else(Paint::auto);
    let sides = Sides::new(args.rev.as_deref(), &args.paths);
    let new = Manifest::open(args.paths.pop(), COMMAND.name)?;
    // Kept until the old prompts are made: dropping it removes the old tree.
    let (_old_tree, old_request) =
        manifest::old_side(args.rev.as_deref(), &new, &mut args.paths, COMMAND.name)?;
    let (old_side, new_side) = (sides.heading(true), sides.heading(false));
    let both = prompts::side(&old_request, args.choices, Some(&old_side)).and_then(|old| {
        let new = prompts::side(&new.request(), args.choices, Some(&new_side))?;
        Ok((old, new))
    });
    let (old, new): (Prompts, Prompts) = match both {
        Ok(both) => both,
        Err(failed) => return failed.exit(),
    };
    drop(_old_tree);
    let shown = |p: &Prompts| p.doctrine.manifest_display.clone();
    let labels = sides.labels(shown(&old), shown(&new));
    let labels = [labels[0].as_str(), labels[1].as_str()];
    out.print(&report::diff(
        (&old, &new),
        labels,
        (args.counter.unwrap_or(Counter::Estimate), &args.fixed),
        paint,
    ));
    Ok(Exit::Clean)
}
