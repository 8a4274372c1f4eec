//! `claims` on a locked layer: words the manifest adds to the safety-claims tripwire. Every
//! entry must be able to match, only a locked layer may carry the key, and only in a
//! manifest with an instructions layer; each problem is reported at its
//! `doctrine.toml:line:col` with a fix.

use doctrine_codegen::model::Doctrine;
use doctrine_codegen::Diagnostics;

use crate::support;

/// `manifest` with an instructions layer after it, whose instructions the words are for
/// (after, so the positions in `manifest` are the ones errors name).
fn with_notes(manifest: &str) -> String {
    format!("{manifest}[[layer]]\nname = \"notes\"\ninstructions = true\n")
}

fn run(manifest: &str) -> Result<Doctrine, Diagnostics> {
    support::load_with(&with_notes(manifest), &[])
}

fn errors(manifest: &str) -> Vec<String> {
    support::errors(&with_notes(manifest), &[])
}

const LOCKED: &str =
    "[[layer]]\nname = \"deploy\"\ntext = \"Never deploy on Fridays.\"\nlocked = true\n";

#[test]
fn words_are_kept_normalised_in_manifest_order() {
    let d = run(&format!(
        "{LOCKED}claims = {{ verbs = [\"Thaw\"], objects = [\"the  **deploy freeze**\"], phrases = [\"Ops said it\u{2019}s fine\"] }}\n\
         [[layer]]\nname = \"other\"\ntext = \"o\"\nlocked = true\nclaims = {{ actions = [\"Ship on Friday\"] }}\n"
    ))
    .unwrap();
    let got: Vec<_> = d
        .claims
        .iter()
        .map(|c| {
            (
                c.layer.as_str(),
                &c.verbs,
                &c.objects,
                &c.actions,
                &c.phrases,
            )
        })
        .collect();
    assert_eq!(
        format!("{got:?}"),
        r#"[("deploy", ["thaw"], ["the deploy freeze"], [], ["ops said it's fine"]), ("other", [], [], ["ship on friday"], [])]"#
    );
    // A manifest without `claims` adds nothing.
    assert!(run(LOCKED).unwrap().claims.is_empty());
}

#[test]
fn generated_functions_pass_the_words_with_their_layer() {
    let manifest = format!("{LOCKED}claims = {{ verbs = [\"thaw\"], phrases = [\"ok\"] }}\n");
    let code = support::generate_with(&with_notes(&manifest), &[])
        .unwrap()
        .to_string();
    let code: String = code.split_whitespace().collect();
    // The built-in patterns by default, any tripwire through `safety_claims_with`; only the
    // lists the manifest gives.
    assert!(
        code.contains("pubfnsafety_claims(instructions:&[::doctrine::instructions::Instruction<'_>],)->::std::vec::Vec<::doctrine::introspect::Notice>{safety_claims_with(instructions,&::doctrine::tripwire::Patterns)}"),
        "{code}"
    );
    assert!(
        code.contains(r#"tripwire:&dyn::doctrine::tripwire::Tripwire,)->::std::vec::Vec<::doctrine::introspect::Notice>{::doctrine::tripwire::scan(instructions,&[::doctrine::tripwire::ClaimWords::of("deploy").verbs(&["thaw"]).phrases(&["ok"])],tripwire)}"#),
        "{code}"
    );
    // Without `claims`, the same functions with no words.
    let code = support::generate_with(&with_notes(LOCKED), &[])
        .unwrap()
        .to_string();
    let code: String = code.split_whitespace().collect();
    assert!(
        code.contains("::doctrine::tripwire::scan(instructions,&[],tripwire)"),
        "{code}"
    );
}

#[test]
fn without_an_instructions_layer_there_is_no_check_and_claims_are_an_error() {
    let code = support::generate_with(LOCKED, &[]).unwrap().to_string();
    assert!(!code.contains("safety_claims"), "{code}");
    let errs = support::errors(&format!("{LOCKED}claims = {{ verbs = [\"thaw\"] }}\n"), &[]);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].starts_with(
            "doctrine.toml:5:10: `claims` on layer `deploy`, but the manifest has no instructions layer"
        ),
        "{}",
        errs[0]
    );
    assert!(
        errs[0].contains("help: the generated `safety_claims`"),
        "{}",
        errs[0]
    );
    assert!(
        errs[0].contains("add a layer with `instructions = true`"),
        "{}",
        errs[0]
    );
}

#[test]
fn claims_on_a_layer_that_is_not_locked_is_an_error() {
    let errs = errors(
        "[[layer]]\nname = \"style\"\ntext = \"s\"\nclaims = { verbs = [\"thaw\"] }\n\
         [[layer]]\nname = \"tone\"\ntext = \"t\"\nlocked = false\nclaims = { verbs = [\"melt\"] }\n",
    );
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(
        errs[0].starts_with("doctrine.toml:4:10: `claims` on layer `style`, which is not locked"),
        "{}",
        errs[0]
    );
    assert!(
        errs[0].contains("help: add `locked = true` to layer `style`"),
        "{}",
        errs[0]
    );
    assert!(
        errs[1].starts_with("doctrine.toml:9:10: `claims` on layer `tone`"),
        "{}",
        errs[1]
    );
}

#[test]
fn unknown_keys_and_wrong_types_are_located() {
    let errs = errors(&format!("{LOCKED}claims = {{ verb = [\"thaw\"] }}\n"));
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(
        errs[0]
            .starts_with("doctrine.toml:5:12: unknown key `verb` in the claims of layer `deploy`"),
        "{}",
        errs[0]
    );
    assert!(errs[0].contains("did you mean `verbs`?"), "{}", errs[0]);
    // With only an unknown key, the table lists no words either.
    assert!(
        errs[1].contains("the claims of layer `deploy` list no words"),
        "{}",
        errs[1]
    );

    let errs = errors(&format!("{LOCKED}claims = {{ verbs = \"thaw\" }}\n"));
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].starts_with("doctrine.toml:5:"), "{}", errs[0]);
    assert!(errs[0].contains("expected an array"), "{}", errs[0]);
    let errs = errors(&format!("{LOCKED}claims = [\"thaw\"]\n"));
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].starts_with("doctrine.toml:5:10: invalid type: array, expected a table"),
        "{}",
        errs[0]
    );
}

#[test]
fn an_empty_table_is_an_error() {
    let errs = errors(&format!("{LOCKED}claims = {{ verbs = [] }}\n"));
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].starts_with("doctrine.toml:5:10: the claims of layer `deploy` list no words"),
        "{}",
        errs[0]
    );
    assert!(
        errs[0].contains("help: give at least one of"),
        "{}",
        errs[0]
    );
}

#[test]
fn entries_that_could_never_match_are_errors_at_the_entry() {
    let errs = errors(&format!(
        "{LOCKED}claims = {{ verbs = [\"thaw\", \"\", \"  \"], objects = [\"**\", \"deploy, freeze\"], phrases = [\"rm -rf .\", \"one. two\", \"line\\nbreak\", \"[freeze]:\"] }}\n"
    ));
    let at: Vec<(&str, &str)> = errs
        .iter()
        .map(|e| {
            let (loc, rest) = e.split_once(": `claims.").unwrap_or_else(|| panic!("{e}"));
            (loc, rest)
        })
        .collect();
    assert_eq!(at.len(), 7, "{errs:#?}");
    assert_eq!(at[0].0, "doctrine.toml:5:29");
    assert!(
        at[0]
            .1
            .starts_with("verbs` entry \"\" of layer `deploy` is empty"),
        "{}",
        at[0].1
    );
    assert_eq!(at[1].0, "doctrine.toml:5:33");
    assert!(at[1].1.contains("is empty"), "{}", at[1].1);
    assert_eq!(at[2].0, "doctrine.toml:5:51");
    assert!(at[2].1.contains("is empty once normalised"), "{}", at[2].1);
    assert_eq!(at[3].0, "doctrine.toml:5:57");
    assert!(
        at[3].1.contains("is not a run of words") && at[3].1.contains("reads as `deploy freeze`"),
        "{}",
        at[3].1
    );
    assert!(errs[3].contains("help: write whole words"), "{}", errs[3]);
    for (i, col) in [(4, 87), (5, 99), (6, 111)] {
        assert_eq!(at[i].0, format!("doctrine.toml:5:{col}"), "{}", at[i].1);
        assert!(at[i].1.contains("spans a sentence end"), "{}", at[i].1);
    }
    // Punctuation is fine in a phrase: "[freeze]:" was not reported.
    assert!(!errs.iter().any(|e| e.contains("[freeze]")), "{errs:#?}");
}
