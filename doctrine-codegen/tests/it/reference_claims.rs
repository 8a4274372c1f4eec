//! What the guide's manifest keys say (each page's "Manifest keys", which the reference
//! links to), checked against what the code does, for the claims a reader relies on and
//! that once disagreed with it.

use crate::support;
use doctrine_codegen::model::{Content, ItemPiece, RoleId};
use doctrine_core::instructions::{Authority, Instruction, LinePiece, Style};
use support::{errors, load_with};

/// The guide pages, one after another.
fn reference() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../doctrine/docs");
    let mut pages: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    pages
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

#[test]
fn a_lists_defaults_are_the_ones_the_reference_gives() {
    let d = load_with(
        "[facts.tools]\ntier = \"stable\"\noptional = [\"*\"]\nlist = {}\n[[layer]]\nname = \"t\"\ntext = \"{?tools}{tools}{/tools}\"\ninterpolate = true\n",
        &[],
    )
    .unwrap();
    let list = d.facts[0].list.as_ref().unwrap();
    assert_eq!(list.item, [ItemPiece::Field(0)]);
    assert_eq!(
        (list.join.as_str(), list.sort, list.max),
        ("\n", None, None)
    );
    assert_eq!(list.more, "(and {n} more)");
    assert!(!list.join_ends_line && !list.skip_blank && !list.budget_items);
    let says = "the defaults are `item = \"{0}\"`, `join = \"\\n\"`, `sort = false`, no `max`, `more = \"(and {n} more)\"` and `skip = \"empty\"`";
    assert!(
        reference().contains(says),
        "the guide no longer says: {says}"
    );
}

#[test]
fn a_provenance_template_leaves_out_the_line_of_a_blank_scope() {
    // What the generator emits for `provenance = "<!-- {scope} -->"`.
    static STYLE: Style = Style::templated(&[
        LinePiece::Lit("<!-- "),
        LinePiece::Scope,
        LinePiece::Lit(" -->"),
    ]);
    let ins = |scope| Instruction {
        source: Authority::User,
        scope,
        locked: false,
        text: "Be brief.",
    };
    for scope in ["", " \t "] {
        let mut out = String::new();
        STYLE.render(&[ins(scope)], &mut out);
        assert_eq!(out, "Be brief.", "{scope:?}");
    }
    assert!(reference().contains("the line is left out when the scope is empty or only whitespace"));
}

#[test]
fn a_texts_entry_for_default_gives_the_default_text() {
    let d = load_with(
        "roles = [\"a\", \"b\"]\n[[layer]]\nname = \"x\"\n[[layer.texts]]\nroles = [\"default\"]\ntext = \"D.\"\n[[layer.texts]]\nroles = [\"a\"]\ntext = \"A.\"\n",
        &[],
    )
    .unwrap();
    let Content::PerRole(groups) = &d.layers[0].content else {
        panic!("per-role content expected")
    };
    let text_of = |r| {
        let g = groups
            .iter()
            .find(|g| g.roles.contains(&RoleId(r)))
            .unwrap();
        d.texts[g.text].body.clone()
    };
    assert_eq!(
        (text_of(0), text_of(1)),
        ("A.".to_string(), "D.".to_string())
    );
    assert!(reference().contains("`roles = [\"default\"]` gives the `default` text"));
}

#[test]
fn a_negated_when_fact_points_to_when() {
    let errs = errors(
        "[facts.scope]\ntier = \"stable\"\noptional = [\"*\"]\n[[layer]]\nname = \"x\"\ntext = \"No scope.\"\nwhen_fact = \"!scope\"\n",
        &[],
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].contains("`when_fact` cannot be negated (`!scope`)"),
        "{}",
        errs[0]
    );
    assert!(
        errs[0].contains("write `when = \"!scope\"` instead"),
        "{}",
        errs[0]
    );
    assert!(!errs[0].contains("did you mean"), "{}", errs[0]);
}

#[test]
fn an_ungated_optional_fact_is_offered_a_section() {
    let errs = errors(
        "[facts.branch]\ntier = \"stable\"\noptional = [\"*\"]\n[[layer]]\nname = \"x\"\ntext = \"On {branch}.\"\ninterpolate = true\n",
        &[],
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].contains("gate the layer with `when = \"branch\"`, print it inside `{?branch}…{/branch}`, or make the fact required"),
        "{}",
        errs[0]
    );
}
