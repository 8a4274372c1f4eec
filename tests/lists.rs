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
