//! `cargo doctrine matrix`: every prompt a manifest makes (each role × flag × knob, and
//! each choice with `--choices`), one line each, with its size, its stable prefix, and the
//! earlier prompt it is byte-identical to; then each distinct stable prefix with the
//! prompts that share it, which is what a provider's prefix cache can share.

use std::collections::HashMap;

use lexopt::{Arg, ValueExt};

use crate::cli::{self, Command, Exit, Opt, Stop};
use crate::manifest::{self, Manifest};
use crate::out::Out;
use crate::prompts::{self, Prompts, TierPrefix};
use crate::table::{self, number, text};
use crate::tokens::{self, Counter};

pub(crate) const COMMAND: Command = Command {
    name: "matrix",
    about: "List every prompt a manifest makes, with its size and its stable prefix",
    usage: "[--choices] [--encoding ENCODING] [MANIFEST]",
    arguments: &[manifest::ARGUMENT],
    options: &[
        Opt {
            name: "--choices",
            value: "",
            help: "Also combine every variant of each choice layer (else its first, or none \
when it is optional)",
        },
        tokens::OPTION,
    ],
    notes: "One line per role × flag × knob setting (named as the generated Combination \
names it: `developer+fable+intensity=ultra`), in the order Combination::all() yields them: \
its bytes and tokens, its stable prefix's, the prefix's label (P1, P2, … in order of first \
use), and `= NAME` when the whole prompt is byte-identical to an earlier one. Then one line \
per distinct stable prefix: its fingerprint (the FNV-1a of Prompt::stable_fingerprint), size \
and the prompts that share it. For a manifest that declares `tiers`, then one line per \
cached tier and distinct prefix up to the end of that tier's block (what its breakpoint \
caches): the block's size, the prefix's tokens, and the prompts that share it. Facts are not given (an optional one takes its default), \
slots are empty, and there is no overlay.",
    examples: &[
        "cargo doctrine matrix",
        "cargo doctrine matrix --choices examples/crew/doctrine.toml",
    ],
    run,
};

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let (mut choices, mut manifest, mut counter) = (false, None, Counter::Estimate);
    while let Some(arg) = parser.next()? {
        match arg {
            Arg::Long("choices") => choices = true,
            Arg::Long("encoding") => counter = Counter::parse(&parser.value()?.string()?)?,
            Arg::Value(path) if manifest.is_none() => manifest = Some(path),
            other => return Err(cli::unexpected(&COMMAND, other)),
        }
    }
    let manifest = Manifest::open(manifest, COMMAND.name)?;
    match prompts::all(&manifest.request(), choices) {
        Ok(prompts) => {
            out.print(&matrix(&prompts, counter));
            Ok(Exit::Clean)
        }
        Err(failed) => failed.exit(),
    }
}

/// Each distinct stable prefix, in order of first use, with the prompts (indices) that
/// have it.
pub(crate) struct Prefixes<'p> {
    pub(crate) texts: Vec<&'p str>,
    pub(crate) members: Vec<Vec<usize>>,
    /// Per prompt, the index of its prefix.
    pub(crate) of: Vec<usize>,
}

impl<'p> Prefixes<'p> {
    pub(crate) fn of(prompts: &'p Prompts) -> Self {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let mut p = Prefixes {
            texts: Vec::new(),
            members: Vec::new(),
            of: Vec::new(),
        };
        for (i, c) in prompts.all.iter().enumerate() {
            let stable = c.prompt.stable();
            let at = *seen.entry(stable).or_insert_with(|| {
                p.texts.push(stable);
                p.members.push(Vec::new());
                p.texts.len() - 1
            });
            p.members[at].push(i);
            p.of.push(at);
        }
        p
    }
}

/// The matrix as the command prints it.
pub(crate) fn matrix(prompts: &Prompts, counter: Counter) -> String {
    let prefixes = Prefixes::of(prompts);
    let mut first: HashMap<&str, &str> = HashMap::new();
    let mut rows = Vec::new();
    for (c, &prefix) in prompts.all.iter().zip(&prefixes.of) {
        let (whole, stable) = (c.prompt.as_str(), c.prompt.stable());
        let same = first.entry(whole).or_insert(&c.name);
        let same = if *same == c.name {
            String::new()
        } else {
            format!("= {same}")
        };
        rows.push(vec![
            c.name.clone(),
            whole.len().to_string(),
            counter.count(whole).to_string(),
            stable.len().to_string(),
            counter.count(stable).to_string(),
            format!("P{}", prefix + 1),
            same,
        ]);
    }
    let tokens = counter.heading();
    let columns = [
        text("prompt"),
        number("bytes"),
        number(tokens),
        number("stable"),
        number(tokens),
        text("prefix"),
        text("same as"),
    ];
    let mut out = format!(
        "{}: {} prompts, {} distinct, {} stable prefixes; {}\n\n",
        prompts.doctrine.manifest_display,
        prompts.all.len(),
        first.len(),
        prefixes.texts.len(),
        counter.describe()
    );
    out.push_str(&table::render(&columns, &rows));
    out.push('\n');
    out.push_str(&prefix_table(prompts, &prefixes, counter));
    if prompts.doctrine.tiers.declared {
        out.push('\n');
        out.push_str(&tier_table(prompts, counter));
    }
    out
}

/// For a manifest that declares tiers: per cached tier, each distinct prefix up to the end
/// of that tier's block (what a breakpoint caches), its block's size and the whole prefix's
/// tokens, and the prompts that share it.
fn tier_table(prompts: &Prompts, counter: Counter) -> String {
    let all = prompts.all.len();
    let rows: Vec<Vec<String>> = prompts::tier_prefixes(prompts)
        .iter()
        .map(
            |&TierPrefix {
                 tier,
                 prefix,
                 block,
                 ref names,
             }| {
                let shared = match names.len() {
                    n if n == all => format!("every prompt ({n})"),
                    n => format!("{n}: {}", names.join(", ")),
                };
                vec![
                    prompts.doctrine.tiers.names[tier].clone(),
                    format!(
                        "{:016x}",
                        doctrine_core::cache::fingerprint(prefix.as_bytes())
                    ),
                    block.len().to_string(),
                    counter.count(block).to_string(),
                    counter.count(prefix).to_string(),
                    shared,
                ]
            },
        )
        .collect();
    let t = counter.heading();
    let columns = [
        text("tier"),
        text("prefix fingerprint"),
        number("block bytes"),
        number(t),
        number("prefix"),
        text("prompts sharing the prefix"),
    ];
    table::render(&columns, &rows)
}

/// One line per distinct stable prefix: its label, fingerprint, size, and who shares it.
fn prefix_table(prompts: &Prompts, prefixes: &Prefixes<'_>, counter: Counter) -> String {
    let rows: Vec<Vec<String>> = prefixes
        .texts
        .iter()
        .zip(&prefixes.members)
        .enumerate()
        .map(|(i, (text, members))| {
            let names: Vec<&str> = members
                .iter()
                .map(|&m| prompts.all[m].name.as_str())
                .collect();
            vec![
                format!("P{}", i + 1),
                format!(
                    "{:016x}",
                    doctrine_core::cache::fingerprint(text.as_bytes())
                ),
                text.len().to_string(),
                counter.count(text).to_string(),
                format!("{}: {}", members.len(), names.join(", ")),
            ]
        })
        .collect();
    let columns = [
        text("prefix"),
        text("fingerprint"),
        number("bytes"),
        number(counter.heading()),
        text("prompts"),
    ];
    table::render(&columns, &rows)
}
