//! What a composition is given, built at run time from a validated manifest: every
//! combination of its closed sets (role × flags × knobs, × choices on request) and the
//! runtime's `Inputs` for one. The run-time twin of generated code's `State::with`, so far
//! for what those sets decide: facts are absent (an optional one at its default), slots
//! absent, instructions empty, and no overlay or selection is given.

use super::model::{Content, Doctrine, Fact, Need};
use super::plan::Plan;
use doctrine_core::__internals::compose::compose_plan_boxed;
use doctrine_core::__internals::fact::value_text;
use doctrine_core::__internals::part::Value;
use doctrine_core::__internals::plan::Inputs;
use doctrine_core::__internals::prompt::with_ceiling;
use doctrine_core::instructions::Instruction;
use doctrine_core::introspect::Section;
use doctrine_core::Prompt;

/// One combination of a manifest's closed sets, by index as the runtime reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combination {
    /// The role (mode), `0` for a manifest without roles.
    pub role: usize,
    /// Each flag, in manifest order.
    pub flags: Vec<bool>,
    /// Each knob's value, in manifest order.
    pub knobs: Vec<usize>,
    /// Each choice layer's variant; `None`: an optional one not given.
    pub choices: Vec<Option<usize>>,
}

/// How many values each place of a combination takes: the role, each flag, each knob and
/// each choice layer (with `choices`; without, a choice layer takes one: not given when
/// it is optional, else its first variant).
fn radices(d: &Doctrine, choices: bool) -> Vec<usize> {
    let mut radices = vec![d.roles.len().max(1)];
    radices.extend(d.flags.iter().map(|_| 2));
    radices.extend(d.knobs.iter().map(|k| k.values.len()));
    radices.extend(d.layers.iter().filter_map(|l| match &l.content {
        Content::Choice { .. } if !choices => Some(1),
        Content::Choice {
            variants, optional, ..
        } => Some(variants.len() + usize::from(*optional)),
        _ => None,
    }));
    radices
}

/// How many combinations [`combinations`] gives; `None` past `usize`.
pub fn count(d: &Doctrine, choices: bool) -> Option<usize> {
    radices(d, choices)
        .into_iter()
        .try_fold(1usize, |n, r| n.checked_mul(r))
}

/// Every combination of roles, flags and knobs (and, with `choices`, choice variants),
/// the role varying slowest and the last place fastest. Check [`count`] first: the flags
/// alone double it each.
pub fn combinations(d: &Doctrine, choices: bool) -> Vec<Combination> {
    let radices = radices(d, choices);
    let n = count(d, choices).unwrap_or(0);
    let optional: Vec<bool> = d
        .layers
        .iter()
        .filter_map(|l| match &l.content {
            Content::Choice { optional, .. } => Some(*optional),
            _ => None,
        })
        .collect();
    let (flags, knobs) = (d.flags.len(), d.knobs.len());
    (0..n)
        .map(|mut i| {
            // Mixed-radix digits of `i`, the last place least significant.
            let mut digits = vec![0; radices.len()];
            for (digit, &radix) in digits.iter_mut().zip(&radices).rev() {
                (*digit, i) = (i % radix, i / radix);
            }
            let choices = digits[1 + flags + knobs..].iter().zip(&optional);
            Combination {
                role: digits[0],
                flags: digits[1..1 + flags].iter().map(|&b| b == 1).collect(),
                knobs: digits[1 + flags..1 + flags + knobs].to_vec(),
                // An optional choice's first value is "not given".
                choices: choices
                    .map(|(&v, &opt)| match opt {
                        true => v.checked_sub(1),
                        false => Some(v),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// A composition's inputs for one combination, owned, with nothing else supplied.
#[derive(Clone, Debug)]
pub struct Given<'d> {
    pub combination: Combination,
    /// Each fact as given: absent, or an optional one's default.
    facts: Vec<Option<&'d str>>,
    /// What each placeholder prints (facts, then knobs, then flags in sections).
    values: Vec<&'d str>,
    slots: usize,
    instructions: usize,
    selectors: usize,
}

impl<'d> Given<'d> {
    /// `combination` of manifest `d`, whose plan is `plan`.
    pub fn new(d: &'d Doctrine, plan: &Plan, combination: Combination) -> Self {
        let facts = absent_facts(d, combination.role);
        let values = printed(d, &facts, &combination);
        let ix = &plan.indices;
        Given {
            combination,
            facts,
            values,
            slots: layers_with(&ix.slot),
            instructions: layers_with(&ix.instructions),
            selectors: layers_with(&ix.selector),
        }
    }

    /// The runtime's `Inputs` for this composition, handed to `f`.
    pub fn with<R>(&self, f: impl FnOnce(&Inputs<'_>) -> R) -> R {
        let c = &self.combination;
        let values: Vec<Value<'_>> = self.values.iter().map(|&v| Value::Text(v)).collect();
        let slots = vec![None; self.slots];
        let instructions: Vec<&[Instruction<'_>]> = vec![&[]; self.instructions];
        let opt_out = vec![false; self.selectors];
        f(&Inputs {
            role: c.role,
            choices: &c.choices,
            slots: &slots,
            instructions: &instructions,
            instruction_caps: &[],
            flags: &c.flags,
            knobs: &c.knobs,
            facts: &self.facts,
            values: &values,
            user: &[],
            cleaned: &[],
            rejected: &[],
            overlay: None,
            selection: None,
            opt_out: &opt_out,
        })
    }
}

/// Each fact of `role` when none is given: absent, an optional one at its `default`.
fn absent_facts(d: &Doctrine, role: usize) -> Vec<Option<&str>> {
    let optional = |f: &Fact| f.need.get(role) == Some(&Need::Optional) && f.list.is_none();
    d.facts
        .iter()
        .map(|f| f.default.as_deref().filter(|_| optional(f)))
        .collect()
}

/// What each placeholder prints, as generated code's `State::with` orders them: each fact
/// (a value's text where the fact has value texts; a list not given prints nothing, as an
/// empty list does), each knob's value (or its text), then, where a text has a `{?flag}`
/// section, each flag as `"on"` or `""`.
pub(super) fn printed<'d>(
    d: &'d Doctrine,
    facts: &[Option<&'d str>],
    c: &Combination,
) -> Vec<&'d str> {
    let fact = |(f, &given): (&'d Fact, &Option<&'d str>)| match &f.texts {
        None => given.unwrap_or(""),
        Some(texts) => {
            let texts: Vec<(&str, &str)> = texts
                .iter()
                .map(|(k, t)| (k.as_str(), t.as_str()))
                .collect();
            value_text(given, &texts)
        }
    };
    let knobs = d.knobs.iter().zip(&c.knobs).map(|(k, &v)| k.printed(v));
    let flags = d
        .flags_in_sections()
        .then_some(&c.flags)
        .into_iter()
        .flatten();
    d.facts
        .iter()
        .zip(facts)
        .map(fact)
        .chain(knobs)
        .chain(flags.map(|&on| if on { "on" } else { "" }))
        // Each loop prints nothing until a list is given, each user's template until an
        // overlay is.
        .chain(d.loops().iter().map(|_| ""))
        .chain(d.overlay_templates().map(|_| ""))
        .collect()
}

/// How many layers have an index in `of` (one of the lists of `Indices`).
fn layers_with(of: &[Option<usize>]) -> usize {
    of.iter().flatten().count()
}

/// The prompt `given` composes to, as compiled code's `finish()` composes it: every layer
/// of `plan` resolved, joined by the manifest's separator, titles delimited by its default
/// formulation, with its `[budget]` ceiling.
pub fn compose(d: &Doctrine, plan: &Plan, given: &Given<'_>) -> Prompt<Box<[Section]>> {
    let role = given.combination.role;
    given.with(|inputs| composed(d, plan, role, d.formulation.default, inputs))
}

/// `inputs` composed with `plan` of manifest `d` in `formulation`, with the `[budget]`
/// ceiling of `role`.
pub(super) fn composed(
    d: &Doctrine,
    plan: &Plan,
    role: usize,
    formulation: doctrine_core::input::Formulation,
    inputs: &Inputs<'_>,
) -> Prompt<Box<[Section]>> {
    let prompt = compose_plan_boxed(
        plan.layers,
        (d.separator.as_str(), formulation, plan.guard),
        inputs,
    );
    let role = if d.roles.is_empty() { 0 } else { role };
    match &d.budget {
        Some(ceilings) => with_ceiling(prompt, ceilings.get(role).copied().flatten()),
        None => prompt,
    }
}
