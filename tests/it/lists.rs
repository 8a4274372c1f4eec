//! List facts: given as `&[&str]`, printed item by item, sorted and capped as the
//! manifest says, absent when empty.

mod l {
    doctrine::doctrine!("../fixtures/lists.toml");
}

use l::{DevFacts, Facts, GuidesItem, OpsFacts, Role};

#[test]
fn a_list_prints_joined_and_a_capped_list_says_what_it_left_out() {
    let p = l::compose(DevFacts {
        tools: &["read", "write", "bash"],
        skills: &["testing", "", "deploy", "review"],
        guides: &[],
    })
    .finish();
    assert_eq!(
        p.as_str(),
        "Tools: read, write, bash.|Skills:\n- deploy\n- review\n- (1 more)"
    );
}

#[test]
fn items_with_fields_print_through_the_template_sorted_by_their_field() {
    let guide = |name, when| GuidesItem { name, when };
    let p = l::compose(DevFacts {
        tools: &["read"],
        skills: &[],
        guides: &[
            guide("testing", "before a merge"),
            guide("", ""),
            guide("deploy", ""),
            guide("bisect", "when a test starts failing"),
            guide("zig", "never"),
            guide("", "a when without a name still prints"),
        ],
    })
    .finish();
    assert_eq!(
        p.as_str(),
        "Tools: read.|Guides:\n\
         - **** — a when without a name still prints\n\
         - **bisect** — when a test starts failing\n\
         - **deploy**\n\
         - (2 more guides)"
    );
}

#[test]
fn an_empty_list_is_absent() {
    let p = l::compose(OpsFacts {
        tools: &[],
        skills: &[""],
    })
    .finish();
    assert_eq!(p.as_str(), "");
    let why = p.explain().to_string();
    assert!(why.contains("fact `tools` absent"), "{why}");
}

#[test]
fn pairs_cannot_give_a_list() {
    let e = Facts::from_pairs(Role::Ops, [("tools", "read")]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "fact `tools` is a list: set it on the facts struct as a slice"
    );
}

/// A deterministic shuffle of `items` from `seed`.
fn shuffle<T: Clone>(items: &[T], seed: u64) -> Vec<T> {
    let mut out = items.to_vec();
    for i in (1..out.len()).rev() {
        let j = (seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(i as u64)
            % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out
}

proptest::proptest! {
    /// With `sort = true`, the printed list does not depend on the order it was given in.
    #[test]
    fn a_sorted_list_is_independent_of_input_order(
        items in proptest::collection::vec("[a-z]{0,6}", 0..8),
        seed in proptest::prelude::any::<u64>(),
    ) {
        let shuffled = shuffle(&items, seed);
        let print = |list: &[String]| {
            let refs: Vec<&str> = list.iter().map(String::as_str).collect();
            l::compose(OpsFacts { tools: &[], skills: &refs }).finish().into_string()
        };
        proptest::prop_assert_eq!(print(&items), print(&shuffled));
    }

    /// Items with fields too, ties on the sort key included.
    #[test]
    fn sorted_items_are_independent_of_input_order(
        items in proptest::collection::vec(("[ab]{0,2}", "[xy]{0,2}"), 0..8),
        seed in proptest::prelude::any::<u64>(),
    ) {
        let shuffled = shuffle(&items, seed);
        let print = |list: &[(String, String)]| {
            let guides: Vec<GuidesItem> = list.iter().map(|(name, when)| GuidesItem { name, when }).collect();
            l::compose(DevFacts { tools: &["t"], skills: &[], guides: &guides }).finish().into_string()
        };
        proptest::prop_assert_eq!(print(&items), print(&shuffled));
    }
}
