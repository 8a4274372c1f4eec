//! What `render` and `explain` share: the options naming a composition's inputs (parsed
//! into `doctrine_codegen::named::Named`), and composing the prompt they name with
//! the manifest's run-time plan, as compiled code's `finish()` composes it.

use std::ffi::OsString;
use std::path::PathBuf;

use doctrine_codegen::named::{self, Named, NamedInstruction, SlotText};
use doctrine_codegen::{load, plan};
use doctrine_core::introspect::Section;
use doctrine_core::Prompt;
use lexopt::{Arg, ValueExt};

use crate::cli::{self, Command, Opt, Stop};
use crate::manifest::Manifest;

/// The options that name a composition's inputs, as both commands' help lists them.
pub(crate) const ROLE: Opt = Opt {
    name: "--role",
    value: "ROLE",
    help: "The role (or mode); required when the manifest declares roles",
};
pub(crate) const FLAG: Opt = Opt {
    name: "--flag",
    value: "NAME[=on|off]",
    help: "Sets a flag on (or off); flags not named keep their default",
};
pub(crate) const KNOB: Opt = Opt {
    name: "--knob",
    value: "NAME=VALUE",
    help: "Sets a knob; knobs not named keep their default",
};
pub(crate) const CHOICE: Opt = Opt {
    name: "--choice",
    value: "LAYER=VARIANT",
    help: "Picks a choice layer's variant (a `dir` layer's: a file's stem); required for a \
           choice that is not optional",
};
pub(crate) const FACT: Opt = Opt {
    name: "--fact",
    value: "NAME=VALUE",
    help: "Gives a fact. A list fact takes one --fact per item, in order; an item with named \
           fields is `NAME=field=value;field=value`",
};
pub(crate) const SLOT: Opt = Opt {
    name: "--slot",
    value: "NAME=TEXT",
    help: "Fills a slot; `NAME=@FILE` reads the text from a file (`@@` for a text that \
           starts with `@`)",
};
pub(crate) const INSTRUCTION: Opt = Opt {
    name: "--instruction",
    value: "LAYER=SOURCE[@SCOPE]:TEXT",
    help: "Gives an instructions layer an instruction, in order; SOURCE is learned, user, \
           project, directory or locked (an administrator's, the top rank), SCOPE what it \
           applies to (up to the first `:`), TEXT as for --slot (`@FILE`), e.g. \
           `rules=project@AGENTS.md:Run the tests.`",
};
pub(crate) const SELECT: Opt = Opt {
    name: "--select",
    value: "NAME=VALUE",
    help: "Sets a selector: `on` (the user's copy in the --overlay DIR if usable, else the \
           shipped text), `off`, or a path to read the layer from (its notices go to \
           standard error), e.g. `spine=on`; selectors not named are unset",
};
pub(crate) const OVERLAY: Opt = Opt {
    name: "--overlay",
    value: "DIR",
    help: "Applies a user's overlay directory, read as the generated `Overlay::load` reads it \
           (its notices go to standard error)",
};
pub(crate) const SKILLS: Opt = Opt {
    name: "--skills",
    value: "DIR",
    help: "A user skill directory for the skill index, loaded over the shipped skills as \
           `Skills::load_user` loads it (repeatable, in order; its notices go to standard \
           error); without it the index lists the shipped skills",
};
pub(crate) const FAMILY: Opt = Opt {
    name: "--family",
    value: "NAME",
    help: "The model family, looked up in the manifest's `[formulation] families` (a family \
           the table does not match is refused) [default: the manifest's default formulation]",
};
pub(crate) const MODEL: Opt = Opt {
    name: "--model",
    value: "NAME",
    help: "A model name, matched against the manifest's `[models]` rules (else its `default`) as \
           generated `.model()` matches it: the rule's variants replace `--choice`s, and \
           `--flag` and `--family` win over its own",
};

pub(crate) const MAX_BYTES: Opt = Opt {
    name: "--max-bytes",
    value: "FACT=N",
    help: "Lowers a list fact's byte budget (its `max_bytes`) to N bytes, as the builder's \
           `.max_bytes_<fact>(n)` does: a budget above the manifest's leaves it",
};

/// A command line naming a composition.
pub(crate) struct Given {
    pub(crate) manifest: Option<OsString>,
    pub(crate) named: Named,
    /// `--part`, where the command takes it.
    pub(crate) part: Option<String>,
    /// `--encoding`, where the command takes it.
    pub(crate) encoding: Option<crate::tokens::Encoding>,
    /// `--messages`, where the command takes `--part`.
    pub(crate) messages: bool,
}

/// The rest of the command line of `command`, which takes `--part` when `part`.
pub(crate) fn parse(
    parser: &mut lexopt::Parser,
    command: &Command,
    part: bool,
) -> Result<Given, Stop> {
    let mut given = Given {
        manifest: None,
        named: Named::default(),
        part: None,
        encoding: None,
        messages: false,
    };
    while let Some(arg) = parser.next()? {
        let name = match arg {
            Arg::Long(name) => name.to_string(),
            Arg::Value(path) if given.manifest.is_none() => {
                given.manifest = Some(path);
                continue;
            }
            other => return Err(cli::unexpected(command, other)),
        };
        if !input(&name, parser, &mut given.named)? {
            given_option(&name, parser, command, part, &mut given)?;
        }
    }
    Ok(given)
}

/// Takes `--NAME VALUE` into `n` when it names an input (role, flag, knob, choice, fact,
/// slot, instruction, selector, overlay, skills, family, model, a list's byte budget);
/// `false` for any other option.
pub(crate) fn input(name: &str, parser: &mut lexopt::Parser, n: &mut Named) -> Result<bool, Stop> {
    let once = |slot: &Option<String>| match slot {
        Some(_) => Err(Stop::Usage(format!("`--{name}` is given twice"))),
        None => Ok(()),
    };
    match name {
        "role" => {
            once(&n.role)?;
            n.role = Some(parser.value()?.string()?);
        }
        "flag" => n.flags.push(flag(&parser.value()?.string()?)?),
        "knob" => n.knobs.push(pair("knob", parser.value()?.string()?)?),
        "choice" => n.choices.push(pair("choice", parser.value()?.string()?)?),
        "fact" => n.facts.push(pair("fact", parser.value()?.string()?)?),
        "slot" => n.slots.push(slot(parser.value()?.string()?)?),
        "instruction" => n.instructions.push(instruction(parser.value()?.string()?)?),
        "select" => n.selectors.push(pair("select", parser.value()?.string()?)?),
        "overlay" => {
            if n.overlay.is_some() {
                return Err(Stop::Usage("`--overlay` is given twice".into()));
            }
            n.overlay = Some(PathBuf::from(parser.value()?));
        }
        "skills" => n.skills.push(PathBuf::from(parser.value()?)),
        "max-bytes" => n.max_bytes.push(budget(parser.value()?.string()?)?),
        "family" => {
            once(&n.family)?;
            n.family = Some(parser.value()?.string()?);
        }
        "model" => {
            once(&n.model)?;
            n.model = Some(parser.value()?.string()?);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `--encoding`, `--part` and `--messages`, where `command` takes them.
fn given_option(
    name: &str,
    parser: &mut lexopt::Parser,
    command: &Command,
    part: bool,
    given: &mut Given,
) -> Result<(), Stop> {
    match name {
        "encoding" if command.options.iter().any(|o| o.name == "--encoding") => {
            let value = parser.value()?.string()?;
            given.encoding = Some(crate::tokens::encoding(&value)?);
        }
        "part" if part => {
            if given.part.is_some() {
                return Err(Stop::Usage("`--part` is given twice".into()));
            }
            given.part = Some(parser.value()?.string()?);
        }
        "messages" if part => given.messages = true,
        _ => return Err(cli::unexpected(command, Arg::Long(name))),
    }
    Ok(())
}

/// `NAME=VALUE`, split at the first `=`.
pub(crate) fn pair(option: &str, text: String) -> Result<(String, String), Stop> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(Stop::Usage(format!(
            "`--{option} {text}`: write `--{option} NAME=VALUE`"
        ))),
    }
}

/// `FACT=N`: a list fact's byte budget.
fn budget(text: String) -> Result<(String, usize), Stop> {
    let (fact, bytes) = pair("max-bytes", text)?;
    match bytes.parse() {
        Ok(n) => Ok((fact, n)),
        Err(_) => Err(Stop::Usage(format!(
            "`--max-bytes {fact}={bytes}`: N is a number of bytes, e.g. `--max-bytes {fact}=4096`"
        ))),
    }
}

/// `NAME`, `NAME=on` or `NAME=off` (also `true` / `false`).
pub(crate) fn flag(text: &str) -> Result<(String, bool), Stop> {
    let Some((name, value)) = text.split_once('=') else {
        return Ok((text.to_string(), true));
    };
    match value {
        "on" | "true" => Ok((name.to_string(), true)),
        "off" | "false" => Ok((name.to_string(), false)),
        _ => Err(Stop::Usage(format!(
            "`--flag {text}`: a flag is `on` or `off`, e.g. `--flag {name}=off`"
        ))),
    }
}

/// `NAME=TEXT`, `NAME=@FILE` or `NAME=@@TEXT`.
fn slot(text: String) -> Result<(String, SlotText), Stop> {
    let (name, value) = pair("slot", text)?;
    Ok((name, text_or_file(value)))
}

/// `TEXT`, `@FILE` or `@@TEXT` (a text that starts with `@`).
fn text_or_file(value: String) -> SlotText {
    match value.strip_prefix('@') {
        Some(rest) if rest.starts_with('@') => SlotText::Text(rest.to_string()),
        Some(file) => SlotText::File(PathBuf::from(file)),
        None => SlotText::Text(value),
    }
}

/// `LAYER=SOURCE:TEXT` or `LAYER=SOURCE@SCOPE:TEXT`, TEXT as a slot's; the source word is
/// checked against the manifest's runtime with the layer.
fn instruction(text: String) -> Result<(String, NamedInstruction), Stop> {
    let (layer, rest) = pair("instruction", text)?;
    let Some((head, body)) = rest.split_once(':') else {
        return Err(Stop::Usage(format!(
            "`--instruction {layer}={rest}`: write `--instruction LAYER=SOURCE[@SCOPE]:TEXT`, \
             e.g. `--instruction {layer}=project@AGENTS.md:Run the tests.`"
        )));
    };
    let (source, scope) = head.split_once('@').unwrap_or((head, ""));
    let instruction = NamedInstruction {
        source: source.to_string(),
        scope: scope.to_string(),
        text: text_or_file(body.to_string()),
    };
    Ok((layer, instruction))
}

/// The prompt `given` names, composed as compiled code composes it; `None` when the
/// manifest has errors (printed, as `check` prints them). Overlay notices go to standard
/// error, and so do the prompt's own (a section boundary escaped in run-time text).
pub(crate) fn prompt(given: Given, command: &str) -> Result<Option<Prompt<Box<[Section]>>>, Stop> {
    let manifest = Manifest::open(given.manifest, command)?;
    let d = match load(&manifest.request()) {
        Ok(d) => d,
        Err(diagnostics) => {
            cli::complain(diagnostics.rendered().trim_end());
            return Ok(None);
        }
    };
    let plan = plan::build(&d);
    let resolved =
        named::resolve(&d, &plan, &given.named).map_err(|e| Stop::Fail(e.to_string()))?;
    for notice in resolved.notices() {
        cli::complain(&format!("notice: {notice}"));
    }
    let prompt = resolved.compose(&d, &plan);
    for notice in prompt.notices() {
        cli::complain(&format!("notice: {notice}"));
    }
    Ok(Some(prompt))
}
