//! Every manifest error as data: `tests/errors/<case>.toml` is a manifest that must not
//! compile, and `<case>.diag` holds the diagnostics the macro reports for it, in order, as
//! rustc prints them (`error: file:line:col: message`, then `  help: …`), one blank line
//! apart: `Diagnostics::rendered`, which `cargo doctrine check` prints too (its tests run
//! every case here through the binary). The manifests go through the code generator as a
//! library, exactly as the macro calls it (judged from their own directory, inside this
//! crate), so no rustc is needed. One case also goes through rustc, by trybuild
//! (`doctrine/tests/ui/fail/several_errors.rs`): there the diagnostics land on the macro's
//! string literal, and they read as its `.diag`.
//!
//! A build that counts tokens (feature `tokens`, which a workspace build of the tests turns
//! on) checks `[budget] tokens` where a plain build refuses it: where its diagnostics
//! differ they are pinned in `<case>.tokens.diag` (`support::error_cases::expected`). Such a
//! build checks every case twice, the second time as a build without the feature
//! (`without_token_counts`), so one test run pins both.
//!
//! After changing a message: `DOCTRINE_BLESS=1 cargo test --test it manifest_errors`
//! rewrites the `.diag` files; read `git diff tests/errors` before committing.

use std::path::{Path, PathBuf};

use doctrine_codegen::{generate, Request};

/// `path` relative to the crate directory, with `/` separators, for messages.
fn shown(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.to_string_lossy().replace('\\', "/")
}

/// The manifest a `.diag` file pins: `<case>.toml` for `<case>.diag` and
/// `<case>.tokens.diag` alike.
fn manifest_of(diag: &Path) -> PathBuf {
    let name = diag.file_name().unwrap().to_str().unwrap();
    let stem = name
        .strip_suffix(".tokens.diag")
        .or_else(|| name.strip_suffix(".diag"))
        .unwrap_or(name);
    diag.with_file_name(format!("{stem}.toml"))
}

#[test]
fn every_case_reports_its_pinned_diagnostics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests/errors");
    let bless = std::env::var_os("DOCTRINE_BLESS").is_some();
    let cases = crate::support::error_cases::cases(root);
    let mut failures = Vec::new();
    let counts = doctrine_codegen::__internals::COUNTS_TOKENS;
    // Without first, so that blessing writes `<case>.diag` before comparing against it.
    let builds: &[bool] = if counts { &[false, true] } else { &[false] };
    for case in &cases {
        let name = case.file_name().unwrap().to_str().unwrap();
        for &tokens in builds {
            let run = || generate(&Request::new(name, &dir, root));
            let result = match tokens {
                true => run(),
                false => doctrine_codegen::__internals::without_token_counts(run),
            };
            let actual = match result {
                Ok(_) => {
                    failures.push(format!(
                        "{}: compiled, but a case must fail",
                        shown(case, root)
                    ));
                    break;
                }
                Err(d) => d.rendered(),
            };
            if bless {
                // A build that counts tokens pins its own diagnostics only where they differ.
                let plain = case.with_extension("diag");
                if !tokens {
                    std::fs::write(&plain, &actual).unwrap();
                    continue;
                }
                let own = case.with_extension("tokens.diag");
                let _ = std::fs::remove_file(&own);
                if std::fs::read_to_string(&plain).ok() != Some(actual.clone()) {
                    std::fs::write(&own, &actual).unwrap();
                }
                continue;
            }
            let expected_path = crate::support::error_cases::expected(case, tokens);
            match std::fs::read_to_string(&expected_path) {
                Ok(expected) if expected == actual => {}
                Ok(expected) => {
                    failures.push(format!(
                    "{}: the diagnostics differ{}\n--- expected\n{expected}--- actual\n{actual}",
                    shown(&expected_path, root),
                    if counts && !tokens { " (as a build without `tokens`)" } else { "" }
                ))
                }
                Err(e) => failures.push(format!("{}: {e}", shown(&expected_path, root))),
            }
        }
    }
    // A `.diag` without its manifest pins nothing: a renamed or deleted case.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let manifest = manifest_of(&path);
        if path.extension().is_some_and(|e| e == "diag") && !manifest.is_file() {
            failures.push(format!("{}: no manifest beside it", shown(&path, root)));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\n{} of {} cases fail; after a deliberate change run \
         `DOCTRINE_BLESS=1 cargo test --test it manifest_errors` and read `git diff tests/errors`",
        failures.join("\n\n"),
        failures.len(),
        cases.len()
    );
}

/// `several_errors` is a trybuild case too, in the facade's crate directory (a copy of the
/// manifest): what rustc printed there is this directory's `several_errors.diag`, once its
/// continuation lines lose rustc's indent and the directory is renamed. So the `.diag`
/// files say what a user sees.
#[test]
fn the_diag_files_hold_what_rustc_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ui = root.join("doctrine/tests/ui/fail");
    let read = |p: PathBuf| {
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", shown(&p, root)))
    };
    assert_eq!(
        read(ui.join("several_errors.toml")),
        read(root.join("tests/errors/several_errors.toml")),
        "the trybuild case's manifest is a copy of the error case's"
    );
    let mut blocks: Vec<String> = Vec::new();
    let mut open = false;
    for line in read(ui.join("several_errors.stderr")).lines() {
        if line.starts_with("error: ") {
            blocks.push(format!("{line}\n"));
            open = true;
        } else if line.starts_with(" --> ") {
            open = false;
        } else if let (true, Some(block)) = (open, blocks.last_mut()) {
            block.push_str(line.strip_prefix("       ").unwrap_or(line));
            block.push('\n');
        }
    }
    assert_eq!(blocks.len(), 3, "{blocks:#?}");
    assert_eq!(
        blocks.join("\n").replace("tests/ui/fail/", "tests/errors/"),
        read(root.join("tests/errors/several_errors.diag"))
    );
}
