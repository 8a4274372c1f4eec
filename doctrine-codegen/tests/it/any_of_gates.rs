//! Alternatives in `when`/`unless` get the checks single conditions get, and `layer:` may
//! name a selector layer.

use crate::support;
use support::{errors, load_with};

const HEAD: &str = "[flags]\na = false\nb = false\n\n[[layer]]\nname = \"spine\"\ntext = \"S.\"\nselector = \"spine\"\n\n[[layer]]\nname = \"turn\"\nslot = \"optional\"\ntier = \"volatile\"\n";

fn with(layer: &str) -> String {
    // The layer under test comes between the two, so it may be stable.
    HEAD.replace(
        "\n[[layer]]\nname = \"turn\"",
        &format!("\n{layer}\n[[layer]]\nname = \"turn\""),
    )
}

#[test]
fn alternatives_are_read_and_checked_like_single_conditions() {
    let d = load_with(
        &with(
            "[[layer]]\nname = \"x\"\ntext = \"X.\"\nwhen = [[\"a\", \"!layer:spine\"], [\"b\"]]\n",
        ),
        &[],
    )
    .unwrap();
    let x = &d.layers[1];
    let written: Vec<Vec<&str>> = x
        .when_any
        .iter()
        .map(|g| g.iter().map(|c| c.written.as_str()).collect())
        .collect();
    assert_eq!(written, [vec!["a", "!layer:spine"], vec!["b"]]);
    assert!(x.when.is_empty() && x.is_gated());

    let errs = errors(
        &with("[[layer]]\nname = \"x\"\ntext = \"X.\"\nunless = [[\"a\"], [\"bb\"]]\n"),
        &[],
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].contains("is gated on `bb`, which names no flag or fact"),
        "{}",
        errs[0]
    );
    assert!(errs[0].contains("did you mean `b`?"), "{}", errs[0]);
    let errs = errors(
        &with(
            "[[layer]]\nname = \"x\"\ntext = \"X.\"\nunless = [[\"a\"], [\"b\", \"layer:turn\"]]\n",
        ),
        &[],
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].contains("stable layer `x` is gated on volatile layer `turn`"),
        "{}",
        errs[0]
    );
}

#[test]
fn mixed_or_empty_alternatives_are_refused() {
    let errs = errors(
        &with("[[layer]]\nname = \"x\"\ntext = \"X.\"\nwhen = [\"a\", [\"b\"]]\n"),
        &[],
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].contains("layer `x` mixes single names with alternatives in `when`"),
        "{}",
        errs[0]
    );
    assert!(
        errs[0].contains("write every alternative as an array"),
        "{}",
        errs[0]
    );
    let errs = errors(
        &with("[[layer]]\nname = \"x\"\ntext = \"X.\"\nunless = [[\"a\"], []]\n"),
        &[],
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].contains("layer `x` has an empty alternative in `unless`"),
        "{}",
        errs[0]
    );
    // Mixed, the names are still read: one naming nothing is reported too.
    let errs = errors(
        &with("[[layer]]\nname = \"x\"\ntext = \"X.\"\nunless = [\"a\", [\"nope\"]]\n"),
        &[],
    );
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(
        errs[0].contains("mixes single names with alternatives in `unless`"),
        "{}",
        errs[0]
    );
    assert!(errs[1].contains("`nope`"), "{}", errs[1]);
}

#[test]
fn a_locked_layer_may_not_be_gated_on_a_selector_layer() {
    let errs = errors(
        &with("[[layer]]\nname = \"x\"\ntext = \"X.\"\nlocked = true\nwhen = \"!layer:spine\"\n"),
        &[],
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].contains("locked layer `x` is gated on selector layer `spine`, which is in only when a user's file for it is usable"),
        "{}",
        errs[0]
    );
}

/// A fact is checked when every alternative of `when` requires it: each alternative that
/// includes the layer gives the fact, so the layer may print it. One alternative without
/// it is a way in without the fact, and the print is refused at the placeholder.
#[test]
fn an_optional_fact_is_gated_when_every_alternative_requires_it() {
    let fact = "[facts.cwd]\ntier = \"stable\"\noptional = [\"*\"]\n\n";
    let layer = |when: &str| {
        let x = format!(
            "[[layer]]\nname = \"x\"\ntext = \"In {{cwd}}.\"\ninterpolate = true\nwhen = {when}\n"
        );
        format!("{fact}{}", with(&x))
    };
    let d = load_with(&layer(r#"[["cwd", "a"], ["cwd", "b"]]"#), &[]).unwrap();
    assert_eq!(d.layers[1].when_any.len(), 2);
    // `cwd=value` requires it too.
    load_with(&layer(r#"[["cwd=/r", "a"], ["b", "cwd"]]"#), &[]).unwrap();
    for refused in [r#"[["cwd", "a"], ["b"]]"#, r#"[["!cwd", "a"], ["cwd"]]"#] {
        let errs = errors(&layer(refused), &[]);
        assert_eq!(errs.len(), 1, "{refused}: {errs:#?}");
        assert!(
            errs[0].starts_with("doctrine.toml:16:8: fact `cwd` is optional for the prompt, but layer `x` prints it without checking it is there"),
            "{}",
            errs[0]
        );
    }
}
