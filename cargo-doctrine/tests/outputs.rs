//! Every file the tool writes (`book`'s `index.html`, `import`'s manifest and markdown,
//! `schema --output`) lands beneath its directory as a regular file: a symlink in its place
//! (dangling or not) is refused, never followed; a FIFO is refused at once instead of
//! stalling the run; a file with other names (a hard link) is left alone. And a FIFO given
//! as a template is refused instead of read. Each run is bounded in time, so a hang fails
//! the test.
#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;

mod bounded;
use bounded::{mkfifo, run_in};

/// The run failed with exit 2, saying `says`.
fn refused(out: &Output, says: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(says), "expected {says:?} in:\n{err}");
}

/// `root/work` (a crate with a manifest) and `root/outside` holding `kept.html`.
fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let (work, outside) = (root.path().join("work"), root.path().join("outside"));
    std::fs::create_dir(&work).unwrap();
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(work.join("Cargo.toml"), "[package]\nname = \"c\"\n").unwrap();
    let manifest = "[[layer]]\nname = \"base\"\ntext = \"Shared rules.\"\n";
    std::fs::write(work.join("doctrine.toml"), manifest).unwrap();
    std::fs::write(outside.join("kept.html"), "kept").unwrap();
    (root, work, outside)
}

/// What `outside` holds, sorted, with `kept.html` unchanged.
fn outside_holds(outside: &Path) -> Vec<String> {
    assert_eq!(
        std::fs::read_to_string(outside.join("kept.html")).unwrap(),
        "kept"
    );
    let mut names: Vec<String> = std::fs::read_dir(outside)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn book_writes_index_html_only_as_a_regular_file() {
    let (_root, work, outside) = setup();
    std::fs::create_dir(work.join("out")).unwrap();
    let index = work.join("out/index.html");
    let book = ["book", "doctrine.toml", "--out", "out"];

    // A FIFO no one reads: refused at once (a plain open would wait for a reader forever).
    mkfifo(&index);
    refused(
        &run_in(&work, &book),
        "cannot write out/index.html: it is a FIFO (named pipe), not a regular file; remove \
         it, or give --out another path",
    );
    std::fs::remove_file(&index).unwrap();

    // A dangling link would create the file it names; a link to a file would overwrite it.
    for target in ["made.html", "kept.html"] {
        symlink(outside.join(target), &index).unwrap();
        refused(
            &run_in(&work, &book),
            "cannot write out/index.html: it is a symlink, and a link is never followed to \
             write (it could lead anywhere, a dangling one included); remove the link, or \
             give --out a path that is not one",
        );
        std::fs::remove_file(&index).unwrap();
    }
    // A second name of a file elsewhere: rewriting it would change that file.
    std::fs::hard_link(outside.join("kept.html"), &index).unwrap();
    refused(
        &run_in(&work, &book),
        "cannot write out/index.html: it is a file with 2 names (hard links)",
    );
    std::fs::remove_file(&index).unwrap();
    assert_eq!(outside_holds(&outside), ["kept.html"]);

    // A regular file is replaced.
    std::fs::write(&index, "old").unwrap();
    let out = run_in(&work, &book);
    assert_eq!(out.status.code(), Some(0));
    assert!(std::fs::read_to_string(&index)
        .unwrap()
        .starts_with("<!DOCTYPE html>"));
}

#[test]
fn book_s_default_directory_is_not_followed_but_a_given_one_is() {
    let (_root, work, outside) = setup();
    // Someone else's checkout may hold `doctrine-book` as a link: the default is the tool's
    // choice, not the user's, so it is not followed.
    symlink(&outside, work.join("doctrine-book")).unwrap();
    refused(
        &run_in(&work, &["book", "doctrine.toml"]),
        "cannot make doctrine-book: it is a symlink, and a link is never followed to write \
         (it could lead anywhere, a dangling one included); remove the link, or give --out a \
         directory that is not one",
    );
    assert_eq!(outside_holds(&outside), ["kept.html"]);
    // A directory the user names is theirs, a link to one included.
    let out = run_in(&work, &["book", "doctrine.toml", "--out", "doctrine-book"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(outside_holds(&outside), ["index.html", "kept.html"]);
}

#[test]
fn import_reads_a_regular_template_and_writes_regular_files_beneath_out() {
    let (_root, work, outside) = setup();
    mkfifo(&work.join("pipe.jinja"));
    refused(
        &run_in(&work, &["import", "jinja", "pipe.jinja", "--out", "prompt"]),
        "cannot read pipe.jinja: it is a FIFO (named pipe), not a regular file; give the \
         template as a regular file",
    );
    std::fs::write(work.join("sys.jinja"), "Hello {{ user }}.\n").unwrap();
    let import = ["import", "jinja", "sys.jinja", "--out", "prompt"];
    std::fs::create_dir(work.join("prompt")).unwrap();
    for name in ["doctrine.toml", "sys.md"] {
        let at = work.join("prompt").join(name);
        symlink(outside.join(name), &at).unwrap();
        refused(
            &run_in(&work, &import),
            &format!("cannot write prompt/{name}: it is a symlink"),
        );
        std::fs::remove_file(&at).unwrap();
        mkfifo(&at);
        refused(
            &run_in(&work, &import),
            &format!("cannot write prompt/{name}: it is a FIFO (named pipe)"),
        );
        std::fs::remove_file(&at).unwrap();
    }
    assert_eq!(outside_holds(&outside), ["kept.html"]);
    let out = run_in(&work, &import);
    assert_eq!(out.status.code(), Some(0));
    let md = std::fs::read_to_string(work.join("prompt/sys.md")).unwrap();
    assert_eq!(md, "Hello {user}.\n");
}

#[test]
fn schema_output_never_follows_a_link() {
    let (_root, work, outside) = setup();
    for target in ["made.json", "kept.html"] {
        symlink(outside.join(target), work.join("schema.json")).unwrap();
        refused(
            &run_in(&work, &["schema", "--output", "schema.json"]),
            "cannot write schema.json: it is a symlink",
        );
        std::fs::remove_file(work.join("schema.json")).unwrap();
    }
    assert_eq!(outside_holds(&outside), ["kept.html"]);
    refused(
        &run_in(&work, &["schema", "--output", "missing/schema.json"]),
        "cannot write missing/schema.json: ",
    );
}
