//! Every prompt of a manifest with the inputs a user gives (facts, list budgets, slots,
//! instructions, selectors, an overlay directory, skill directories, a model family), as
//! `render` takes them: each
//! combination of roles × flags × knobs (× choices) composed with them through the macro's
//! own loader. Naming a role, flag, knob or choice narrows the book to that one prompt.

use std::collections::BTreeSet;

use doctrine_codegen::named::{self, Named};
use doctrine_codegen::{inputs, naming, plan, Doctrine};

use crate::cli::{self, Stop};
use crate::prompts::{Composed, Prompts, MAX_PROMPTS};

/// The prompts of `doctrine` with the inputs in `given`; with `models`, each of them once
/// per `[models]` rule and once for a name no rule matches (a page per rule).
pub(crate) fn every(
    doctrine: Doctrine,
    given: &Named,
    choices: bool,
    models: bool,
) -> Result<Prompts, Stop> {
    // The book draws the caller's values where they land.
    let plan = plan::build(&doctrine).recording();
    let one = given.role.is_some()
        || !given.flags.is_empty()
        || !given.knobs.is_empty()
        || !given.choices.is_empty();
    let rules = model_pages(&doctrine, given, models)?;
    let mut notices = BTreeSet::new();
    let mut all = Vec::new();
    if one {
        for (label, model) in &rules {
            let named = Named {
                model: model.clone(),
                ..given.clone()
            };
            let name = format!("{}{label}", one_name(given));
            all.push(composed(&doctrine, &plan, &named, name, &mut notices)?);
        }
    } else {
        let count = inputs::count(&doctrine, choices).and_then(|n| n.checked_mul(rules.len()));
        if count.is_none_or(|n| n > MAX_PROMPTS) {
            let n = count.map_or("more than 2^64".to_string(), |n| n.to_string());
            return Err(Stop::Fail(format!(
                "the manifest makes {n} prompts, more than the {MAX_PROMPTS} a book holds; \
                 name a role (--role) or drop --choices"
            )));
        }
        for c in inputs::combinations(&doctrine, choices) {
            for (label, model) in &rules {
                let name = format!("{}{label}", naming::name(&doctrine, &c, choices));
                let mut named = Named::of(&doctrine, &c);
                shared(&mut named, given);
                named.model = model.clone();
                all.push(composed(&doctrine, &plan, &named, name, &mut notices)?);
            }
        }
    }
    for notice in notices {
        cli::complain(&format!("notice: {notice}"));
    }
    Ok(Prompts { doctrine, all })
}

fn composed(
    d: &Doctrine,
    plan: &plan::Plan,
    named: &Named,
    name: String,
    notices: &mut BTreeSet<String>,
) -> Result<Composed, Stop> {
    let resolved =
        named::resolve(d, plan, named).map_err(|e| Stop::Fail(format!("prompt `{name}`: {e}")))?;
    notices.extend(resolved.notices().iter().map(ToString::to_string));
    let prompt = resolved.compose(d, plan);
    notices.extend(prompt.notices().iter().map(ToString::to_string));
    Ok(Composed {
        name,
        rest: String::new(),
        prompt,
    })
}

/// The inputs every prompt of the book gets: all but the combination's own settings.
/// Named field by field, so an input added to `Named` cannot be dropped here unseen (the
/// book once ignored `--skills` and `--max-bytes` so).
fn shared(named: &mut Named, given: &Named) {
    let Named {
        role: _,
        flags: _,
        knobs: _,
        choices: _,
        facts,
        slots,
        instructions,
        selectors,
        overlay,
        family,
        model,
        skills,
        max_bytes,
    } = given;
    named.facts = facts.clone();
    named.slots = slots.clone();
    named.instructions = instructions.clone();
    named.selectors = selectors.clone();
    named.overlay = overlay.clone();
    named.family = family.clone();
    named.model = model.clone();
    named.skills = skills.clone();
    named.max_bytes = max_bytes.clone();
}

/// The model names each page is composed with, and what its name gains: the one given
/// (`--model`, or none) without `models`; with it, each rule's key (`+model=KEY`) and a name
/// no rule matches (`+model=default`: empty, which no key is a prefix of).
fn model_pages(
    d: &Doctrine,
    given: &Named,
    models: bool,
) -> Result<Vec<(String, Option<String>)>, Stop> {
    if !models {
        return Ok(vec![(String::new(), given.model.clone())]);
    }
    if given.model.is_some() {
        return Err(Stop::Usage(
            "give --models or --model NAME, not both".into(),
        ));
    }
    let Some(m) = &d.models else {
        return Err(Stop::Usage(
            "--models: the manifest has no `[models]` table".into(),
        ));
    };
    let page = |key: &str, name: &str| (format!("+model={key}"), Some(name.to_string()));
    let mut pages: Vec<_> = m.rules.iter().map(|r| page(&r.key, &r.key)).collect();
    pages.push(page("default", ""));
    Ok(pages)
}

/// The one prompt's name, as `matrix` would spell the settings given.
fn one_name(given: &Named) -> String {
    let mut parts: Vec<String> = given.role.iter().cloned().collect();
    parts.extend(
        given
            .flags
            .iter()
            .filter(|(_, on)| *on)
            .map(|(f, _)| f.clone()),
    );
    parts.extend(
        given
            .knobs
            .iter()
            .chain(&given.choices)
            .map(|(k, v)| format!("{k}={v}")),
    );
    match parts.is_empty() {
        true => "prompt".to_string(),
        false => parts.join("+"),
    }
}
