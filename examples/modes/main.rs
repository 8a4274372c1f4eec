//! A coding-agent CLI composer: the prompt depends on a mode and typed facts, and comes
//! out in two parts, a stable prefix the provider caches and a per-turn volatile suffix.
//!
//! cargo run -p doctrine-examples --example modes -- exec --root /repo --platform linux --shell bash \
//!     --pack '{"files": ["src/lib.rs"]}' --today 2026-01-01
//! cargo run -p doctrine-examples --example modes -- plan --root /repo --platform linux --nudge wrapup --explain

use std::process::ExitCode;

mod modes {
    doctrine::doctrine!("doctrine.toml");
}

use modes::{Facts, Mode};

const USAGE: &str = "usage: modes MODE [--FACT VALUE ...] [--extra TEXT] [--explain]";

struct Args {
    mode: Mode,
    facts: Vec<(String, String)>,
    extra: Option<String>,
    explain: bool,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mode = args.next().ok_or(format!(
        "a mode is required; valid modes: {}",
        Mode::NAMES.join(", ")
    ))?;
    let mode: Mode = mode
        .parse()
        .map_err(|e: doctrine::input::ParseChoiceError| e.to_string())?;
    let (mut facts, mut extra, mut explain) = (Vec::new(), None, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--explain" => explain = true,
            "--extra" => extra = Some(args.next().ok_or("--extra needs a value")?),
            flag => {
                let Some(name) = flag.strip_prefix("--") else {
                    return Err(format!("unexpected argument `{flag}`"));
                };
                let value = args.next().ok_or(format!("--{name} needs a value"))?;
                facts.push((name.to_string(), value));
            }
        }
    }
    Ok(Args {
        mode,
        facts,
        extra,
        explain,
    })
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("modes: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let pairs = args.facts.iter().map(|(k, v)| (k.as_str(), v.as_str()));
    let facts = match Facts::from_pairs(args.mode, pairs) {
        Ok(facts) => facts,
        Err(e) => {
            eprintln!("modes: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let prompt = modes::compose(facts).extra(args.extra.as_deref()).finish();
    if args.explain {
        print!("{}", prompt.explain());
        return ExitCode::SUCCESS;
    }
    println!(
        "=== STABLE: cached prefix, {} bytes, fingerprint {:016x} ===\n{}\n",
        prompt.stable().len(),
        prompt.stable_fingerprint(),
        prompt.stable()
    );
    println!(
        "=== VOLATILE: per turn, {} bytes ===\n{}",
        prompt.volatile().len(),
        prompt.volatile()
    );
    ExitCode::SUCCESS
}
