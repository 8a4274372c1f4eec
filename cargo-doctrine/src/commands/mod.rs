//! The commands, one file each. A new command is a file holding its [`Command`] (name,
//! help, and the function that parses its arguments and runs it) and a line in [`ALL`].

use crate::cli::Command;

mod book;
mod check;
mod diff;
mod expand;
mod explain;
mod import;
mod matrix;
mod render;
mod schema;
mod simulate;

/// Every command, in the order `cargo doctrine --help` lists them.
pub(crate) const ALL: &[&Command] = &[
    &check::COMMAND,
    &expand::COMMAND,
    &render::COMMAND,
    &explain::COMMAND,
    &matrix::COMMAND,
    &diff::COMMAND,
    &book::COMMAND,
    &simulate::COMMAND,
    &schema::COMMAND,
    &import::COMMAND,
];
