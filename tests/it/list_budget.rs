//! `max_bytes` on a list fact: the list cut at a character boundary where its budget
//! ends, said in a notice and in `explain()`; lowered at run time by the builder.

use doctrine::introspect::NoticeKind;

mod budget {
    doctrine::doctrine!("../fixtures/list_budget.toml");
}

use budget::{compose, Facts};

#[test]
fn a_list_over_its_budget_is_cut_with_a_notice_and_an_explain_line() {
    let docs = ["first doc", "second doc"];
    let p = compose(Facts {
        docs: &docs,
        args: &[],
    })
    .finish();
    // 12 bytes: "first doc\nse"; the loop's "<first doc><s" likewise.
    assert_eq!(p.layer("docs"), Some("first doc\nse"));
    assert_eq!(p.layer("looped"), Some("<first doc><"));
    let notices = p.notices();
    let cut: Vec<_> = notices
        .iter()
        .filter(|n| n.kind == NoticeKind::ListCut)
        .collect();
    assert_eq!(cut.len(), 1, "{notices:?}");
    assert_eq!(cut[0].subject, "fact `docs`");
    assert!(
        cut[0].message.contains("cut to 12 of 20 bytes"),
        "{}",
        cut[0].message
    );
    let explain = p.explain().to_string();
    assert!(
        explain.contains("list fact `docs` cut to 12 of 20 bytes by its byte budget"),
        "{explain}"
    );
}

#[test]
fn a_list_within_its_budget_has_no_notice() {
    let docs = ["short"];
    let p = compose(Facts {
        docs: &docs,
        args: &[],
    })
    .finish();
    assert_eq!(p.layer("docs"), Some("short"));
    assert!(p.notices().is_empty());
    assert!(p.cuts().is_empty());
}

#[test]
fn the_builder_lowers_the_budget_and_never_raises_it() {
    let docs = ["éé doc", "other"];
    // "éé doc" is 8 bytes; 3 ends inside the second `é`: cut before it.
    let p = compose(Facts {
        docs: &docs,
        args: &[],
    })
    .max_bytes_docs(3)
    .finish();
    assert_eq!(p.layer("docs"), Some("é"));
    assert_eq!(p.cuts()[0].printed, 2);
    let p = compose(Facts {
        docs: &docs,
        args: &[],
    })
    .max_bytes_docs(usize::MAX)
    .finish();
    assert_eq!(p.layer("docs"), Some("éé doc\noth"));
}

/// A budget of 0 prints nothing: the list is absent, so the layer gated on it is left out
/// (never an empty section), and the cut is still reported.
#[test]
fn a_budget_of_zero_leaves_the_list_absent() {
    let docs = ["anything"];
    let p = compose(Facts {
        docs: &docs,
        args: &[],
    })
    .max_bytes_docs(0)
    .finish();
    assert_eq!(p.as_str(), "");
    assert_eq!(p.layer("docs"), None);
    assert_eq!(p.cuts().len(), 1);
}

/// A list of JSON-escaped items is cut after its last whole item, so what reaches the
/// prompt is still JSON; the `more` line counts what the budget left out.
#[test]
fn escaped_items_are_cut_whole() {
    let args = ["say \"hi\"", "b", "long enough to overflow"];
    let p = compose(Facts {
        docs: &[],
        args: &args,
    })
    .finish();
    // `"say \"hi\""` is 12 bytes; `, "b"` would make 17 > 16; `, "+2"` too.
    assert_eq!(p.layer("args"), Some(r#"["say \"hi\""]"#));
    let cut = &p.cuts()[0];
    assert_eq!((cut.name, cut.printed), ("args", 12));
    let p = compose(Facts {
        docs: &[],
        args: &args[1..],
    })
    .finish();
    assert_eq!(p.layer("args"), Some(r#"["b", "+1"]"#));
}

/// A budget given by name (`cargo doctrine render --max-bytes docs=N`) composes what the
/// builder's `.max_bytes_docs(n)` composes: the list, its loop, the cut and its notice.
#[test]
fn a_budget_given_by_name_composes_as_the_builder_s() {
    use doctrine_codegen::named::Named;
    let d = super::plan_parity::loaded("../fixtures/list_budget.toml");
    let built = doctrine_codegen::plan::build(&d);
    let docs = ["éé doc", "other"];
    for n in [0, 3, 5, 12, usize::MAX] {
        let typed = compose(Facts {
            docs: &docs,
            args: &[],
        })
        .max_bytes_docs(n)
        .finish();
        let named = Named {
            facts: docs
                .iter()
                .map(|d| ("docs".into(), d.to_string()))
                .collect(),
            max_bytes: vec![("docs".into(), n)],
            ..Named::default()
        };
        let (_, ours) = super::render_parity::rendered(&d, &built, &named);
        super::render_parity::same(&ours, &typed, &format!("max_bytes {n}"));
        assert_eq!(ours.cuts(), typed.cuts(), "{n}");
        assert_eq!(ours.notices(), typed.notices(), "{n}");
    }
}
