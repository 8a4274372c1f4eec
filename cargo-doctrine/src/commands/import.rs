//! `cargo doctrine import jinja TEMPLATE… --out DIR`: Jinja templates turned into a
//! manifest and markdown (`doctrine_codegen::import`), what is outside the subset reported
//! at its `line:col`; `import handlebars`: `.hbs` templates kept as written beside a
//! manifest that reads them with `placeholders = "handlebars"`.

use std::path::PathBuf;

use lexopt::{Arg, ValueExt};

use doctrine_codegen::__internals::MAX_FILE_BYTES;
use doctrine_codegen::import::{self, Template, MAX_TEMPLATE_BYTES};
use doctrine_codegen::Request;
use doctrine_load::__internals::safe_open::{self, Refused};

use crate::cli::{self, Command, Exit, Opt, Stop};
use crate::out::Out;
use crate::out_files::OutDir;

pub(crate) const COMMAND: Command = Command {
    name: "import",
    about: "Turn Jinja or handlebars templates into a manifest",
    usage: "jinja|handlebars TEMPLATE... --out DIR",
    arguments: &[
        ("jinja|handlebars", "The templates' language"),
        ("TEMPLATE...", "Template files; each becomes a layer named by its file's stem"),
    ],
    options: &[Opt {
        name: "--out",
        value: "DIR",
        help: "Write DIR/doctrine.toml and one DIR/STEM.md (Jinja) or DIR/STEM.hbs (handlebars) per template (DIR is made if missing; regular files there are replaced, a symlink or FIFO in their place is refused, never followed)",
    }],
    notes: "Imports `{{ x }}`, `{{ item.field }}`, `if`/`elif`/`else` on a value, `not` one or \
`is defined`, `for item in list` (with `else`), `| trim`, `| tojson` (the fact's `escape = \"json\"`) and comments; each layer keeps its \
template's layout with `whitespace = \"jinja\"` (Jinja's `trim_blocks` + `lstrip_blocks`). \
Facts and list fields are guessed from their use (a field tested and never printed is a \
`bool`, printed and tested `text?`), each guess a comment in the manifest. Anything else is \
printed as `TEMPLATE:LINE:COL: what` on standard error and kept in the markdown as written, \
for you to translate; the import still writes what it can and exits 1. A name the generated \
Rust cannot take (`{{ fn }}`, `{{ ALL }}`) is such a thing too. Each layer is named by its \
file's stem in snake case: a Rust keyword gets `_layer` after it and a name an earlier \
template took `_2`, `_3`… (each said in a `note:`), and a file whose stem has no letter or \
digit is not imported. What was written is then read as `cargo doctrine check` reads it, \
and its errors, if any, are printed too (exit 1). Compare with `cargo doctrine render`. \
Handlebars templates are kept as written (`placeholders = \"handlebars\"` reads them), their \
facts guessed the same way; a template the handlebars reader refuses is reported where it \
refuses it and left out.",
    examples: &[
        "cargo doctrine import jinja prompts/system.jinja --out src/prompt",
        "cargo doctrine import handlebars prompts/system.hbs --out src/prompt",
        "cargo doctrine render src/prompt/doctrine.toml --fact 'extensions=name=web;has_resources=true'",
    ],
    run,
};

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let mut language = None;
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut dir: Option<PathBuf> = None;
    while let Some(arg) = parser.next()? {
        match arg {
            Arg::Long("out") => dir = Some(parser.value()?.into()),
            Arg::Value(v) if language.is_none() => language = Some(v.string()?),
            Arg::Value(v) => paths.push(v.into()),
            other => return Err(cli::unexpected(&COMMAND, other)),
        }
    }
    let import: fn(&[Template]) -> import::Imported = match language.as_deref() {
        Some("jinja") => import::jinja,
        Some("handlebars") => import::handlebars,
        Some(other) => {
            return Err(Stop::Usage(format!(
                "cannot import `{other}`: the language is `jinja` or `handlebars`"
            )))
        }
        None => {
            return Err(Stop::Usage(
                "name the language (`jinja` or `handlebars`) and the templates".into(),
            ))
        }
    };
    let Some(dir) = dir else {
        return Err(Stop::Usage(
            "give `--out DIR`, where the manifest and markdown go".into(),
        ));
    };
    if paths.is_empty() {
        return Err(Stop::Usage("name at least one template file".into()));
    }
    let mut templates = Vec::new();
    for path in &paths {
        let bytes = read(path)?;
        // Past the limit the import reports the size; the cut may split a character.
        let source = match bytes.len() > MAX_TEMPLATE_BYTES {
            true => String::from_utf8_lossy(&bytes).into_owned(),
            false => String::from_utf8(bytes)
                .map_err(|_| Stop::Fail(format!("{}: not UTF-8 text", path.display())))?,
        };
        templates.push(Template {
            name: path.display().to_string(),
            source,
        });
    }
    let imported = import(&templates);
    let out_dir = OutDir::make(&dir, "--out", true)?;
    // Larger than the manifest reader reads, a file could not be checked.
    let write = |name: &str, text: &str| {
        out_dir.write(
            name,
            text.as_bytes(),
            MAX_FILE_BYTES,
            "split the template into smaller ones",
        )
    };
    write("doctrine.toml", &imported.manifest)?;
    for (name, text) in &imported.files {
        write(name, text)?;
    }
    for problem in &imported.problems {
        cli::complain(&problem.to_string());
    }
    for note in &imported.notes {
        cli::complain(&format!("note: {note}"));
    }
    let refused = check_written(&dir, imported.problems.is_empty());
    out.print(&format!(
        "wrote {} and {} template file(s); {} thing(s) left for you\n",
        dir.join("doctrine.toml").display(),
        imported.files.len(),
        imported.problems.len() + refused
    ));
    Ok(match imported.problems.is_empty() && refused == 0 {
        true => Exit::Clean,
        false => Exit::Diagnostics,
    })
}

/// What was written, read by the generator's own loader and validator as `cargo doctrine
/// check` reads it, so that an import never ends well with a manifest `check` refuses:
/// each error printed at its file in `dir`, and how many there were. `whole`: the import
/// reported nothing, so a refusal is the importer's fault.
fn check_written(dir: &std::path::Path, whole: bool) -> usize {
    let Err(refused) = doctrine_codegen::load(&Request::new("doctrine.toml", dir, dir)) else {
        return 0;
    };
    let cause = match whole {
        true => " (the import reported nothing, so this is a bug in it: please report it with the templates)",
        false => " (see what the import reported above)",
    };
    cli::complain(&format!(
        "error: {} does not pass `cargo doctrine check`{cause}:",
        dir.join("doctrine.toml").display()
    ));
    for error in refused.located() {
        let at = error
            .position
            .map(|p| format!(":{}:{}", p.line, p.column))
            .unwrap_or_default();
        cli::complain(&format!(
            "{}{at}: {}",
            dir.join(error.file).display(),
            error.diagnostic.message
        ));
        if let Some(help) = &error.diagnostic.help {
            cli::complain(&format!("  help: {help}"));
        }
    }
    refused.list.len().max(1)
}

/// A template's bytes, at most a little over the import's limit (which then reports it):
/// opened without blocking and judged from the descriptor, so a FIFO or a device is
/// refused instead of stalling or flooding the import.
fn read(path: &std::path::Path) -> Result<Vec<u8>, Stop> {
    let cannot = |why: String| Stop::Fail(format!("cannot read {}: {why}", path.display()));
    let opened = safe_open::open_regular(path).map_err(|e| match e {
        Refused::NotRegular(kind) => cannot(format!(
            "it is {}, not a regular file; give the template as a regular file",
            kind.describe()
        )),
        Refused::Missing(e) | Refused::Io(e) => cannot(e.to_string()),
        other => cannot(format!("it could not be opened ({other:?})")),
    })?;
    let limit = (MAX_TEMPLATE_BYTES + 1) as u64;
    opened
        .read_at_most(limit)
        .map_err(|e| cannot(e.to_string()))
}
