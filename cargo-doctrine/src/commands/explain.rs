//! `cargo doctrine explain`: the runtime's `explain()` table for the prompt `render` would
//! print: one row per layer, included or why it was skipped, with its bytes.

use crate::cli::{Command, Exit, Stop};
use crate::compose::{
    self, CHOICE, FACT, FAMILY, FLAG, INSTRUCTION, KNOB, MAX_BYTES, MODEL, OVERLAY, ROLE, SELECT,
    SKILLS, SLOT,
};
use crate::manifest;
use crate::out::Out;
use crate::terminal;
use crate::tokens::{self, Counter};

pub(crate) const COMMAND: Command = Command {
    name: "explain",
    about: "Print the layer table (`explain()`) of the prompt `render` prints",
    usage: "[--role ROLE] [--flag NAME]… [--knob NAME=VALUE]… [--choice LAYER=VARIANT]… \
            [--fact NAME=VALUE]… [--max-bytes FACT=N]… [--slot NAME=TEXT|@FILE]… \
            [--instruction LAYER=SOURCE[@SCOPE]:TEXT]… [--select NAME=VALUE]… [--overlay DIR] [--skills DIR]… [--family NAME] \
            [--encoding ENCODING] [MANIFEST]",
    arguments: &[manifest::ARGUMENT],
    options: &[
        ROLE, FLAG, KNOB, CHOICE, FACT, MAX_BYTES, SLOT, INSTRUCTION, SELECT, OVERLAY, SKILLS, FAMILY, MODEL, tokens::OPTION],
    notes: "Takes the options `render` takes (but `--part` and `--messages`) and prints what the composed \
prompt's `explain()` prints in a program: the same table, from the same composition; with \
`--encoding`, what `explain().tokens(encoding)` prints, with exact token counts.",
    examples: &[
        "cargo doctrine explain examples/crew/doctrine.toml --role developer --choice team=backend --choice identity=be-dev-1",
        "cargo doctrine explain src/doctrine.toml --role coder --overlay ~/.config/agent",
        "cargo doctrine explain doctrine/docs/examples/relay/doctrine.toml --role lead --select spine=on",
    ],
    run,
};

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let mut given = compose::parse(parser, &COMMAND, false)?;
    let encoding = given.encoding.take();
    let Some(prompt) = compose::prompt(given, COMMAND.name)? else {
        return Ok(Exit::Diagnostics);
    };
    // The table as the runtime writes it, exact token counts included.
    let table = match encoding {
        #[cfg(feature = "tokens")]
        Some(encoding) => prompt.explain().tokens(encoding).to_string(),
        #[cfg(not(feature = "tokens"))]
        Some(encoding) => match encoding {},
        None => prompt.explain().to_string(),
    };
    // A manifest's `[models]` key, a source's name: their control characters are shown
    // escaped, never sent to the terminal.
    out.print(&terminal::shown(&table));
    // The table says its `~tokens` are estimates; a build that cannot count exactly says
    // how to.
    if let Some(hint) = encoding.map_or(Counter::Estimate, Counter::Exact).hint() {
        out.print(&format!("({hint})\n"));
    }
    Ok(Exit::Clean)
}
