//! A prepared plan composes what the plan composes: for every combination of every manifest
//! `plan_parity` compiles, prepared with one set of facts and slots (none, or every one)
//! and composing with the other, the prompt is the same, byte for byte and record for
//! record, and the prepared path was taken; a plan prepared for another combination is
//! not used, and composes the same too. Through the typed API, the crew's
//! `finish_prepared` is its `finish()` for every combination, tool list and slot.

use doctrine::__private::{compose_plan_boxed, compose_prepared_boxed, prepare, prepared_fits};
use doctrine::Prepared;
use doctrine_codegen::{inputs, plan};

use super::plan_parity::{crew, loaded, MANIFESTS};
use super::render_parity::{rendered, same, sample};

#[test]
fn every_combination_composes_alike_prepared() {
    let mut count = 0;
    for (path, compiled) in MANIFESTS {
        let (d, compiled) = (loaded(path), compiled());
        let built = plan::build(&d);
        // A prepared plan keeps its separator; the manifest's lives as long as the test.
        let separator: &'static str = Box::leak(d.separator.clone().into_boxed_str());
        let mut before: Option<(inputs::Combination, Prepared)> = None;
        for c in inputs::combinations(&d, true) {
            for all in [false, true] {
                let what = format!("{path} {c:?} all {all}");
                let (prepared_with, _) = rendered(&d, &built, &sample(&d, &c, !all));
                let (given, _) = rendered(&d, &built, &sample(&d, &c, all));
                let how = (separator, given.formulation(), compiled.guard);
                let prepared = prepared_with.with(|inputs| prepare(compiled.plan, how, inputs));
                given.with(|inputs| {
                    let plain = compose_plan_boxed(compiled.plan, how, inputs);
                    let ours = compose_prepared_boxed(&prepared, compiled.plan, how, inputs);
                    assert!(
                        prepared_fits(&prepared, compiled.plan, how, inputs),
                        "{what}"
                    );
                    same(&ours, &plain, &what);
                    assert_eq!(ours.explain().to_string(), plain.explain().to_string());
                    // Another combination's plan is not used, and changes nothing.
                    if let Some((other, prepared)) = before.as_ref().filter(|(o, _)| *o != c) {
                        let theirs = compose_prepared_boxed(prepared, compiled.plan, how, inputs);
                        assert!(
                            !prepared_fits(prepared, compiled.plan, how, inputs),
                            "{other:?}"
                        );
                        same(&theirs, &plain, &what);
                    }
                });
                before = Some((c.clone(), prepared));
                count += 1;
            }
        }
    }
    eprintln!(
        "{} manifests, {count} prepared compositions",
        MANIFESTS.len()
    );
    assert!(count > 2 * 8 * 2 * 3 * 3 * 6, "{count}");
}

/// The crew through its typed builder: every combination, with and without its tool list
/// and its slot, prepared once per combination (without them), then composed.
#[test]
fn the_crews_finish_prepared_is_its_finish() {
    use crew::{Combination, Facts, Identity, Team};
    let tools = ["the repository", "the test runner"];
    for c in Combination::all() {
        for (&team, &identity) in Team::ALL.iter().zip(Identity::ALL.iter().cycle()) {
            let seat = crew::compose(Facts::from(c.role), team, identity)
                .flags(c.flags)
                .knobs(c.knobs);
            let prepared = seat.prepare();
            for listed in [&tools[..], &[]] {
                for ambient in [None, Some("Rain today.")] {
                    let typed = || {
                        crew::compose(Facts::from(c.role).with_tools(listed), team, identity)
                            .flags(c.flags)
                            .knobs(c.knobs)
                            .ambient(ambient)
                    };
                    let what = format!("{c} {team:?} tools {listed:?} {ambient:?}");
                    let ours = typed().finish_prepared(&prepared);
                    same(&ours, &typed().finish(), &what);
                    assert_eq!(
                        ours.explain().to_string(),
                        typed().finish().explain().to_string()
                    );
                }
            }
        }
    }
}

/// A prepared plan can be shared across threads (one per seat, behind an `Arc`).
#[test]
fn a_prepared_plan_is_send_and_sync() {
    fn shared<T: Send + Sync + Clone + std::fmt::Debug>() {}
    shared::<Prepared>();
}
