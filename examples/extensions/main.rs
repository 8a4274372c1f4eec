//! An agent whose system prompt lists the extensions the user switched on: a loop over
//! structured items (a name, whether it has resources, optional instructions) with
//! sections nested in it, wording by how many there are, the host's suggestion printed as
//! a JSON string, and the user's own words cleaned of invisible characters on the way in.
//!
//! cargo run -p doctrine-examples --example extensions
//! cargo run -p doctrine-examples --example extensions -- --ext web --resources --instructions $'Fetch pages.\nCite them.' --ext notes --suggest 'open "todo.md"'
//! cargo run -p doctrine-examples --example extensions -- --none --user Ada --extras 'Answer in French.' --explain
//! cargo run -p doctrine-examples --example extensions -- --user Ada --extras 'Be brief.' --config examples/extensions/config

mod extensions {
    doctrine::doctrine!("doctrine.toml");
}

use std::process::ExitCode;

use extensions::{ExtensionsItem, Facts};

const USAGE: &str = "usage: extensions [--ext NAME [--resources] [--instructions TEXT]]... [--none] [--suggest TEXT] [--user NAME] [--extras TEXT] [--config DIR] [--explain]";

/// One extension as the command line gave it.
#[derive(Default)]
struct Ext {
    name: String,
    has_resources: bool,
    instructions: Option<String>,
}

#[derive(Default)]
struct Args {
    exts: Vec<Ext>,
    none: bool,
    suggestion: Option<String>,
    user_name: Option<String>,
    extras: Option<String>,
    config: Option<String>,
    explain: bool,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut out = Args::default();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--ext" => out.exts.push(Ext {
                name: value()?,
                ..Ext::default()
            }),
            "--resources" => last(&mut out.exts, &arg)?.has_resources = true,
            "--instructions" => {
                let text = value()?;
                last(&mut out.exts, &arg)?.instructions = Some(text);
            }
            "--none" => out.none = true,
            "--suggest" => out.suggestion = Some(value()?),
            "--user" => out.user_name = Some(value()?),
            "--extras" => out.extras = Some(value()?),
            "--config" => out.config = Some(value()?),
            "--explain" => out.explain = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(out)
}

/// The extension an option after `--ext NAME` describes.
fn last<'a>(exts: &'a mut [Ext], option: &str) -> Result<&'a mut Ext, String> {
    exts.last_mut().ok_or(format!(
        "{option} describes an extension: give `--ext NAME` first"
    ))
}

/// What the example shows when the command line names no extension.
fn sample() -> Vec<Ext> {
    vec![
        Ext {
            name: "web".into(),
            has_resources: true,
            instructions: Some("Fetch a page before quoting it.\nGive its address.".into()),
        },
        Ext {
            name: "calendar".into(),
            has_resources: true,
            instructions: None,
        },
        Ext {
            name: "notes".into(),
            has_resources: false,
            instructions: Some("Write to the inbox note only.".into()),
        },
    ]
}

fn main() -> ExitCode {
    let mut args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("extensions: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if args.exts.is_empty() && !args.none {
        args.exts = sample();
    }
    let items: Vec<ExtensionsItem<'_>> = args
        .exts
        .iter()
        .map(|e| ExtensionsItem {
            name: &e.name,
            has_resources: e.has_resources,
            instructions: e.instructions.as_deref(),
        })
        .collect();
    // The user's own template for the `settings` layer, from their configuration
    // directory: checked as it is read, each file it refuses a notice.
    let (overlay, notices) = match &args.config {
        Some(dir) => extensions::Overlay::load(dir),
        None => Default::default(),
    };
    for notice in &notices {
        eprintln!("notice: {notice}");
    }
    let prompt = extensions::compose(Facts {
        extensions: &items,
        suggestion: args.suggestion.as_deref(),
        user_name: args.user_name.as_deref(),
        extras: args.extras.as_deref(),
    })
    .overlay(&overlay)
    .finish();
    for notice in prompt.notices() {
        eprintln!("notice: {notice}");
    }
    if args.explain {
        println!("{}", prompt.explain());
    } else {
        println!("{}", prompt.as_str());
    }
    ExitCode::SUCCESS
}
