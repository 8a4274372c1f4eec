//! For every role of every example and fixture manifest, the compile-time `prefix::`
//! constants equal the runtime's stable prefix (length and fingerprint), whatever else is
//! supplied at run time; and a role without them really has a prefix that varies.

use doctrine::cache::fingerprint;
use proptest::prelude::*;

mod crew {
    doctrine::doctrine!("../../examples/crew/doctrine.toml");
}
mod crew_without_fable {
    doctrine::doctrine!("../fixtures/crew_without_fable.toml");
}
mod modes {
    doctrine::doctrine!("../../examples/modes/doctrine.toml");
}
mod overlay {
    doctrine::doctrine!("../../examples/overlay/doctrine.toml");
}
mod quickstart {
    doctrine::doctrine!("../../examples/quickstart/doctrine.toml");
}
mod spine {
    doctrine::doctrine!("../../examples/spine/doctrine.toml");
}
mod edges {
    doctrine::doctrine!("../fixtures/prefix_edges.toml");
}
mod header_prefix {
    doctrine::doctrine!("../fixtures/header_prefix.toml");
}
mod small {
    doctrine::doctrine!("../../doctrine-core/tests/fixtures/small/doctrine.toml");
}
mod facts {
    doctrine::doctrine!("../../doctrine-core/tests/fixtures/facts/doctrine.toml");
}
mod empty_shipped_text {
    doctrine::doctrine!("pass/empty_shipped_text.toml");
}
mod flag_gated {
    doctrine::doctrine!("pass/flag_gated.toml");
}
mod negated_flag {
    doctrine::doctrine!("pass/negated_flag.toml");
}
mod optional_choice {
    doctrine::doctrine!("pass/optional_choice.toml");
}
mod overlay_append {
    doctrine::doctrine!("pass/overlay_append.toml");
}
mod roles_texts {
    doctrine::doctrine!("pass/roles_texts.toml");
}
mod single_file {
    doctrine::doctrine!("pass/single_file.toml");
}
mod tricky_names {
    doctrine::doctrine!("pass/tricky_names.toml");
}

/// Random runtime inputs: texts for slots, facts and overlays, and bits for choices,
/// flags and knobs.
#[derive(Debug, Clone)]
struct Inputs {
    words: Vec<String>,
    bits: u64,
}

fn inputs() -> impl Strategy<Value = Inputs> {
    (proptest::collection::vec("[a-z \n]{0,12}", 8), any::<u64>())
        .prop_map(|(words, bits)| Inputs { words, bits })
}

impl Inputs {
    fn word(&self, i: usize) -> &str {
        &self.words[i % self.words.len()]
    }
    fn bit(&self, i: u32) -> bool {
        self.bits >> (i % 64) & 1 == 1
    }
    fn pick<T: Copy>(&self, all: &[T], i: u32) -> T {
        all[(self.bits.rotate_right(i * 7) % all.len() as u64) as usize]
    }
    fn some(&self, i: usize) -> Option<&str> {
        self.bit(40 + i as u32).then(|| self.word(i))
    }
}

/// The compile-time constants, when there are any, agree with the composed prefix.
fn agree(known: Option<(usize, u64)>, stable: &str, what: &str) {
    if let Some((len, fp)) = known {
        assert_eq!(stable.len(), len, "{what}: length of {stable:?}");
        assert_eq!(
            fingerprint(stable.as_bytes()),
            fp,
            "{what}: fingerprint of {stable:?}"
        );
    }
}

/// Roles with known prefixes, per manifest: pinned, so a generator change that stops
/// computing them (which would make this test vacuous) is seen.
#[test]
fn the_fixtures_do_have_known_prefixes() {
    assert!(edges::prefix::known(edges::Role::A).is_some());
    assert!(edges::prefix::known(edges::Role::B).is_some());
    assert!(edges::prefix::known(edges::Role::C).is_none());
    assert!(modes::prefix::known(modes::Mode::Baseline).is_some());
    for &r in quickstart::Role::ALL {
        assert!(quickstart::prefix::known(r).is_some());
    }
    for &r in roles_texts::Role::ALL {
        assert!(roles_texts::prefix::known(r).is_some());
    }
    let _ = (single_file::prefix::LEN, single_file::prefix::FINGERPRINT);
}

/// A layer's header (literal) and wrapper are bytes of a prefix known at compile time.
#[test]
fn a_header_and_a_wrapper_are_in_a_known_prefix() {
    let p = header_prefix::compose().task("Review #12.").finish();
    assert_eq!(
        p.stable(),
        "You review changes.\n\n---\n\nRules:\n<rules>\nRun the tests.\n</rules>"
    );
    let known = (
        header_prefix::prefix::LEN,
        header_prefix::prefix::FINGERPRINT,
    );
    agree(Some(known), p.stable(), "header_prefix");
}

/// A suffix belongs to its layer's text: an empty text (shipped, or a template rendered
/// empty) drops it, and the layer is left out with no separator.
#[test]
fn empty_texts_drop_their_suffix() {
    let a = edges::compose(edges::AFacts {}).tail(None).finish();
    assert_eq!(a.as_str(), "");
    let b = edges::compose(edges::BFacts {}).tail(None).finish();
    assert_eq!(b.as_str(), "Lead.\n\nLiteral suffix.");
    let c = edges::compose(edges::CFacts { mood: "" })
        .tail(None)
        .finish();
    assert_eq!(c.as_str(), "");
    let c = edges::compose(edges::CFacts { mood: "Calm." })
        .tail(None)
        .finish();
    assert_eq!(c.as_str(), "Calm.\n\nMood suffix.");
    let c = edges::compose(edges::CFacts { mood: "Calm." })
        .tail("T")
        .finish();
    assert_eq!(c.as_str(), "Calm.\n\nMood suffix.\n--\nT");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn crew(i in inputs()) {
        for &role in crew::Role::ALL {
            let p = crew::compose(role, i.pick(crew::Team::ALL, 1), i.pick(crew::Identity::ALL, 2))
                .flag(crew::Flag::Fable, i.bit(3))
                .knobs(crew::Knobs { intensity: i.pick(crew::Intensity::ALL, 4) })
                .ambient(i.some(0))
                .finish();
            agree(crew::prefix::known(role), p.stable(), role.as_str());
        }
        for &role in crew_without_fable::Role::ALL {
            let w = &crew_without_fable::compose(
                role,
                i.pick(crew_without_fable::Team::ALL, 1),
                i.pick(crew_without_fable::Identity::ALL, 2),
            )
            .knobs(crew_without_fable::Knobs { intensity: i.pick(crew_without_fable::Intensity::ALL, 4) })
            .ambient(i.some(0))
            .finish();
            agree(crew_without_fable::prefix::known(role), w.stable(), role.as_str());
        }
    }

    #[test]
    fn modes(i in inputs()) {
        for &mode in modes::Mode::ALL {
            let pairs: Vec<(&str, &str)> = modes::Facts::takes(mode)
                .iter()
                .enumerate()
                .filter(|&(k, _)| i.bit(k as u32) || !optional_in(mode, k))
                .map(|(k, &name)| {
                    let value = match name {
                        "extramile" => i.pick(&["on", "off"], k as u32),
                        "nudge" => i.pick(&["wrapup", "force"], k as u32),
                        _ => i.word(k),
                    };
                    (name, value)
                })
                .collect();
            let facts = modes::Facts::from_pairs(mode, pairs).unwrap();
            let p = modes::compose(facts).extra(i.some(1)).finish();
            agree(modes::prefix::known(mode), p.stable(), mode.as_str());
        }
    }

    #[test]
    fn overlays_and_slots(i in inputs()) {
        let tools = i.word(0).to_string();
        let o = overlay::Overlay { identity: i.word(1).into(), tools_more: i.word(2).into(), style: i.word(3).into() };
        let p = overlay::compose(overlay::Facts { tools: &tools }).overlay(&o).instructions(&[]).repo(i.some(4)).finish();
        // A single-agent prompt whose prefix has titles: known only if the generator says so.
        let _ = p.stable();
        for &r in quickstart::Role::ALL {
            agree(quickstart::prefix::known(r), quickstart::compose(r).finish().stable(), r.as_str());
        }
        for &r in spine::Role::ALL {
            let on = i.bit(5).then_some("on");
            let (selection, _) = spine::Selectors { spine: on, spine_legs: i.some(1) }.resolve("/nonexistent");
            let p = spine::compose(r).selection(&selection).opt_out(i.bit(6)).base(i.some(0)).persona(i.some(3)).finish();
            agree(spine::prefix::known(r), p.stable(), r.as_str());
        }
        for &r in edges::Role::ALL {
            let facts = match r {
                edges::Role::A => edges::Facts::A(edges::AFacts {}),
                edges::Role::B => edges::Facts::B(edges::BFacts {}),
                edges::Role::C => edges::Facts::C(edges::CFacts { mood: i.word(2) }),
            };
            let p = edges::compose(facts).tail(i.some(1)).finish();
            agree(edges::prefix::known(r), p.stable(), r.as_str());
        }
        for &r in small::Role::ALL {
            let p = small::compose(r, i.pick(small::Mood::ALL, 1))
                .flag(small::Flag::Strict, i.bit(2))
                .knobs(small::Knobs { pace: i.pick(small::Pace::ALL, 3) })
                .overlay(&small::Overlay { style_more: i.word(4).into() })
                .task(i.word(0))
                .today(i.some(1))
                .finish();
            agree(small::prefix::known(r), p.stable(), r.as_str());
        }
        for &m in facts::Mode::ALL {
            let f = match m {
                facts::Mode::Ask => facts::Facts::Ask(facts::AskFacts { root: i.word(0) }),
                facts::Mode::Act => facts::Facts::Act(facts::ActFacts { root: i.word(0), urgency: i.bit(1).then(|| i.pick(facts::Urgency::ALL, 2)) }),
            };
            let p = facts::compose(f).rules(&[]).extra(i.some(1)).finish();
            agree(facts::prefix::known(m), p.stable(), m.as_str());
        }
    }

    #[test]
    fn pass_fixtures(i in inputs()) {
        for &r in empty_shipped_text::Role::ALL {
            let o = empty_shipped_text::Overlay { notes: i.word(0).into() };
            let p = empty_shipped_text::compose(r).overlay(&o).finish();
            agree(empty_shipped_text::prefix::known(r), p.stable(), r.as_str());
        }
        for &r in roles_texts::Role::ALL {
            agree(roles_texts::prefix::known(r), roles_texts::compose(r).finish().stable(), r.as_str());
        }
        for &r in tricky_names::Role::ALL {
            let every = i.pick(tricky_names::Every::ALL, 1);
            let f = match r {
                tricky_names::Role::Err => tricky_names::Facts::Err(tricky_names::ErrFacts { every }),
                tricky_names::Role::Some => tricky_names::Facts::Some(tricky_names::SomeFacts { every }),
                tricky_names::Role::None => tricky_names::Facts::None(tricky_names::NoneFacts { every }),
                tricky_names::Role::OPTIONAL => tricky_names::Facts::OPTIONAL(tricky_names::OPTIONALFacts { every }),
            };
            let p = tricky_names::compose(f, i.pick(tricky_names::S::ALL, 2), i.bit(3).then(|| i.pick(tricky_names::Option::ALL, 4))).finish();
            agree(tricky_names::prefix::known(r), p.stable(), r.as_str());
        }
        let p = single_file::compose().finish();
        agree(Some((single_file::prefix::LEN, single_file::prefix::FINGERPRINT)), p.stable(), "single_file");
        // Manifests whose prefixes depend on flags, choices or overlays have no constants;
        // composing them is still checked for panics.
        let _ = flag_gated::compose().flag(flag_gated::Flag::Fable, i.bit(1)).finish();
        let _ = negated_flag::compose().flag(negated_flag::Flag::Verbose, i.bit(2)).finish();
        let _ = optional_choice::compose(i.bit(3).then(|| i.pick(optional_choice::Team::ALL, 4))).note(i.some(0)).finish();
        let _ = overlay_append::compose().overlay(&overlay_append::Overlay { tools_more: i.word(5).into() }).finish();
    }
}

/// Whether the `k`th fact `Facts::takes(mode)` lists is optional for the mode.
fn optional_in(mode: modes::Mode, k: usize) -> bool {
    let name = modes::Facts::takes(mode)[k];
    modes::Facts::from_pairs(
        mode,
        modes::Facts::takes(mode)
            .iter()
            .filter(|&&n| n != name)
            .map(|&n| {
                (
                    n,
                    if n == "extramile" {
                        "on"
                    } else if n == "nudge" {
                        "force"
                    } else {
                        "x"
                    },
                )
            }),
    )
    .is_ok()
}
