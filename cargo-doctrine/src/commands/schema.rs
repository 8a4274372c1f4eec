//! `cargo doctrine schema`: the manifest's JSON Schema, for an editor's completion and
//! validation of `doctrine.toml` (taplo, the Even Better TOML extension).

use std::path::PathBuf;

use lexopt::Arg;

use crate::cli::{self, Command, Exit, Opt, Stop};
use crate::out::Out;
use crate::out_files;

pub(crate) const COMMAND: Command = Command {
    name: "schema",
    about: "Print the JSON Schema of a manifest, for an editor's completion and checks",
    usage: "[--output FILE]",
    arguments: &[],
    options: &[Opt {
        name: "--output",
        value: "FILE",
        help: "Write the schema to FILE (as UTF-8, whatever the shell) instead of standard output; FILE must be a regular file or not exist (a symlink, FIFO or device is refused, never followed or written through)",
    }],
    notes: "The schema (JSON Schema draft-07) is built from the declarations the doctrine! \
macro's manifest reader uses, with each key's description from the manifest reference. With \
taplo (the Even Better TOML extension, or the `taplo` command) an editor completes keys and \
words, shows a key's description, and marks an unknown key or a value of the wrong type, once \
the manifest's first line names the schema, by a path relative to the manifest or a URL:\n\n\
#:schema ./doctrine.schema.json\n\n\
The schema knows the shape of a manifest, not its meaning (a file or role that does not \
exist): `cargo doctrine check` reports those. Write it again after upgrading doctrine.",
    examples: &[
        "cargo doctrine schema > src/doctrine.schema.json",
        "cargo doctrine schema --output src/doctrine.schema.json",
    ],
    run,
};

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let mut output: Option<PathBuf> = None;
    while let Some(arg) = parser.next()? {
        match arg {
            Arg::Long("output") => output = Some(parser.value()?.into()),
            other => return Err(cli::unexpected(&COMMAND, other)),
        }
    }
    let schema = doctrine_codegen::manifest_schema();
    match output {
        None => out.print(&schema),
        Some(path) => out_files::write_file(
            &path,
            schema.as_bytes(),
            doctrine_codegen::__internals::MAX_FILE_BYTES,
            "--output",
            "write the schema to standard output without `--output`",
        )?,
    }
    Ok(Exit::Clean)
}
