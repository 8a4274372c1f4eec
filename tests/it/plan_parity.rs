//! The plan a tool builds from a manifest at run time (`codegen::plan::build`, the very
//! values the generator prints as `static PLAN`) is the compiled one: for every example
//! and fixture manifest the two are equal as data, and every combination of roles, flags,
//! knobs and choices composes to the same prompt through both. For the crew example, the
//! run-time inputs (`codegen::inputs`) compose what the typed API's `finish()` composes.

use doctrine::__private::{compose_plan_boxed, Guard, LayerPlan};
use doctrine::introspect::Section;
use doctrine::Prompt;
use doctrine_codegen::inputs::{self, Combination, Given};
use doctrine_codegen::{load, plan, Doctrine, Request};

/// A manifest's compiled plan and guard.
#[derive(Clone, Copy)]
pub(super) struct Compiled {
    pub(super) plan: &'static [LayerPlan],
    pub(super) guard: &'static Guard,
}

/// A module per manifest holding its generated code, and its compiled plan: `__doctrine` is
/// the generated module's own, visible where the macro is invoked.
macro_rules! manifests {
    ($($name:ident: $path:literal,)*) => {
        $(pub(super) mod $name {
            doctrine::doctrine!($path);
            pub(super) fn plan() -> super::Compiled {
                super::Compiled { plan: &__doctrine::PLAN, guard: &__doctrine::GUARD }
            }
        })*
        /// Each manifest's path (relative to this file) and its compiled plan.
        pub(super) const MANIFESTS: &[(&str, fn() -> Compiled)] = &[$(($path, $name::plan)),*];
    };
}

manifests! {
    agent: "../../examples/agent/doctrine.toml",
    crew: "../../examples/crew/doctrine.toml",
    modes: "../../examples/modes/doctrine.toml",
    overlay: "../../examples/overlay/doctrine.toml",
    quickstart: "../../examples/quickstart/doctrine.toml",
    spine: "../../examples/spine/doctrine.toml",
    extensions: "../../examples/extensions/doctrine.toml",
    requests: "../../examples/requests/doctrine.toml",
    any_of: "../fixtures/any_of.toml",
    crew_without_fable: "../fixtures/crew_without_fable.toml",
    gates: "../fixtures/gates.toml",
    instruction_budgets: "../fixtures/instruction_budgets.toml",
    large: "../fixtures/large.toml",
    lists: "../fixtures/lists.toml",
    loops: "../fixtures/loops/doctrine.toml",
    models: "../fixtures/models/doctrine.toml",
    messages: "../fixtures/messages/messages.toml",
    header: "../fixtures/messages/header.toml",
    header_prefix: "../fixtures/header_prefix.toml",
    message_parts: "../fixtures/messages/parts.toml",
    overlay_policy: "../fixtures/overlay_policy/doctrine.toml",
    overlay_template: "../fixtures/overlay_template.toml",
    pattern: "../fixtures/pattern/doctrine.toml",
    prefix_edges: "../fixtures/prefix_edges.toml",
    provenance: "../fixtures/provenance.toml",
    reminders: "../fixtures/reminders.toml",
    sections: "../fixtures/sections.toml",
    skills: "../fixtures/skills/doctrine.toml",
    slots: "../fixtures/slots.toml",
    spine_without: "../fixtures/spine_without.toml",
    stems: "../fixtures/stems/doctrine.toml",
    trimmed_sections: "../fixtures/trimmed_sections.toml",
    trimmed_slot: "../fixtures/trimmed_slot.toml",
    trim_ends: "../fixtures/trim_ends.toml",
    user_content: "../fixtures/user_content/doctrine.toml",
    value_texts: "../fixtures/value_texts.toml",
    wide: "../fixtures/wide.toml",
    small: "../../doctrine-core/tests/fixtures/small/doctrine.toml",
    facts: "../../doctrine-core/tests/fixtures/facts/doctrine.toml",
    claims: "pass/claims.toml",
    empty_shipped_text: "pass/empty_shipped_text.toml",
    fact_alternatives: "pass/fact_alternatives.toml",
    flag_gated: "pass/flag_gated.toml",
    negated_flag: "pass/negated_flag.toml",
    optional_choice: "pass/optional_choice.toml",
    overlay_append: "pass/overlay_append.toml",
    roles_texts: "pass/roles_texts.toml",
    single_file: "pass/single_file.toml",
    tricky_names: "pass/tricky_names.toml",
    docs_agent: "../../doctrine/docs/examples/agent/doctrine.toml",
    docs_desk: "../../doctrine/docs/examples/desk/doctrine.toml",
    docs_quickstart: "../../doctrine/docs/examples/quickstart/doctrine.toml",
    docs_relay: "../../doctrine/docs/examples/relay/doctrine.toml",
    docs_concierge: "../../doctrine/docs/examples/concierge/doctrine.toml",
    docs_forwarded: "../../doctrine/docs/examples/forwarded/doctrine.toml",
    crew_tiered: "../../examples/crew/tiered.toml",
}

/// Manifest `path` (relative to this file), loaded as the macro loads it.
pub(super) fn loaded(path: &str) -> Doctrine {
    let root = env!("CARGO_MANIFEST_DIR");
    let request = Request::new(path, format!("{root}/tests/it"), root);
    load(&request).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_plan_built_at_run_time_is_the_compiled_plan() {
    for (path, compiled) in MANIFESTS {
        let built = plan::build(&loaded(path));
        assert_eq!(
            format!("{:#?}", built.layers),
            format!("{:#?}", compiled().plan),
            "{path}"
        );
        assert_eq!(built.layers.len(), compiled().plan.len(), "{path}");
        assert_eq!(built.guard, compiled().guard, "{path}");
    }
}

#[test]
fn every_combination_composes_alike_through_both_plans() {
    let mut combinations = 0;
    for (path, compiled) in MANIFESTS {
        let d = loaded(path);
        let built = plan::build(&d);
        let how = (d.separator.as_str(), d.formulation.default, built.guard);
        let theirs_how = (how.0, how.1, compiled().guard);
        let n = inputs::count(&d, true).expect("a countable matrix");
        let all = inputs::combinations(&d, true);
        assert_eq!(all.len(), n, "{path}");
        for c in all {
            let given = Given::new(&d, &built, c);
            let (ours, theirs) = given.with(|inputs| {
                (
                    compose_plan_boxed(built.layers, how, inputs),
                    compose_plan_boxed(compiled().plan, theirs_how, inputs),
                )
            });
            assert_eq!(ours, theirs, "{path} {:?}", given.combination);
            combinations += 1;
        }
    }
    eprintln!("{} manifests, {combinations} combinations", MANIFESTS.len());
    // The crew alone: 8 roles × fable × 3 intensities × 3 teams × 6 identities.
    assert!(combinations > 8 * 2 * 3 * 3 * 6, "{combinations}");
}

/// Every combination of `path` (with choices: `expected` of them), composed from the
/// run-time plan with the run-time inputs, equals what the typed builder composes for it
/// (`typed`): the run-time twin of generated code's `State::with`, with no fact or slot
/// given.
fn composes_as_typed<S: AsRef<[Section]>>(
    path: &str,
    expected: usize,
    typed: impl Fn(&Combination) -> Prompt<S>,
) {
    let d = loaded(path);
    let built = plan::build(&d);
    let all = inputs::combinations(&d, true);
    assert_eq!(all.len(), expected, "{path}");
    let distinct: std::collections::BTreeSet<String> =
        all.iter().map(|c| format!("{c:?}")).collect();
    assert_eq!(distinct.len(), expected, "{path}: a combination repeats");
    for c in all {
        let want = typed(&c);
        let ours = inputs::compose(&d, &built, &Given::new(&d, &built, c.clone()));
        assert_eq!(ours.as_str(), want.as_str(), "{path} {c:?}");
        assert_eq!(ours.sections(), want.sections(), "{path} {c:?}");
        assert_eq!(ours.user_content(), want.user_content(), "{path} {c:?}");
        assert_eq!(ours.budget(), want.budget(), "{path} {c:?}");
    }
}

/// The crew: roles, choices, a knob printed in a text and in a suffix, a list not given.
#[test]
fn run_time_inputs_compose_the_crew_as_typed() {
    use crew::{Flag, Identity, Intensity, Knobs, Role, Team};
    composes_as_typed(MANIFESTS[1].0, 8 * 2 * 3 * 3 * 6, |c| {
        let choice = |i: usize| c.choices[i].expect("the crew's choices are required");
        let facts = crew::Facts::from(Role::ALL[c.role]);
        crew::compose(facts, Team::ALL[choice(0)], Identity::ALL[choice(1)])
            .flag(Flag::Fable, c.flags[0])
            .knobs(Knobs {
                intensity: Intensity::ALL[c.knobs[0]],
            })
            .ambient(None)
            .finish()
    });
}

/// Gates over flags and absent facts, an optional fact's default, optional slots, a
/// formulation table.
#[test]
fn run_time_inputs_compose_the_gates_as_typed() {
    use gates::{Facts, Flag, Mode};
    composes_as_typed("../fixtures/gates.toml", 4, |c| {
        let facts = Facts::from_pairs(Mode::ALL[c.role], []).unwrap();
        gates::compose(facts)
            .flag(Flag::Verbose, c.flags[0])
            .flag(Flag::Strict, c.flags[1])
            .finish()
    });
}

/// Flags in sections, templates trimmed once rendered, a title.
#[test]
fn run_time_inputs_compose_trimmed_sections_as_typed() {
    use trimmed_sections::{compose, Facts, Flag};
    composes_as_typed("../fixtures/trimmed_sections.toml", 2, |c| {
        compose(Facts { branch: None })
            .flag(Flag::More, c.flags[0])
            .finish()
    });
}

/// A knob printing the text of its value, in a template and in a suffix.
#[test]
fn run_time_inputs_compose_value_texts_as_typed() {
    use value_texts::{compose, Facts, Knobs, Pace};
    composes_as_typed("../fixtures/value_texts.toml", 2, |c| {
        let facts = Facts {
            mood: None,
            personality: None,
        };
        let pace = Pace::ALL[c.knobs[0]];
        compose(facts).knobs(Knobs { pace }).finish()
    });
}
