//! Every prompt of a manifest with the inputs a user gives (facts, slots, instructions,
//! selectors, an overlay directory, a model family), as `render` takes them: each
//! combination of roles × flags × knobs (× choices) composed with them through the macro's
//! own loader. Naming a role, flag, knob or choice narrows the book to that one prompt.

use std::collections::BTreeSet;

use doctrine_codegen::named::{self, Named};
use doctrine_codegen::{inputs, naming, plan, Doctrine};

use crate::cli::{self, Stop};
use crate::prompts::{Composed, Prompts, MAX_PROMPTS};

/// The prompts of `doctrine` with the inputs in `given`.
pub(crate) fn every(doctrine: Doctrine, given: &Named, choices: bool) -> Result<Prompts, Stop> {
    // The book draws the caller's values where they land.
    let plan = plan::build(&doctrine).recording();
    let one = given.role.is_some()
        || !given.flags.is_empty()
        || !given.knobs.is_empty()
        || !given.choices.is_empty();
    let mut notices = BTreeSet::new();
    let mut all = Vec::new();
    if one {
        let name = one_name(given);
        all.push(composed(&doctrine, &plan, given, name, &mut notices)?);
    } else {
        let count = inputs::count(&doctrine, choices);
        if count.is_none_or(|n| n > MAX_PROMPTS) {
            let n = count.map_or("more than 2^64".to_string(), |n| n.to_string());
            return Err(Stop::Fail(format!(
                "the manifest makes {n} prompts, more than the {MAX_PROMPTS} a book holds; \
                 name a role (--role) or drop --choices"
            )));
        }
        for c in inputs::combinations(&doctrine, choices) {
            let name = naming::name(&doctrine, &c, choices);
            let mut named = Named::of(&doctrine, &c);
            shared(&mut named, given);
            all.push(composed(&doctrine, &plan, &named, name, &mut notices)?);
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

/// The inputs every prompt of the book gets.
fn shared(named: &mut Named, given: &Named) {
    named.facts = given.facts.clone();
    named.slots = given.slots.clone();
    named.instructions = given.instructions.clone();
    named.selectors = given.selectors.clone();
    named.overlay = given.overlay.clone();
    named.family = given.family.clone();
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
