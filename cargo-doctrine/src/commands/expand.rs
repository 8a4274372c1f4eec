//! `cargo doctrine expand`: the code the `doctrine!` macro generates for a manifest,
//! pretty-printed.

use std::path::{Component, Path};

use doctrine_codegen::generate;
use lexopt::{Arg, ValueExt};

use crate::cli::{self, Command, Exit, Opt, Stop};
use crate::manifest::{self, Manifest};
use crate::out::Out;

pub(crate) const COMMAND: Command = Command {
    name: "expand",
    about: "Print the code the doctrine! macro generates for a manifest, pretty-printed",
    usage: "[--crate PATH] [MANIFEST]",
    arguments: &[manifest::ARGUMENT],
    options: &[Opt {
        name: "--crate",
        value: "PATH",
        help: "The path the code names the runtime by, as `doctrine!(\"…\", crate = \"PATH\")` \
               [default: ::doctrine]",
    }],
    notes: "The macro embeds every file it reads (`include_bytes!`) by its absolute path; here \
those paths are relative to the current directory. A manifest with errors prints its \
diagnostics to standard error, as `check` prints them.",
    examples: &[
        "cargo doctrine expand src/doctrine.toml",
        "cargo doctrine expand --crate ::my_runtime src/doctrine.toml > generated.rs",
    ],
    run,
};

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let mut krate = None;
    let mut manifest = None;
    while let Some(arg) = parser.next()? {
        match arg {
            Arg::Long("crate") => krate = Some(parser.value()?.string()?),
            Arg::Value(path) if manifest.is_none() => manifest = Some(path),
            other => return Err(cli::unexpected(&COMMAND, other)),
        }
    }
    let manifest = Manifest::open(manifest, COMMAND.name)?;
    let mut request = manifest.request();
    if let Some(krate) = krate {
        request.krate = krate;
    }
    let tokens = match generate(&request) {
        Ok(tokens) => tokens,
        Err(diagnostics) => {
            cli::complain(diagnostics.rendered().trim_end());
            return Ok(Exit::Diagnostics);
        }
    };
    // Relative before formatting, as the golden files do: line breaks must not depend on
    // where the checkout is.
    let code = tokens.to_string();
    let code = match here_to(manifest.crate_dir()) {
        Some(prefix) => code.replace(&format!("\"{}/", manifest.crate_dir().display()), &prefix),
        None => code,
    };
    match syn::parse_str::<syn::File>(&code) {
        Ok(file) => {
            out.print(&prettyplease::unparse(&file));
            Ok(Exit::Clean)
        }
        Err(e) => {
            cli::complain(&format!(
                "error: the generated code does not parse (a bug; please report it): {e}"
            ));
            Ok(Exit::Bug)
        }
    }
}

/// `"` and the way from the current directory to `dir` (`"../../`, or `"` when they are
/// one), or `None` when there is no relative way (another drive).
fn here_to(dir: &Path) -> Option<String> {
    let here = std::env::current_dir().ok()?.canonicalize().ok()?;
    let (from, to): (Vec<Component>, Vec<Component>) =
        (here.components().collect(), dir.components().collect());
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut way = String::from("\"");
    for _ in common..from.len() {
        way.push_str("../");
    }
    for part in &to[common..] {
        way.push_str(&part.as_os_str().to_string_lossy());
        way.push('/');
    }
    Some(way)
}
