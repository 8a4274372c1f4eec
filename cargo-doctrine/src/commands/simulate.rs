//! `cargo doctrine simulate`: a crew's requests (roles × sessions × turns) served by a
//! simulated prefix cache, with cache breakpoints where a layout puts them: how much of the
//! input is served from the cache, and what it costs against no caching.

use std::ffi::OsString;

use doctrine_codegen::{load, Doctrine};
use lexopt::{Arg, ValueExt};

use crate::cli::{self, Command, Exit, Opt, Stop};
use crate::compose::{self, CHOICE, FLAG, KNOB};
use crate::manifest::{self, Manifest};
use crate::out::Out;
use crate::simulate;
use crate::simulate::cache::{Config, Prices, Provider, Usage};
use crate::simulate::layout::Layout;
use crate::simulate::workload::{self, Placement, Workload};
use crate::table::{self, number, text};
use crate::tokens::{self, Counter};

const fn opt(name: &'static str, value: &'static str, help: &'static str) -> Opt {
    Opt { name, value, help }
}

pub(crate) const COMMAND: Command = Command {
    name: "simulate",
    about: "Serve a crew's requests from a simulated prefix cache, and report the saving",
    usage: "[--roles all|ROLE,ROLE…] [--sessions N] [--turns N] [--turn-bytes N] \
            [--reply-bytes N] [--no-history] [--session-bytes N] [--volatile-bytes N] [--breakpoints-after LAYER,LAYER…] \
            [--min-cache-tokens N] [--provider anthropic|openai] [--ttl SECONDS] \
            [--turn-seconds N] [--read-price X] [--encoding ENCODING] [--flag NAME]… [--knob NAME=VALUE]… \
            [--choice LAYER=VARIANT]… [MANIFEST]",
    arguments: &[manifest::ARGUMENT],
    options: &[
        opt("--roles", "all|ROLE,…", "The roles that take part [default: all]"),
        opt("--sessions", "N", "Sessions [default: 3]"),
        opt("--turns", "N", "Turns per session; every role sends a request each turn [default: 10]"),
        opt("--turn-bytes", "N", "Bytes of each turn's message, after the prompt [default: 2000]"),
        opt("--reply-bytes", "N", "Bytes of each turn's reply, resent with the history in \
the role's later turns [default: 2000]"),
        opt("--no-history", "", "Send each turn as the prompt and its message alone, without \
the conversation so far"),
        opt("--session-bytes", "N", "Bytes of each stable fact and stable slot, different per \
session (never shorter than its label, `session N NAME`) [default: 64]"),
        opt("--volatile-bytes", "N", "Bytes of each volatile fact and volatile slot, different \
per turn [default: 64]"),
        opt("--breakpoints-after", "LAYER,…", "A cache breakpoint after each of these layers \
(at most 4) [default: the manifest's tiers, as `Prompt::blocks()` marks them; without \
`tiers`, one at the end of the stable prefix]"),
        opt("--min-cache-tokens", "N", "The fewest tokens a provider caches [default: 1024]"),
        opt("--provider", "NAME", "`anthropic`: breakpoints, writes at 1.25×; `openai`: the \
longest prefix in steps of 128 tokens, no breakpoints, no surcharge [default: anthropic]"),
        opt("--ttl", "SECONDS", "An entry unused this long is gone [default: never]"),
        opt("--turn-seconds", "N", "Seconds from one turn to the next [default: 30]"),
        opt("--read-price", "X", "A cached token's price, × a plain input token's (OpenAI's \
depends on the model) [default: 0.1]"),
        tokens::OPTION,
        FLAG,
        KNOB,
        CHOICE,
    ],
    notes: "Requests go session by session, turn by turn, role by role; each is the role's \
prompt (composed as compiled code composes it, with the flags, knobs and choices given, a \
required choice not given at its first variant), the role's conversation so far in the \
session (each earlier message and reply; not with --no-history) and the turn's message, \
with a breakpoint at the end of the message, which the next turn reads back. The table \
sends the prompt as its manifest's messages place it: a message with `after_history = true` \
at the start of the turn's own message, after the history, the rest before it as the \
system text (a manifest without such a message: the prompt whole as the system text); the \
lines after it compare where the prompt's volatile part goes: at the end of the system text \
(before the history, so every turn writes the history behind it anew) or at the start of \
the turn's own message, after the history (which then stays cached). Every free-text fact \
the role takes and every slot is given: a stable one a text that differs per session, a \
volatile one a text that differs per turn; a closed-set fact its first value when required. \
A breakpoint after a layer falls at the end of the last layer up to it that has text. \
Anthropic-style: the longest cached breakpoint prefix is read, each later one written, the \
rest is plain input. Tokens are bytes / 4, rounded up, unless --encoding counts them exactly \
(the minimum and the steps then compare exact counts). The cost is read × the read price + \
written × 1.25 (Anthropic's published multipliers; 1 for openai) + the rest, over the input.",
    examples: &[
        "cargo doctrine simulate examples/crew/doctrine.toml --flag fable",
        "cargo doctrine simulate examples/crew/layouts/shared_first.toml --flag fable --breakpoints-after identity,role,tool_directive",
        "cargo doctrine simulate examples/crew/tiered.toml --flag fable --encoding o200k",
        "cargo doctrine simulate examples/modes/doctrine.toml --provider openai --session-bytes 2000",
    ],
    run,
};

/// The command line, parsed.
struct Args {
    manifest: Option<OsString>,
    roles: Option<String>,
    breakpoints: Option<String>,
    workload: Workload,
    config: Config,
    read_price: f64,
}

fn run(parser: &mut lexopt::Parser, out: &mut Out) -> Result<Exit, Stop> {
    let mut args = parse(parser)?;
    let manifest = Manifest::open(args.manifest.take(), COMMAND.name)?;
    let d = match load(&manifest.request()) {
        Ok(d) => d,
        Err(diagnostics) => {
            cli::complain(diagnostics.rendered().trim_end());
            return Ok(Exit::Diagnostics);
        }
    };
    args.workload.roles = roles(&d, args.roles.as_deref())?;
    check(&args.workload)?;
    let layout = layout(&d, args.breakpoints.as_deref(), args.config.max_breakpoints)?;
    // The table: the requests as the manifest's messages send them; the lines after it:
    // the volatile part at the end of the system text, then in the turn's message.
    let placed = |placement: Placement| {
        let workload = Workload {
            placement,
            ..args.workload.clone()
        };
        simulate::run(&d, &workload, &layout, args.config).map_err(|e| Stop::Fail(e.to_string()))
    };
    let declared = Placement::declared(&d);
    let outcome = placed(declared)?;
    let at_end = match declared {
        Placement::System => outcome.total,
        _ => placed(Placement::System)?.total,
    };
    let moved = placed(Placement::Message)?;
    let prices = Prices {
        read: args.read_price,
        write: match args.config.provider {
            Provider::Anthropic => Prices::ANTHROPIC.write,
            Provider::OpenAi => 1.0,
        },
    };
    out.print(&heading(&d, &args, &layout));
    let rows: Vec<Vec<String>> = outcome
        .per_role
        .iter()
        .map(|(r, u)| {
            row(
                d.roles.get(*r).map_or("(prompt)", String::as_str),
                u,
                prices,
            )
        })
        .chain([row("all", &outcome.total, prices)])
        .collect();
    let columns = [
        text(d.role_word),
        number("requests"),
        number("input"),
        number("read"),
        number("write"),
        number("uncached"),
        number("served"),
        number("cost"),
    ];
    out.print(&table::render(&columns, &rows));
    out.print(&format!(
        "\nserved from cache: {:.1}% of input tokens; cost: {:.3} of no caching \
         (read {}×, write {}×)\n",
        outcome.total.served() * 100.0,
        outcome.total.cost_ratio(prices),
        prices.read,
        prices.write
    ));
    out.print(&placements(&at_end, &moved.total, prices));
    Ok(Exit::Clean)
}

/// Both placements of the volatile part, side by side.
fn placements(system: &Usage, message: &Usage, prices: Prices) -> String {
    let line = |what: &str, u: &Usage| {
        format!(
            "  {what}: served {:.1}%, cost {:.3} of no caching\n",
            u.served() * 100.0,
            u.cost_ratio(prices)
        )
    };
    format!(
        "\nwhere the volatile part goes:\n{}{}",
        line("at the end of the system text     ", system),
        line("in the turn's message, after history", message)
    )
}

fn row(name: &str, u: &Usage, prices: Prices) -> Vec<String> {
    vec![
        name.to_string(),
        u.requests.to_string(),
        u.input.to_string(),
        u.read.to_string(),
        u.write.to_string(),
        u.uncached.to_string(),
        format!("{:.1}%", u.served() * 100.0),
        format!("{:.3}", u.cost_ratio(prices)),
    ]
}

/// The lines before the table: the workload, the layout, where the messages go (for a
/// manifest that declares them), the cache's rules.
fn heading(d: &Doctrine, args: &Args, layout: &Layout) -> String {
    let w = &args.workload;
    let c = &args.config;
    let layout = match layout {
        Layout::TwoTiers => "two tiers (one breakpoint, at the end of the stable prefix)".into(),
        Layout::Tiers => format!(
            "the manifest's tiers, {} (a breakpoint after each but the last, as \
             `Prompt::blocks()` marks them)",
            d.tiers.names.join(" | ")
        ),
        Layout::After(layers) => {
            let names: Vec<&str> = layers.iter().map(|&l| d.layers[l].name.as_str()).collect();
            format!("a breakpoint after {}", names.join(", "))
        }
    };
    let provider = match c.provider {
        Provider::Anthropic => format!(
            "anthropic-style (at most {} breakpoints)",
            c.max_breakpoints
        ),
        Provider::OpenAi => format!("openai-style (steps of {} tokens)", c.step),
    };
    let ttl = c.ttl.map_or("entries never expire".into(), |t| {
        format!(
            "entries expire after {t} s unused, {} s a turn",
            w.turn_seconds
        )
    });
    let messages = match d.has_messages() {
        true => format!("messages: {}\n", sent(d)),
        false => String::new(),
    };
    format!(
        "{}: {} {}s × {} sessions × {} turns = {} requests; a turn's message {} bytes, \
         {}, per-session values {} bytes, per-turn values {} bytes\n\
         layout: {layout}\n{messages}cache: {provider}, at least {} tokens, {ttl}; {}\n\n",
        d.manifest_display,
        w.roles.len(),
        d.role_word,
        w.sessions,
        w.turns,
        w.roles.len() * w.sessions * w.turns,
        w.turn_bytes,
        match w.history {
            true => format!("its reply {} bytes, the history resent", w.reply_bytes),
            false => "no history".into(),
        },
        w.session_bytes,
        w.volatile_bytes,
        c.min_tokens,
        c.counter.describe()
    )
}

/// How many of `d`'s messages go before the history and how many after it, as the table
/// sends them.
fn sent(d: &Doctrine) -> String {
    let mut messages: Vec<&doctrine_core::cache::MessageInfo> =
        d.layers.iter().filter_map(|l| l.info.message).collect();
    messages.dedup_by_key(|m| m.index);
    let after = messages.iter().filter(|m| m.after_history).count();
    format!(
        "{} before the history, {after} after it (`after_history`: at the start of the turn's \
         message), as the table sends them",
        messages.len() - after
    )
}

fn parse(parser: &mut lexopt::Parser) -> Result<Args, Stop> {
    let mut a = Args {
        manifest: None,
        roles: None,
        breakpoints: None,
        workload: Workload::defaults(),
        config: Config::of(Provider::Anthropic),
        read_price: Prices::ANTHROPIC.read,
    };
    let (w, c) = (&mut a.workload, &mut a.config);
    while let Some(arg) = parser.next()? {
        let name = match arg {
            Arg::Long(name) => name.to_string(),
            Arg::Value(path) if a.manifest.is_none() => {
                a.manifest = Some(path);
                continue;
            }
            other => return Err(cli::unexpected(&COMMAND, other)),
        };
        let mut value = || parser.value().map_err(Stop::from);
        match name.as_str() {
            "roles" => a.roles = Some(value()?.string()?),
            "sessions" => w.sessions = value()?.parse()?,
            "turns" => w.turns = value()?.parse()?,
            "turn-bytes" => w.turn_bytes = value()?.parse()?,
            "reply-bytes" => w.reply_bytes = value()?.parse()?,
            "no-history" => w.history = false,
            "session-bytes" => w.session_bytes = value()?.parse()?,
            "volatile-bytes" => w.volatile_bytes = value()?.parse()?,
            "turn-seconds" => w.turn_seconds = value()?.parse()?,
            "breakpoints-after" => a.breakpoints = Some(value()?.string()?),
            "min-cache-tokens" => c.min_tokens = value()?.parse()?,
            "ttl" => c.ttl = Some(value()?.parse()?),
            "read-price" => a.read_price = value()?.parse()?,
            "encoding" => c.counter = Counter::parse(&value()?.string()?)?,
            "provider" => {
                c.provider = match value()?.string()?.as_str() {
                    "anthropic" => Provider::Anthropic,
                    "openai" => Provider::OpenAi,
                    other => {
                        return Err(Stop::Usage(format!(
                            "unknown provider `{other}`; the providers: anthropic, openai"
                        )))
                    }
                }
            }
            "flag" => w.fixed.flags.push(compose::flag(&value()?.string()?)?),
            "knob" => w
                .fixed
                .knobs
                .push(compose::pair("knob", value()?.string()?)?),
            "choice" => w
                .fixed
                .choices
                .push(compose::pair("choice", value()?.string()?)?),
            _ => return Err(cli::unexpected(&COMMAND, Arg::Long(&name))),
        }
    }
    Ok(a)
}

/// The most bytes `--turn-bytes`, `--session-bytes` and `--volatile-bytes` may ask for.
const MAX_TEXT_BYTES: usize = 16 << 20;

/// Refuses a workload the simulator cannot run as asked.
fn check(w: &Workload) -> Result<(), Stop> {
    // With no request there is no input, and no cost to compare with no caching.
    for (option, n) in [("sessions", w.sessions), ("turns", w.turns)] {
        if n == 0 {
            return Err(Stop::Usage(format!(
                "--{option} 0: a workload needs at least one session and one turn"
            )));
        }
    }
    // Each request holds its texts whole: a bound far above any context window (a million
    // tokens is about 4 MB) keeps a mistyped size from exhausting memory.
    let sizes = [
        ("turn-bytes", w.turn_bytes),
        ("reply-bytes", w.reply_bytes),
        ("session-bytes", w.session_bytes),
        ("volatile-bytes", w.volatile_bytes),
    ];
    for (option, n) in sizes {
        if n > MAX_TEXT_BYTES {
            return Err(Stop::Usage(format!(
                "--{option} {n}: more than the {MAX_TEXT_BYTES} bytes (16 MiB) this command \
                 gives a text"
            )));
        }
    }
    // A session's last request resends every earlier message and reply of it.
    let history = w.turns as u128 * (w.turn_bytes + w.reply_bytes + w.volatile_bytes) as u128;
    if w.history && history > (4 * MAX_TEXT_BYTES) as u128 {
        return Err(Stop::Usage(format!(
            "--turns {} with {} + {} bytes a turn: a history of {history} bytes, more than \
             the {} bytes (64 MiB) this command resends; fewer turns, or --no-history",
            w.turns,
            w.turn_bytes,
            w.reply_bytes,
            4 * MAX_TEXT_BYTES
        )));
    }
    let requests = w.roles.len() as u128 * w.sessions as u128 * w.turns as u128;
    if requests > usize::MAX as u128 {
        return Err(Stop::Usage(format!(
            "{} roles × {} sessions × {} turns: more requests than this machine counts",
            w.roles.len(),
            w.sessions,
            w.turns
        )));
    }
    // Each turn is sent `--turn-seconds` after the one before, on a clock of u64 seconds.
    let turns = w.sessions as u128 * w.turns as u128;
    if (turns - 1) * u128::from(w.turn_seconds) > u128::from(u64::MAX) {
        return Err(Stop::Usage(format!(
            "--turn-seconds {}: the last of {turns} turns would be sent after the simulated \
             clock's end (2^64 - 1 s)",
            w.turn_seconds
        )));
    }
    Ok(())
}

/// `--roles`: `all` (or not given) is every role; a name the manifest lacks is refused.
fn roles(d: &Doctrine, given: Option<&str>) -> Result<Vec<usize>, Stop> {
    let Some(given) = given.filter(|g| *g != "all") else {
        return Ok(workload::every_role(d));
    };
    let names = d.roles.iter().map(String::as_str);
    given
        .split(',')
        .map(|name| {
            d.roles.iter().position(|r| r == name).ok_or_else(|| {
                let valid: Vec<&str> = names.clone().collect();
                Stop::Usage(format!(
                    "unknown {} `{name}`; the {}s: {}",
                    d.role_word,
                    d.role_word,
                    valid.join(", ")
                ))
            })
        })
        .collect()
}

/// `--breakpoints-after`: when not given, the manifest's tiers if it declares them, else two
/// tiers; else each layer named, at most `max`.
fn layout(d: &Doctrine, given: Option<&str>, max: usize) -> Result<Layout, Stop> {
    let Some(given) = given else {
        return Ok(Layout::default_for(d));
    };
    let layers: Vec<usize> = given
        .split(',')
        .map(|name| {
            d.layers.iter().position(|l| l.name == name).ok_or_else(|| {
                let valid: Vec<&str> = d.layers.iter().map(|l| l.name.as_str()).collect();
                Stop::Usage(format!(
                    "unknown layer `{name}`; the layers: {}",
                    valid.join(", ")
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    if layers.len() > max {
        return Err(Stop::Usage(format!(
            "{} breakpoints given, more than the {max} a request may mark",
            layers.len()
        )));
    }
    Ok(Layout::After(layers))
}
