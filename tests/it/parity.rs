//! Byte-for-byte parity with a runtime composer of the kind `doctrine` replaces: for every
//! role, flag, knob and seat of the crew, the generated code gives exactly the bytes a
//! composer that reads the files per call gives.

use crate::support::{crew_tools, seed_composer};

mod crew {
    doctrine::doctrine!("../../examples/crew/doctrine.toml");
}

#[test]
fn generated_prompts_equal_the_runtime_composer() {
    let runtime = seed_composer::Runtime {
        dir: concat!(env!("CARGO_MANIFEST_DIR"), "/examples/crew").into(),
    };
    let mut checked = 0;
    for &role in crew::Role::ALL {
        for &team in crew::Team::ALL {
            for &identity in crew::Identity::ALL {
                for fable in [false, true] {
                    for &intensity in crew::Intensity::ALL {
                        for ambient in [None, Some("Use the repository's decision records.")] {
                            for tools in [&[][..], crew_tools::loaded_tools(role.as_str())] {
                                let facts = crew::Facts::from(role).with_tools(tools);
                                let generated = crew::compose(facts, team, identity)
                                    .flag(crew::Flag::Fable, fable)
                                    .knobs(crew::Knobs { intensity })
                                    .ambient(ambient)
                                    .finish();
                                let expected = runtime.compose(&seed_composer::Seat {
                                    role: role.as_str(),
                                    tools,
                                    team: team.as_str(),
                                    identity: identity.as_str(),
                                    fable,
                                    intensity: intensity.as_str(),
                                    ambient,
                                });
                                assert_eq!(
                                    generated.as_str(),
                                    expected,
                                    "{role} {team} {identity} {fable} {intensity}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 8 * 3 * 6 * 2 * 3 * 2 * 2);
}
