//! Cache tiers (`examples/crew/tiered.toml`): the prompt's blocks, one per tier with text,
//! in order, each cached tier's ending with a breakpoint; the shared block the same bytes
//! for every role; every earlier tier's bytes unchanged whatever a later tier is given; the
//! provider adapters; and the untiered manifest's two blocks.

use doctrine::cache::{anthropic_system, openai_string, CacheControl};
use doctrine::introspect::Stability;
use proptest::prelude::*;

pub(crate) mod tiered {
    doctrine::doctrine!("../../examples/crew/tiered.toml");
}

use tiered::{Identity, Intensity, Role, Team};

/// The inputs of one composition, by tier: the role's (`role`, the flag, the knob), the
/// session's (team, identity, tools) and the turn's (ambient text).
#[derive(Clone, Debug)]
struct Inputs {
    role: Role,
    fable: bool,
    intensity: Intensity,
    team: Team,
    identity: Identity,
    tools: Vec<String>,
    ambient: Option<String>,
}

fn compose(i: &Inputs) -> tiered::Prompt {
    let tools: Vec<&str> = i.tools.iter().map(String::as_str).collect();
    let facts = tiered::Facts::from(i.role).with_tools(&tools);
    tiered::compose(facts, i.team, i.identity)
        .flag(tiered::Flag::Fable, i.fable)
        .knobs(tiered::Knobs {
            intensity: i.intensity,
        })
        .ambient(i.ambient.as_deref())
        .finish()
}

fn plain(role: Role) -> Inputs {
    Inputs {
        role,
        fable: true,
        intensity: Intensity::Full,
        team: Team::Backend,
        identity: Identity::BeDev1,
        tools: vec!["the repository".into()],
        ambient: Some("Mind the release freeze.".into()),
    }
}

/// Each block's tier, breakpoint and text.
fn blocks(p: &tiered::Prompt) -> Vec<(&'static str, bool, &str)> {
    p.blocks().map(|b| (b.tier, b.breakpoint, b.text)).collect()
}

#[test]
fn a_prompt_is_one_block_per_tier_each_cached_one_ending_with_a_breakpoint() {
    let p = compose(&plain(Role::Developer));
    let got = blocks(&p);
    let tiers: Vec<(&str, bool)> = got.iter().map(|&(t, b, _)| (t, b)).collect();
    assert_eq!(
        tiers,
        [
            ("shared", true),
            ("role", true),
            ("session", true),
            ("turn", false)
        ]
    );
    assert_eq!(got.iter().map(|b| b.2).collect::<String>(), p.as_str());
    // The separator before a block's first layer is the block's: the shared block is the
    // base layer exactly, and the turn's block is the separator and the ambient text.
    assert_eq!(got[0].2, p.layer("base").unwrap());
    assert_eq!(got[3].2, format!("\n\n---\n\n{}", p.volatile()));
    assert!(got[1].2.starts_with("\n\n---\n\n") && got[2].2.starts_with("\n\n---\n\n"));
    // The stable prefix is every cached block; the volatile part, the last one's text.
    assert_eq!(p.stable(), format!("{}{}{}", got[0].2, got[1].2, got[2].2));
    for s in p.sections() {
        let expected = if s.info.tier_name == "turn" {
            Stability::Volatile
        } else {
            Stability::Stable
        };
        assert_eq!(s.info.stability, expected, "{}", s.info.name);
    }
    let index: Vec<usize> = p.blocks().map(|b| b.tier_index).collect();
    assert_eq!(index, [0, 1, 2, 3]);
}

#[test]
fn a_tier_without_text_has_no_block_and_its_neighbours_stay_exact() {
    let mut i = plain(Role::Qa);
    i.ambient = None;
    let p = compose(&i);
    let tiers: Vec<&str> = p.blocks().map(|b| b.tier).collect();
    assert_eq!(tiers, ["shared", "role", "session"]);
    assert_eq!(p.blocks().map(|b| b.text).collect::<String>(), p.as_str());
    assert!(p.blocks().all(|b| b.breakpoint));
}

#[test]
fn the_shared_block_is_the_same_bytes_for_every_role() {
    let shared: Vec<String> = Role::ALL
        .iter()
        .map(|&r| compose(&plain(r)).blocks().next().unwrap().text.to_string())
        .collect();
    assert!(shared.iter().all(|s| s == &shared[0]), "{shared:#?}");
    assert!(shared[0].starts_with("# Crew base rules"));
    // The role blocks differ: what is shared is only what the compiler proved shared.
    let roles: std::collections::BTreeSet<String> = Role::ALL
        .iter()
        .map(|&r| compose(&plain(r)).blocks().nth(1).unwrap().text.to_string())
        .collect();
    assert!(roles.len() > 1);
}

/// The prefix through the shared tier is known at compile time, once for every role; the
/// later tiers hang on run-time inputs (the flag, the choices), so they have no constant.
#[test]
fn the_shared_prefix_is_a_constant() {
    let p = compose(&plain(Role::Writer));
    let shared = p.blocks().next().unwrap().text;
    assert_eq!(shared.len(), tiered::prefix::shared::LEN);
    assert_eq!(
        doctrine::cache::fingerprint(shared.as_bytes()),
        tiered::prefix::shared::FINGERPRINT
    );
}

#[test]
fn the_adapters_mark_every_cached_block_and_nothing_else() {
    let p = compose(&plain(Role::Pm));
    let system = anthropic_system(&p);
    assert_eq!(system.len(), 4);
    let marks: Vec<Option<CacheControl>> = system.iter().map(|b| b.cache_control).collect();
    let e = Some(CacheControl::Ephemeral);
    assert_eq!(marks, [e, e, e, None]);
    assert_eq!(CacheControl::Ephemeral.kind(), "ephemeral");
    assert_eq!(
        system.iter().map(|b| b.text).collect::<String>(),
        p.as_str()
    );
    assert_eq!(openai_string(&p), p.as_str());
}

#[test]
fn explain_names_each_layer_tier() {
    let p = compose(&plain(Role::Developer));
    let table = p.explain().to_string();
    let tier_of = |layer: &str| {
        let row = table
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(layer))
            .unwrap();
        row.split_whitespace().nth(2).unwrap().to_string()
    };
    assert_eq!(tier_of("base"), "shared");
    assert_eq!(tier_of("role"), "role");
    assert_eq!(tier_of("team"), "session");
    assert_eq!(tier_of("ambient"), "turn");
    // A closing line sizes each block, in the order the provider reads them.
    let sizes: Vec<String> = p
        .blocks()
        .map(|b| format!("{} {} bytes", b.tier, b.text.len()))
        .collect();
    let line = table.lines().find(|l| l.starts_with("blocks: ")).unwrap();
    for size in &sizes {
        assert!(line.contains(size.as_str()), "{line}");
    }
    assert_eq!(line.matches("breakpoint").count(), 3, "{line}");
}

/// Without declared tiers a prompt has the two it always had: `stable` with a breakpoint,
/// then `volatile`.
#[test]
fn an_untiered_prompt_is_its_stable_and_volatile_blocks() {
    use crate::crew::crew;
    let facts = crew::Facts::from(crew::Role::Developer).with_tools(&["the repository"]);
    let p = crew::compose(facts, crew::Team::Backend, crew::Identity::BeDev1)
        .ambient("Now.")
        .finish();
    let got: Vec<(&str, bool, &str)> = p.blocks().map(|b| (b.tier, b.breakpoint, b.text)).collect();
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].0, got[0].1, got[0].2), ("stable", true, p.stable()));
    assert_eq!((got[1].0, got[1].1), ("volatile", false));
    // The separator between the two is the volatile block's (`volatile()` leaves it out).
    assert_eq!(got[1].2, &p.as_str()[p.stable().len()..]);
    assert_eq!(got[1].2, format!("{}{}", crew::SEPARATOR, p.volatile()));
    assert_eq!(got.iter().map(|b| b.2).collect::<String>(), p.as_str());
}

fn inputs() -> impl Strategy<Value = Inputs> {
    let tool = prop::sample::select(vec!["the repository", "the board", "", "a, b", "{x}"]);
    (
        prop::sample::select(Role::ALL.to_vec()),
        any::<bool>(),
        prop::sample::select(Intensity::ALL.to_vec()),
        prop::sample::select(Team::ALL.to_vec()),
        prop::sample::select(Identity::ALL.to_vec()),
        prop::collection::vec(tool.prop_map(String::from), 0..4),
        prop::option::of("[ -~\n]{0,40}"),
    )
        .prop_map(
            |(role, fable, intensity, team, identity, tools, ambient)| Inputs {
                role,
                fable,
                intensity,
                team,
                identity,
                tools,
                ambient,
            },
        )
}

/// The text of the blocks of tiers up to `tier` (the prefix a breakpoint there caches).
fn through(p: &tiered::Prompt, tier: usize) -> String {
    p.blocks()
        .filter(|b| b.tier_index <= tier)
        .map(|b| b.text)
        .collect()
}

proptest! {
    /// Whatever a later tier is given (the session's team, identity and tools, the turn's
    /// text), every earlier tier's bytes are unchanged; the blocks are the whole text; the
    /// breakpoints stay within the manifest's limit (4).
    #[test]
    fn later_tier_inputs_never_move_an_earlier_tier(a in inputs(), b in inputs()) {
        let pa = compose(&a);
        // `b`'s session and turn, `a`'s role: the shared and role tiers are unchanged.
        let session = Inputs { role: a.role, fable: a.fable, intensity: a.intensity, ..b.clone() };
        let ps = compose(&session);
        prop_assert_eq!(through(&pa, 1), through(&ps, 1));
        // `b`'s turn only: the session tier is unchanged too.
        let turn = Inputs { ambient: b.ambient.clone(), ..a.clone() };
        let pt = compose(&turn);
        prop_assert_eq!(through(&pa, 2), through(&pt, 2));
        prop_assert_eq!(pa.stable(), pt.stable());
        // Another role entirely: the shared tier is unchanged.
        let pb = compose(&b);
        prop_assert_eq!(through(&pa, 0), through(&pb, 0));
        for p in [&pa, &ps, &pt, &pb] {
            prop_assert_eq!(p.blocks().map(|b| b.text).collect::<String>(), p.as_str());
            prop_assert!(p.blocks().filter(|b| b.breakpoint).count() <= 4);
            let order: Vec<usize> = p.blocks().map(|b| b.tier_index).collect();
            prop_assert!(order.windows(2).all(|w| w[0] < w[1]), "{:?}", order);
        }
    }
}
