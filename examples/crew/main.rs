//! A multi-role crew whose system prompts are compiled from `doctrine.toml`.
//!
//! cargo run -p doctrine-examples --example crew -- --role developer --team backend --identity be-dev-1 --fable --intensity ultra
//! cargo run -p doctrine-examples --example crew -- --role qa --team platform --identity qa-1 --explain

use std::process::ExitCode;
use std::str::FromStr;

mod crew {
    doctrine::doctrine!("doctrine.toml");
}

use crew::{Identity, Intensity, Role, Team};

const USAGE: &str = "usage: crew --role ROLE --team TEAM --identity IDENTITY [--fable] [--intensity LEVEL] [--ambient TEXT] [--explain]";

struct Args {
    role: Role,
    team: Team,
    identity: Identity,
    fable: bool,
    intensity: Intensity,
    ambient: Option<String>,
    explain: bool,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut role, mut team, mut identity) = (None, None, None);
    let mut out_fable = false;
    let mut intensity = Intensity::default();
    let mut ambient = None;
    let mut explain = false;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--role" => role = Some(parse::<Role>(&value("--role")?)?),
            "--team" => team = Some(parse::<Team>(&value("--team")?)?),
            "--identity" => identity = Some(parse::<Identity>(&value("--identity")?)?),
            "--intensity" => intensity = parse::<Intensity>(&value("--intensity")?)?,
            "--ambient" => ambient = Some(value("--ambient")?),
            "--fable" => out_fable = true,
            "--explain" => explain = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let missing = |what: &str, names: &[&str]| {
        format!("--{what} is required; valid values: {}", names.join(", "))
    };
    Ok(Args {
        role: role.ok_or_else(|| missing("role", Role::NAMES))?,
        team: team.ok_or_else(|| missing("team", Team::NAMES))?,
        identity: identity.ok_or_else(|| missing("identity", Identity::NAMES))?,
        fable: out_fable,
        intensity,
        ambient,
        explain,
    })
}

/// The tools the harness loads for a role; an agent would list what actually loaded.
fn loaded_tools(role: Role) -> &'static [&'static str] {
    match role {
        Role::Developer => &["the repository", "the test runner", "the task board"],
        Role::Architect => &["the repository (read-only)", "the design-notes board"],
        Role::Pm => &["the task board", "the roadmap"],
        _ => &["the repository (read-only)", "the task board"],
    }
}

fn parse<T: FromStr<Err = doctrine::input::ParseChoiceError>>(s: &str) -> Result<T, String> {
    T::from_str(s).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("crew: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let facts = crew::Facts::from(args.role).with_tools(loaded_tools(args.role));
    let prompt = crew::compose(facts, args.team, args.identity)
        .flag(crew::Flag::Fable, args.fable)
        .knobs(crew::Knobs {
            intensity: args.intensity,
        })
        .ambient(args.ambient.as_deref())
        .finish();
    if args.explain {
        print!("{}", prompt.explain());
    } else {
        println!("{prompt}");
    }
    ExitCode::SUCCESS
}
