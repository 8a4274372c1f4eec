//! A module written ahead of time (`cargo doctrine expand --out`), committed and
//! `include!`d as a crate built without the macro would: it composes what the macro's
//! expansion composes, and the committed copy is what the tool writes today (so a change to
//! the generator or to the quickstart that forgets to write it again fails here). An edit to
//! a file it was generated from since is a compile error (its `content_hash` checks; the
//! facade's doc test "A module written ahead of time" shows one failing).

use std::path::Path;
use std::process::Command;

/// What `cargo doctrine expand --out tests/it/ahead/quickstart.rs
/// examples/quickstart/doctrine.toml` wrote, from the repository's root.
mod written {
    include!("ahead/quickstart.rs");
}

mod expanded {
    doctrine::doctrine!("../../examples/quickstart/doctrine.toml");
}

#[test]
fn the_module_written_ahead_composes_what_the_macro_composes() {
    let pairs = [
        (written::Role::Developer, expanded::Role::Developer),
        (written::Role::Reviewer, expanded::Role::Reviewer),
    ];
    for (w, e) in pairs {
        let (w, e) = (written::compose(w).finish(), expanded::compose(e).finish());
        assert_eq!(w.as_str(), e.as_str());
        assert!(w.as_str().len() > 100, "{}", w.as_str());
    }
}

/// The tool cargo built beside this test (`cargo test --workspace` builds it).
fn tool() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let tool = exe
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("cargo-doctrine");
    assert!(
        tool.is_file(),
        "{} is not built: run `cargo test --workspace`, which builds the tool",
        tool.display()
    );
    tool
}

fn check(module: &Path) -> std::process::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Command::new(tool())
        .args(["expand", "--check", "--out"])
        .arg(module)
        .arg("examples/quickstart/doctrine.toml")
        .current_dir(root)
        .output()
        .unwrap()
}

#[test]
fn the_committed_module_is_what_the_tool_writes_now() {
    let out = check(Path::new("tests/it/ahead/quickstart.rs"));
    assert!(
        out.status.success(),
        "{}{}run `cargo run -p cargo-doctrine -- expand --out tests/it/ahead/quickstart.rs \
         examples/quickstart/doctrine.toml` and read the diff",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_module_that_differs_fails_the_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(root.join("tests/it/ahead/quickstart.rs")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let changed = dir.path().join("quickstart.rs");
    std::fs::write(&changed, committed.replacen("developer", "developper", 1)).unwrap();
    let out = check(&changed);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("is not what `cargo doctrine expand --out` writes"),
        "{said}"
    );
    // `--check` writes nothing.
    assert!(std::fs::read_to_string(&changed)
        .unwrap()
        .contains("developper"));
}

#[test]
fn check_without_out_is_a_usage_error() {
    let out = Command::new(tool())
        .args(["expand", "--check", "examples/quickstart/doctrine.toml"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give `--out FILE`"));
}

/// A manifest whose name holds a line break and a comment's close: every comment of the
/// module stays a comment (the header, the doc comments naming the manifest), so nothing of
/// the name becomes code.
#[cfg(unix)]
#[test]
fn a_manifest_name_that_breaks_a_line_or_closes_a_comment_stays_text() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
    // Directories make the `*/` and `/*` a file name cannot hold.
    let name = "a\nfn injected() {} */ fn closed() {} /*x.toml";
    std::fs::create_dir_all(dir.path().join("a\nfn injected() {} */ fn closed() {} ")).unwrap();
    std::fs::write(
        dir.path()
            .join("a\nfn injected() {} */ fn closed() {} /base.md"),
        "Be brief.\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join(name),
        "[[layer]]\nname = \"base\"\nfile = \"base.md\"\n",
    )
    .unwrap();
    let out = Command::new(tool())
        .args(["expand", "--out", "prompt.rs", name])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let module = std::fs::read_to_string(dir.path().join("prompt.rs")).unwrap();
    let header = module.lines().next().unwrap();
    assert!(header.contains(r"a\nfn injected() {}"), "{header}");
    let parsed = syn::parse_file(&module).unwrap_or_else(|e| panic!("{e}\n{module}"));
    let functions: Vec<String> = parsed
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Fn(f) => Some(f.sig.ident.to_string()),
            _ => None,
        })
        .collect();
    assert!(
        !functions.iter().any(|f| f == "injected" || f == "closed"),
        "{functions:?}\n{module}"
    );
}
