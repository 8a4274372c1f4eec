//! A manifest's plan prepared for one seat: the role, choices, flags, knobs and layout a
//! caller keeps for a session. The layers nothing else can change are resolved and
//! composed once, by the routine every prompt is composed with, into runs of text with
//! the separators between them in place; each prompt then resolves only the other layers
//! (facts, slots, instructions, overlays, selectors) and copies the runs whole.

use std::cell::RefCell;
use std::fmt;
use std::ops::Range;
use std::ptr;

use super::boundary::Guard;
use super::compose::{compose_boxed, compose_plan, compose_plan_boxed, Layout};
use super::decided::Decided;
use super::fill::{measured, part_measure, Filler, Measure, With};
use super::formulation::Formulation;
use super::layer::{LayerInfo, Stability};
use super::part::{Part, Value};
use super::plan::{fixed, resolve, resolve_into, Inputs, LayerPlan};
use super::prompt::{cuts, Prompt, Written};
use super::section::{Section, SectionState};

/// A manifest's plan prepared for one role, its choices, flags, knobs and formulation
/// (generated `Compose::prepare`), so that composing a prompt for them copies the text of
/// the layers nothing else can change in long runs (generated `Compose::finish_prepared`),
/// instead of resolving every layer on every call.
///
/// It holds that text once (at most the prompt's length) and a record per layer; keep one
/// per role or session, as long as it is used. A prompt composed with it is the one
/// `finish()` composes, byte for byte and record for record; given another role, choice,
/// flag, knob or formulation than it was prepared for, `finish_prepared` composes as
/// `finish()` does. In a manifest with `[[message]]` or `join_before`, a run stays within
/// one message, and what stands before it (a join, a message's wrapper) is written per
/// prompt, as it depends on what printed before.
#[derive(Clone)]
pub struct Prepared {
    key: Key,
    steps: Box<[Step]>,
    /// One record per layer: a fixed layer's, its offsets within its run's text; a live
    /// layer's is written per prompt.
    sections: Box<[Section]>,
}

/// What a prepared plan was prepared for.
#[derive(Clone)]
struct Key {
    plan: &'static [LayerPlan],
    separator: &'static str,
    formulation: Formulation,
    guard: &'static Guard,
    role: usize,
    choices: Box<[Option<usize>]>,
    flags: Box<[bool]>,
    knobs: Box<[usize]>,
    /// The values the fixed layers read (knobs' and flags' texts), by index.
    values: Box<[(usize, Box<str>)]>,
}

/// What a prompt is written from, in order.
#[derive(Clone, Debug)]
enum Step {
    /// Fixed layers `layers`, all of one tier and one message, as composed (never empty),
    /// without what goes before `first`, the first of them with text, nor its message's
    /// wrapper: those depend on what printed before, and are written per prompt.
    Run {
        text: Box<str>,
        layers: Range<usize>,
        tier: Stability,
        first: &'static LayerInfo,
    },
    /// A layer resolved for each prompt.
    Live(usize),
}

/// `plan` prepared for the role, choices, flags, knobs and values of `inputs` (not their
/// facts, slots, instructions, overlay or selection), in this layout.
pub fn prepare(
    plan: &'static [LayerPlan],
    layout: (&'static str, Formulation, &'static Guard),
    inputs: &Inputs<'_>,
) -> Prepared {
    // The values the fixed layers read (a list is a fact, were one past the facts).
    let read = RefCell::new(Vec::new());
    let runtime = |v: usize| {
        let runtime = layout.2.is_fact(v) || !matches!(inputs.values.get(v), Some(Value::Text(_)));
        if !runtime {
            read.borrow_mut().push(v);
        }
        runtime
    };
    let parts: Vec<Option<Part<'_>>> = plan.iter().map(|p| fixed(p, inputs, &runtime)).collect();
    let (steps, sections) = runs(plan, layout, inputs.values, &parts);
    let mut read = read.into_inner();
    read.sort_unstable();
    read.dedup();
    let values = read.into_iter().filter_map(|v| match inputs.values[v] {
        Value::Text(t) => Some((v, t.into())),
        Value::List(_) | Value::Escaped(..) => None,
    });
    let key = Key {
        plan,
        separator: layout.0,
        formulation: layout.1,
        guard: layout.2,
        role: inputs.role,
        choices: inputs.choices.into(),
        flags: inputs.flags.into(),
        knobs: inputs.knobs.into(),
        values: values.collect(),
    };
    Prepared {
        key,
        steps: steps.into(),
        sections,
    }
}

/// The steps a prompt is written in: each stretch of fixed layers of one tier composed
/// (`parts`, `None` for a live layer), and the records of every layer.
fn runs(
    plan: &[LayerPlan],
    layout: Layout<'_>,
    values: &[Value<'_>],
    parts: &[Option<Part<'_>>],
) -> (Vec<Step>, Box<[Section]>) {
    let mut sections = vec![Section::UNSET; plan.len()].into_boxed_slice();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < plan.len() {
        let (tier, message) = (plan[i].info.stability, plan[i].info.message);
        let together = |p: &LayerInfo| {
            p.stability == tier && p.message.map(|m| m.index) == message.map(|m| m.index)
        };
        let run: Vec<Part<'_>> = parts[i..]
            .iter()
            .zip(&plan[i..])
            .map_while(|(part, p)| part.filter(|_| together(&p.info)))
            .collect();
        if run.is_empty() {
            steps.push(Step::Live(i));
            i += 1;
            continue;
        }
        let layers = i..i + run.len();
        let composed = compose_boxed(layout, values, &[], &run);
        debug_assert!(composed.user_content().is_empty() && composed.escapes().is_empty());
        let records = &mut sections[layers.clone()];
        records.copy_from_slice(composed.sections());
        i = layers.end;
        let Some(first) = records.iter().find(|s| s.state.range().is_some()) else {
            continue;
        };
        // Composed as a prompt of its own, the run opens and closes its message; the
        // prompt around it writes those, when the message starts and ends.
        let (open, close) = first.info.message.map_or(("", ""), |m| (m.open, m.close));
        let first = first.info;
        let text = composed.as_str();
        debug_assert!(text.starts_with(open) && text.ends_with(close));
        let text = text[open.len()..text.len() - close.len()].into();
        for s in records.iter_mut() {
            if let SectionState::Included { start, end } = &mut s.state {
                (*start, *end) = (*start - open.len(), *end - open.len());
            }
        }
        steps.push(Step::Run {
            text,
            layers,
            tier,
            first,
        });
    }
    (steps, sections)
}

impl Prepared {
    /// Whether it was prepared for `plan` in this layout with what `inputs` give.
    #[inline]
    fn fits(&self, plan: &[LayerPlan], layout: Layout<'_>, inputs: &Inputs<'_>) -> bool {
        let k = &self.key;
        let value = |&(v, ref text): &(usize, Box<str>)| matches!(inputs.values.get(v), Some(Value::Text(t)) if *t == &**text);
        ptr::eq(k.plan, plan)
            && ptr::eq(k.guard, layout.2)
            && k.formulation == layout.1
            && (ptr::eq(k.separator, layout.0) || k.separator == layout.0)
            && k.role == inputs.role
            && *k.choices == *inputs.choices
            && *k.flags == *inputs.flags
            && *k.knobs == *inputs.knobs
            && k.values.iter().all(value)
    }

    /// The composition, as [`compose_plan`]'s: measured, then written in one allocation;
    /// `sections` holds the prepared records, `parts` keeps the live layers' parts between
    /// the two passes (empty: they are resolved again).
    #[inline(always)]
    fn fill<'a>(
        &self,
        layout: Layout<'_>,
        inputs: &Inputs<'a>,
        sections: &mut [Section],
        parts: &mut [Option<Part<'a>>],
    ) -> Written {
        let plan = self.key.plan;
        let (mut measure, mut decided) = (Measure::default(), Decided::default());
        for step in &self.steps {
            match *step {
                Step::Run {
                    ref text, first, ..
                } => measure.add(text.len(), first, layout.0),
                // Resolved straight into its slot: a copy of a part read back what the call
                // had just written, and stalled on it.
                Step::Live(i) => {
                    let (at, values) = (decided.len(), inputs.values);
                    let len = match parts.get_mut(i) {
                        Some(slot) => part_measure(
                            resolve_into(&plan[i], inputs, slot),
                            layout.1,
                            values,
                            &mut decided,
                        ),
                        None => {
                            let part = resolve(&plan[i], inputs);
                            part_measure(&part, layout.1, values, &mut decided)
                        }
                    };
                    measure.add(len, &plan[i].info, layout.0);
                    sections[i].state = measured(len, at);
                }
            }
        }
        let total = measure.total();
        let mut filler = Filler::new(layout, (total, decided), inputs.role);
        let with = With {
            separator: layout.0,
            formulation: layout.1,
            values: (inputs.values, inputs.user),
        };
        for step in &self.steps {
            match *step {
                Step::Run {
                    ref text,
                    ref layers,
                    tier,
                    first,
                } => filler.run(layout.0, first, text, tier, &mut sections[layers.clone()]),
                Step::Live(i) => {
                    let again;
                    let part = match parts.get(i) {
                        Some(Some(part)) => part,
                        _ => {
                            again = resolve(&plan[i], inputs);
                            &again
                        }
                    };
                    filler.layer(with, i, part, &mut sections[i]);
                }
            }
        }
        filler.done(sections)
    }
}

/// What [`compose_plan`] composes, from `prepared` when it was prepared for these.
// Inlined into `finish_prepared()`, as `compose_plan` is into `finish()`.
#[inline(always)]
pub fn compose_prepared<const N: usize>(
    prepared: &Prepared,
    plan: &'static [LayerPlan; N],
    layout: Layout<'_>,
    inputs: &Inputs<'_>,
) -> Prompt<[Section; N]> {
    if !prepared.fits(plan, layout, inputs) {
        return unprepared(plan, layout, inputs);
    }
    let mut sections = [Section::UNSET; N];
    sections.copy_from_slice(&prepared.sections);
    let written = prepared.fill(layout, inputs, &mut sections, &mut [None; N]);
    let cuts = cuts(plan, inputs, &sections);
    Prompt::from_parts(written, sections, (inputs.cleaned, inputs.rejected), cuts)
}

#[cold]
#[inline(never)]
fn unprepared<const N: usize>(
    plan: &'static [LayerPlan; N],
    layout: Layout<'_>,
    inputs: &Inputs<'_>,
) -> Prompt<[Section; N]> {
    compose_plan(plan, layout, inputs)
}

/// As [`compose_prepared`], for large manifests ([`compose_plan_boxed`]).
pub fn compose_prepared_boxed(
    prepared: &Prepared,
    plan: &'static [LayerPlan],
    layout: Layout<'_>,
    inputs: &Inputs<'_>,
) -> Prompt<Box<[Section]>> {
    if !prepared.fits(plan, layout, inputs) {
        return compose_plan_boxed(plan, layout, inputs);
    }
    let mut sections = prepared.sections.clone();
    // Live layers are resolved twice: keeping their parts would take an allocation.
    let written = prepared.fill(layout, inputs, &mut sections, &mut []);
    let cuts = cuts(plan, inputs, &sections);
    Prompt::from_parts(written, sections, (inputs.cleaned, inputs.rejected), cuts)
}

/// Whether `prepared` fits these (else composing falls back to [`compose_plan`]): for
/// tests that must know the prepared path was taken.
pub fn prepared_fits(
    prepared: &Prepared,
    plan: &'static [LayerPlan],
    layout: Layout<'_>,
    inputs: &Inputs<'_>,
) -> bool {
    prepared.fits(plan, layout, inputs)
}

impl fmt::Debug for Prepared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = &self.key;
        let runs = self.steps.iter().filter_map(|s| match s {
            Step::Run { text, layers, .. } => Some((layers.clone(), text.len())),
            Step::Live(_) => None,
        });
        f.debug_struct("Prepared")
            .field("role", &k.role)
            .field("choices", &k.choices)
            .field("flags", &k.flags)
            .field("knobs", &k.knobs)
            .field("formulation", &k.formulation)
            .field("runs (layers, bytes)", &runs.collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}
