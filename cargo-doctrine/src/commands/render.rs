//! `cargo doctrine render`: the prompt a manifest composes for the inputs named on the
//! command line, byte for byte what compiled code's `finish()` gives.

use std::io::IsTerminal;

use crate::cli::{Command, Exit, Opt, Stop};
use crate::compose::{
    self, CHOICE, FACT, FAMILY, FLAG, INSTRUCTION, KNOB, MAX_BYTES, MODEL, OVERLAY, ROLE, SELECT,
    SKILLS, SLOT,
};
use doctrine_core::cache::Message;

use crate::manifest;
use crate::out::Out;

const PART: Opt = Opt {
    name: "--part",
    value: "PART",
    help: "`stable` (the stable prefix only), `volatile` (the rest) or `all` [default: all]",
};

const MESSAGES: Opt = Opt {
    name: "--messages",
    value: "",
    help: "Prints the prompt's messages (`Prompt::messages()`) as a JSON array, in order: \
           each `{ \"role\", \"content\", \"place\", \"tier\", \"breakpoint\", \"parts\" }`, \
           `place` `before_history` or `after_history`, `breakpoint` whether a cache \
           breakpoint follows it, `parts` its content parts (`{ \"layer\", \"content\", \
           \"tier\", \"breakpoint\" }`; `[]` for a message sent as one text); a manifest \
           without `[[message]]` gives one `system` message",
};

pub(crate) const COMMAND: Command = Command {
    name: "render",
    about: "Print the prompt a manifest composes for the inputs named",
    usage: "[--role ROLE] [--flag NAME]… [--knob NAME=VALUE]… [--choice LAYER=VARIANT]… \
            [--fact NAME=VALUE]… [--max-bytes FACT=N]… [--slot NAME=TEXT|@FILE]… \
            [--instruction LAYER=SOURCE[@SCOPE]:TEXT]… [--select NAME=VALUE]… [--overlay DIR] [--skills DIR]… [--family NAME] \
            [--part stable|volatile|all | --messages] [MANIFEST]",
    arguments: &[manifest::ARGUMENT],
    options: &[
        ROLE, FLAG, KNOB, CHOICE, FACT, MAX_BYTES, SLOT, INSTRUCTION, SELECT, OVERLAY, SKILLS, FAMILY, MODEL, PART, MESSAGES],
    notes: "Prints exactly the prompt's bytes (into a pipe or a file no newline is added; on \
a terminal, one ends a prompt that has none), composed with the \
doctrine! macro's own loader and the runtime's one composition routine, as the compiled \
`finish()` composes it (`--part stable` as `finish().stable()`). What is not named is as \
compiled code leaves it: flags and knobs at their defaults, optional facts, choices and slots \
not given, no instructions, no selection (every selector layer left out), no overlay. The \
skill index lists the shipped skills, then the user's from each --skills DIR, as a program \
gives `shipped_skills()` after `load_user(dirs)`. \
Instructions are rendered by the runtime in their layer's provenance style and rank; \
a list fact's or an instructions layer's byte budget (`max_bytes`) is the manifest's \
(nothing here lowers it), and what it cuts is a notice on standard error; \
selectors are resolved by the runtime's selector loader, as `Selectors::resolve` with the \
--overlay DIR (if any) as the user's directory, and its notices go to standard error, as does \
a notice for each layer whose run-time text held a section boundary, escaped as compiled \
code escapes it. A name the manifest does not have is an error listing the valid ones; \
so is what compiled code refuses: a fact the role does not take, a required fact, choice or \
slot not given, a value outside a closed set.",
    examples: &[
        "cargo doctrine render examples/crew/doctrine.toml --role developer --choice team=backend --choice identity=be-dev-1",
        "cargo doctrine render doctrine/docs/examples/desk/doctrine.toml --role engineer --fact product=Ledger --slot ticket=#4113 --instruction 'rules=locked@admin:Escalate legal threats at once.' --instruction rules=project@desk/AGENTS.md:@AGENTS.md",
        "cargo doctrine render doctrine/docs/examples/relay/doctrine.toml --role worker --select spine=on --select spine_legs=/tmp/legs.md --overlay ~/.config/relay",
        "cargo doctrine render tests/fixtures/messages/messages.toml --fact sandbox=read-only --fact cwd=/repo --messages",
        "cargo doctrine render src/doctrine.toml --role coder --flag fable --knob intensity=ultra --fact root=/repo --slot ambient=@notes.md --overlay ~/.config/agent --family claude --part stable",
    ],
    run,
};

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let given = compose::parse(parser, &COMMAND, true)?;
    let messages = given.messages;
    if messages && given.part.is_some() {
        return Err(Stop::Usage(
            "`--messages` prints every message: give it or `--part`, not both".into(),
        ));
    }
    let part = match given.part.as_deref() {
        None | Some("all") => Part::All,
        Some("stable") => Part::Stable,
        Some("volatile") => Part::Volatile,
        Some(other) => {
            return Err(Stop::Usage(format!(
                "unknown part `{other}`; the parts: stable, volatile, all"
            )))
        }
    };
    let Some(prompt) = compose::prompt(given, COMMAND.name)? else {
        return Ok(Exit::Diagnostics);
    };
    if messages {
        out.print(&messages_json(&prompt.messages()));
        return Ok(Exit::Clean);
    }
    let text = match part {
        Part::All => prompt.as_str(),
        Part::Stable => prompt.stable(),
        Part::Volatile => prompt.volatile(),
    };
    out.print(text);
    out.print(ending(text, std::io::stdout().is_terminal()));
    Ok(Exit::Clean)
}

/// What follows the prompt: on a terminal, a line break if it has none, so the shell's
/// prompt starts on a line of its own (a reader cannot see whether the text ended in one);
/// into a pipe or a file, nothing: the bytes are the prompt's, to compare or send.
fn ending(text: &str, terminal: bool) -> &'static str {
    match terminal && !text.is_empty() && !text.ends_with('\n') {
        true => "\n",
        false => "",
    }
}

#[derive(Clone, Copy)]
enum Part {
    All,
    Stable,
    Volatile,
}

/// The messages as a JSON array, one line, then a line break: each message's role,
/// content, place (`before_history` or `after_history`), tier, whether a cache breakpoint
/// follows it, and its parts (`[]` for a message sent as one text), each with its layer,
/// content, tier and breakpoint.
fn messages_json(messages: &[Message<'_>]) -> String {
    let array: Vec<serde_json::Value> = messages.iter().map(message_json).collect();
    let mut text = serde_json::Value::Array(array).to_string();
    text.push('\n');
    text
}

fn message_json(m: &Message<'_>) -> serde_json::Value {
    let parts: Vec<serde_json::Value> = m
        .parts
        .iter()
        .map(|p| {
            serde_json::json!({
                "layer": p.layer,
                "content": p.text,
                "tier": p.tier,
                "breakpoint": p.breakpoint,
            })
        })
        .collect();
    let place = match m.after_history {
        true => "after_history",
        false => "before_history",
    };
    serde_json::json!({
        "role": m.role,
        "content": m.text,
        "place": place,
        "tier": m.tier,
        "breakpoint": m.breakpoint,
        "parts": parts,
    })
}

#[cfg(test)]
mod tests {
    use super::ending;

    #[test]
    fn a_line_break_ends_the_prompt_on_a_terminal_only() {
        assert_eq!(ending("Be brief.", true), "\n");
        assert_eq!(ending("Be brief.\n", true), "");
        assert_eq!(ending("", true), "");
        assert_eq!(ending("Be brief.", false), "");
    }
}
