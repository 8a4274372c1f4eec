//! List facts: given as `&[&str]`, printed item by item, sorted and capped as the
//! manifest says, absent when empty.

mod l {
    doctrine::doctrine!("fixtures/lists.toml");
}

use l::{DevFacts, Facts, OpsFacts, Role};

#[test]
fn a_list_prints_joined_and_a_capped_list_says_what_it_left_out() {
    let p = l::compose(DevFacts {
        tools: &["read", "write", "bash"],
        skills: &["testing", "", "deploy", "review"],
    })
    .finish();
    assert_eq!(
        p.as_str(),
        "Tools: read, write, bash.|Skills:\n- deploy\n- review\n- (1 more)"
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

proptest::proptest! {
    /// With `sort = true`, the printed list does not depend on the order it was given in.
    #[test]
    fn a_sorted_list_is_independent_of_input_order(
        items in proptest::collection::vec("[a-z]{0,6}", 0..8),
        seed in proptest::prelude::any::<u64>(),
    ) {
        let mut shuffled = items.clone();
        // A deterministic shuffle from the seed.
        let n = shuffled.len();
        for i in (1..n).rev() {
            let j = (seed.wrapping_mul(6364136223846793005).wrapping_add(i as u64) % (i as u64 + 1)) as usize;
            shuffled.swap(i, j);
        }
        let print = |list: &[String]| {
            let refs: Vec<&str> = list.iter().map(String::as_str).collect();
            l::compose(OpsFacts { tools: &[], skills: &refs }).finish().into_string()
        };
        proptest::prop_assert_eq!(print(&items), print(&shuffled));
    }
}
