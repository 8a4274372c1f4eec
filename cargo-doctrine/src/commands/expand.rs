//! `cargo doctrine expand`: the code the `doctrine!` macro generates for a manifest,
//! pretty-printed.

use std::path::{Component, Path};

use doctrine_codegen::{generate, generate_ahead};
use doctrine_load::__internals::safe_open;
use lexopt::{Arg, ValueExt};

use crate::cli::{self, Command, Exit, Opt, Stop};
use crate::manifest::{self, Manifest};
use crate::out::Out;
use crate::out_files;

pub(crate) const COMMAND: Command = Command {
    name: "expand",
    about: "Print the code the doctrine! macro generates for a manifest, pretty-printed",
    usage: "[--crate PATH] [--out FILE [--check]] [MANIFEST]",
    arguments: &[manifest::ARGUMENT],
    options: &[
        Opt {
            name: "--crate",
            value: "PATH",
            help:
                "The path the code names the runtime by, as `doctrine!(\"…\", crate = \"PATH\")` \
                   [default: ::doctrine]",
        },
        Opt {
            name: "--out",
            value: "FILE",
            help:
                "Write the module ahead of time, to commit and `include!` in a crate built without \
                   the macro (`doctrine-prompt` with `default-features = false`): each file it was \
                   generated from is included by its path in the crate and checked by hash when \
                   the crate compiles. FILE must be a regular file or not exist",
        },
        Opt {
            name: "--check",
            value: "",
            help: "With `--out`: write nothing; exit 1 when FILE is not what `--out` would write",
        },
    ],
    notes: "The macro embeds every file it reads (`include_bytes!`) by its absolute path; here \
those paths are relative to the current directory. With `--out` they are relative to the \
crate directory (`CARGO_MANIFEST_DIR`), so the module builds in any checkout, and an edit to \
one of them since is a compile error that names it. A manifest with errors prints its \
diagnostics to standard error, as `check` prints them.",
    examples: &[
        "cargo doctrine expand src/doctrine.toml",
        "cargo doctrine expand --crate ::my_runtime src/doctrine.toml > generated.rs",
        "cargo doctrine expand --out src/prompt.rs src/doctrine.toml",
        "cargo doctrine expand --check --out src/prompt.rs src/doctrine.toml",
    ],
    run,
};

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let mut krate = None;
    let mut manifest = None;
    let (mut file, mut check) = (None::<std::path::PathBuf>, false);
    while let Some(arg) = parser.next()? {
        match arg {
            Arg::Long("crate") => krate = Some(parser.value()?.string()?),
            Arg::Long("out") => file = Some(parser.value()?.into()),
            Arg::Long("check") => check = true,
            Arg::Value(path) if manifest.is_none() => manifest = Some(path),
            other => return Err(cli::unexpected(&COMMAND, other)),
        }
    }
    if check && file.is_none() {
        return Err(Stop::Usage(
            "`--check` compares with the file `--out` names; give `--out FILE`".into(),
        ));
    }
    let manifest = Manifest::open(manifest, COMMAND.name)?;
    let mut request = manifest.request();
    if let Some(krate) = krate {
        request.krate = krate;
    }
    if let Some(file) = file {
        return ahead(&request, &manifest, &file, check, out);
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

/// `--out FILE`: the module written ahead of time, or with `check` compared with FILE.
fn ahead(
    request: &doctrine_codegen::Request,
    manifest: &Manifest,
    file: &Path,
    check: bool,
    out: &mut Out,
) -> Result<Exit, Stop> {
    let tokens = match generate_ahead(request) {
        Ok(tokens) => tokens,
        Err(diagnostics) => {
            cli::complain(diagnostics.rendered().trim_end());
            return Ok(Exit::Diagnostics);
        }
    };
    let Ok(mut parsed) = syn::parse2::<syn::File>(tokens) else {
        cli::complain("error: the generated code does not parse (a bug; please report it)");
        return Ok(Exit::Bug);
    };
    allow_unused(&mut parsed.items);
    // Escaped (`\n` as two characters): a line break in the manifest's name must not end
    // the header comment and put the rest of the name in the module as code.
    let shown: String = manifest
        .path()
        .strip_prefix(manifest.crate_dir())
        .unwrap_or(manifest.path())
        .display()
        .to_string()
        .escape_debug()
        .collect();
    let text = format!(
        "// @generated by `cargo doctrine expand --out` from {shown}: do not edit. The crate \
         includes it\n// with `include!`; after a change to the manifest or its files, run \
         that command again.\n\n{}",
        prettyplease::unparse(&parsed)
    );
    let cap = doctrine_codegen::__internals::MAX_FILE_BYTES;
    if !check {
        out_files::write_file(file, text.as_bytes(), cap, "--out", "split the manifest")?;
        return Ok(Exit::Clean);
    }
    let current = safe_open::open_regular(file)
        .ok()
        .and_then(|f| f.read_at_most(cap).ok());
    if current.as_deref() == Some(text.as_bytes()) {
        return Ok(Exit::Clean);
    }
    out.print(&crate::terminal::shown(&format!(
        "{} is not what `cargo doctrine expand --out` writes for {shown} now; run it without \
         `--check`\n",
        file.display()
    )));
    Ok(Exit::Diagnostics)
}

/// `#[allow(dead_code)]` on each item: the macro's expansion is exempt from the lint (its
/// spans are the macro's), text a crate `include!`s is not, and a crate uses a few of the
/// items it is given.
fn allow_unused(items: &mut [syn::Item]) {
    for item in items {
        let attrs = match item {
            syn::Item::Const(i) => &mut i.attrs,
            syn::Item::Enum(i) => &mut i.attrs,
            syn::Item::Fn(i) => &mut i.attrs,
            syn::Item::Impl(i) => &mut i.attrs,
            syn::Item::Mod(i) => &mut i.attrs,
            syn::Item::Static(i) => &mut i.attrs,
            syn::Item::Struct(i) => &mut i.attrs,
            syn::Item::Trait(i) => &mut i.attrs,
            syn::Item::Type(i) => &mut i.attrs,
            syn::Item::Union(i) => &mut i.attrs,
            _ => continue,
        };
        attrs.insert(0, syn::parse_quote!(#[allow(dead_code)]));
    }
}
