//! `files` with a `{role}` pattern (as `default`, say) and `missing = "empty"` on `files`
//! and `texts`: a real prompt tree's board roles share one file, every other role reads its
//! own, and a role without one gets no text; a role without an entry is out of scope.

use crate::support;
use doctrine_codegen::model::{Content, RoleId};
use support::{errors, load_with};

const ROLES: &str = "roles = [\"product_owner\", \"auditor\", \"dev\", \"qa\"]\n";

fn board(missing: &str) -> String {
    format!(
        "{ROLES}[[layer]]\nname = \"role\"\nfiles = {{ product_owner = \"roles/board.md\", auditor = \"roles/board.md\", default = \"roles/{{role}}.md\" }}\n{missing}"
    )
}

const FILES: &[(&str, &[u8])] = &[("roles/board.md", b"Board."), ("roles/dev.md", b"Dev.")];

/// Each role's text, by role index.
fn texts(manifest: &str) -> Vec<String> {
    let d = load_with(manifest, FILES).unwrap();
    let Content::PerRole(groups) = &d.layers[0].content else {
        panic!("per-role content expected")
    };
    (0..4)
        .map(|r| {
            let g = groups
                .iter()
                .find(|g| g.roles.contains(&RoleId(r)))
                .unwrap();
            d.texts[g.text].body.clone()
        })
        .collect()
}

#[test]
fn a_pattern_default_reads_each_roles_own_file() {
    assert_eq!(
        texts(&board("missing = \"empty\"\n")),
        ["Board.", "Board.", "Dev.", ""]
    );
}

#[test]
fn without_missing_empty_a_missing_file_is_one_error_naming_pattern_and_role() {
    let errs = errors(&board(""), FILES);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].contains("missing file `roles/qa.md`: pattern `roles/{role}.md` for role `qa`"),
        "{}",
        errs[0]
    );
    assert!(errs[0].contains("set `missing = \"empty\"`"), "{}", errs[0]);
}

#[test]
fn a_role_without_an_entry_is_out_of_scope_with_missing_empty() {
    for content in [
        "texts = { dev = \"D.\", qa = \"Q.\" }",
        "files = { dev = \"roles/dev.md\", qa = \"roles/dev.md\" }",
    ] {
        let manifest = format!("{ROLES}[[layer]]\nname = \"x\"\n{content}\nmissing = \"empty\"\n");
        let d = load_with(&manifest, FILES).unwrap();
        assert_eq!(
            d.layers[0].scope,
            Some(vec![RoleId(2), RoleId(3)]),
            "{content}"
        );
        // Without it, each role without an entry is an error, as before.
        let errs = errors(&manifest.replace("missing = \"empty\"\n", ""), FILES);
        assert_eq!(errs.len(), 2, "{errs:#?}");
        assert!(
            errs[0].contains("`product_owner` has no entry"),
            "{}",
            errs[0]
        );
    }
}

#[test]
fn missing_applies_to_patterns_files_and_texts_only() {
    let errs = errors(
        &format!("{ROLES}[[layer]]\nname = \"x\"\ntext = \"T.\"\nmissing = \"empty\"\n"),
        &[],
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0]
            .contains("`missing` applies to a `file` with a `{role}` pattern, `files` or `texts`"),
        "{}",
        errs[0]
    );
}
