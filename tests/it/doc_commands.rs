//! Every example command the documentation shows (`cargo run -p doctrine-examples --example
//! NAME -- ARGS`, the examples being a package of their own, and
//! `cargo run -p cargo-doctrine -- ARGS`, in README.md, the guide pages and the examples'
//! own doc comments) runs and exits 0: each is run here as the binary cargo built for it
//! (`cargo test --workspace` builds the examples and the tool before any test runs), its
//! words split as a shell splits them (`shlex`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The documentation's files, relative to the repository.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let dirs = [root.join("doctrine/docs"), root.join("examples")];
    for dir in dirs {
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                match p.extension().and_then(|x| x.to_str()) {
                    _ if p.is_dir() => stack.push(p),
                    Some("md") if d.ends_with("docs") => files.push(p),
                    Some("rs") => files.push(p),
                    _ => {}
                }
            }
        }
    }
    files.sort();
    files
}

/// Each command in `text`: lines holding `cargo run … --example` or `cargo run -p
/// cargo-doctrine`, a trailing `\` joining the next line, a `#` comment or a closing
/// backtick ending it, a doc comment's `//!` taken off; `--example NAME` is no command.
fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = text.lines().map(|l| {
        let l = l.trim_start();
        l.strip_prefix("//!").unwrap_or(l).trim()
    });
    while let Some(line) = lines.next() {
        let Some(at) = line.find("cargo run ") else {
            continue;
        };
        let mut command = line[at..].to_string();
        while command.ends_with('\\') {
            command.pop();
            command.push_str(lines.next().unwrap_or(""));
        }
        let command = command.split(" # ").next().unwrap_or("");
        let command = command.split('`').next().unwrap_or("").trim();
        // `path/to/doctrine.toml` stands for the reader's manifest: the quickstart's here.
        let command = command.replace("path/to/doctrine.toml", "examples/quickstart/doctrine.toml");
        // `--example NAME` stands for any example, as the text around it says.
        let example = command.contains("--example ") && !command.contains("--example NAME");
        if example || command.contains("-p cargo-doctrine --") {
            out.push(command);
        }
    }
    out
}

/// The binary a `cargo run` command runs, and its arguments.
fn binary(command: &str, target: &Path) -> Option<(PathBuf, Vec<String>)> {
    let words = shlex::split(command)?;
    let (head, args) = match words.iter().position(|w| w == "--") {
        Some(i) => (&words[..i], words[i + 1..].to_vec()),
        None => (&words[..], Vec::new()),
    };
    let after = |flag: &str| head.iter().position(|w| w == flag).map(|i| &head[i + 1]);
    // An example without `-p doctrine-examples` is not found from the repository's root.
    let path = match (after("--example"), after("-p")) {
        (Some(name), Some(p)) if p == "doctrine-examples" => target.join("examples").join(name),
        (None, Some(tool)) if tool == "cargo-doctrine" => target.join("cargo-doctrine"),
        _ => return None,
    };
    Some((path, args))
}

#[test]
fn every_example_command_in_the_docs_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // This test's binary is in `target/debug/deps`; the examples and the tool beside it.
    let target = std::env::current_exe().unwrap();
    let target = target.parent().unwrap().parent().unwrap();
    let mut ran = 0;
    let mut failures = Vec::new();
    // A command shown on several pages runs once: the crew's `book --rev HEAD` alone is
    // 10 s of a debug build, and it is shown twice.
    let mut seen = std::collections::HashSet::new();
    for file in documents(root) {
        let text = std::fs::read_to_string(&file).unwrap();
        for command in commands(&text) {
            let shown = file.strip_prefix(root).unwrap().display();
            if !seen.insert(command.clone()) {
                continue;
            }
            let Some((path, args)) = binary(&command, target) else {
                failures.push(format!("{shown}: cannot read `{command}`"));
                continue;
            };
            assert!(
                path.is_file(),
                "{} is not built: run `cargo test --workspace`, which builds the examples \
                 and the tool",
                path.display()
            );
            let out = Command::new(&path)
                .args(&args)
                .current_dir(root)
                .stdin(Stdio::null())
                .output()
                .unwrap();
            ran += 1;
            if !out.status.success() {
                let stderr = String::from_utf8_lossy(&out.stderr);
                failures.push(format!(
                    "{shown}: `{command}` exited {:?}: {stderr}",
                    out.status.code()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 20, "only {ran} commands found");
}

#[test]
fn an_example_command_without_its_package_is_refused() {
    let target = Path::new("/t");
    assert_eq!(binary("cargo run --example crew -- --fable", target), None);
    assert_eq!(
        binary(
            "cargo run -p doctrine-examples --example crew -- --fable",
            target
        ),
        Some((
            PathBuf::from("/t/examples/crew"),
            vec!["--fable".to_string()]
        ))
    );
}
