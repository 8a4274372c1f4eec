//! `cargo doctrine`: checks a doctrine manifest and prints what the `doctrine!` macro
//! generates for it, with the macro's own loader (`doctrine_codegen`), so the tool and
//! the compiler never disagree. Each command is a file in `commands/`.
//!
//! A library only so that the package's tests can turn on its `tokens` feature (a
//! dev-dependency on itself; a binary has no such route): not API, `main.rs` calls [`main`].

mod book;
mod cache_lint;
mod cli;
mod commands;
mod compare;
mod compose;
mod dispatch;
mod git_tree;
mod guard_lint;
mod json;
mod manifest;
mod out;
mod out_files;
mod prompts;
mod report;
mod sarif;
mod sides;
mod simulate;
mod table;
mod terminal;
mod textdiff;
mod tokens;
mod tree_copy;

use std::process::ExitCode;

/// What the fuzz targets drive (`fuzz/fuzz_targets/tree_copy.rs`): `--rev`'s writer of a
/// revision's tree. Not API.
#[doc(hidden)]
pub mod __fuzz {
    pub use crate::tree_copy::{write_tree, LeftOut, TreeFile};
}

/// The tool: runs the command its arguments name and returns its exit status.
pub fn main() -> ExitCode {
    let mut out = out::Out::stdout();
    let exit = dispatch::run(std::env::args_os().skip(1).collect(), &mut out);
    let exit = match out.finish() {
        Ok(()) => exit,
        Err(e) => {
            cli::complain(&format!("error: cannot write the output: {e}"));
            cli::Exit::Failed
        }
    };
    ExitCode::from(exit as u8)
}
