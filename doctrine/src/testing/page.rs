//! The opt-in web page beside the snapshot: with `DOCTRINE_BOOK_HTML` set,
//! [`assert_book!`](crate::testing::assert_book) also writes the book as one self-contained
//! HTML page ([`Book::html`]), so CI can publish it as an artifact. `DOCTRINE_BOOK_HTML=1`
//! writes it beside the snapshot (`tests/snapshots/prompts__desk.html`); any other value is
//! a directory to write it into. Unset, nothing is written.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::Book;

/// The variable that turns the page on.
pub const VARIABLE: &str = "DOCTRINE_BOOK_HTML";

/// Where the test at `file` (as `file!()` gives it) in the package at `manifest_dir` keeps
/// its snapshots, and the page's file name there, as insta names the snapshot
/// (`module_path` with `::` as `__`, then `__` and `name`).
fn beside_snapshot(manifest_dir: &Path, file: &str, module_path: &str, name: &str) -> PathBuf {
    // `file!()` is relative to the workspace root, which may be above the package.
    let test = manifest_dir
        .ancestors()
        .map(|dir| dir.join(file))
        .find(|path| path.is_file())
        .unwrap_or_else(|| manifest_dir.join(file));
    let dir = test.parent().unwrap_or(manifest_dir).join("snapshots");
    dir.join(page_name(module_path, name))
}

fn page_name(module_path: &str, name: &str) -> String {
    format!("{}__{name}.html", module_path.replace("::", "__"))
}

/// Writes `book`'s page where `target` (the variable's value) says, or nothing when it is
/// `None`; the path written. Called by `assert_book!` with the call site's `module_path!()`,
/// `env!("CARGO_MANIFEST_DIR")` and `file!()`.
#[doc(hidden)]
pub fn write_page(
    book: &Book,
    name: &str,
    (module_path, manifest_dir, file): (&str, &str, &str),
    target: Option<&OsStr>,
) -> Result<Option<PathBuf>, String> {
    let Some(target) = target else {
        return Ok(None);
    };
    let path = match target.to_str() {
        Some("1") => beside_snapshot(Path::new(manifest_dir), file, module_path, name),
        _ => Path::new(target).join(page_name(module_path, name)),
    };
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&path, book.html()));
    written.map(|()| Some(path.clone())).map_err(|e| {
        format!(
            "{VARIABLE}: cannot write the prompt book's page {}: {e}; set {VARIABLE}=1 (beside \
             the snapshot) or to a directory the test can write, or unset it",
            path.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book() -> Book {
        Book::new("desk")
    }

    #[test]
    fn nothing_is_written_unless_asked() {
        let at = ("prompts", "/nonexistent", "tests/prompts.rs");
        assert_eq!(write_page(&book(), "desk", at, None), Ok(None));
    }

    #[test]
    fn the_page_lands_beside_the_snapshot_or_in_the_directory_named() {
        let root = tempfile::tempdir().unwrap();
        let package = root.path().join("pkg");
        std::fs::create_dir_all(root.path().join("pkg/tests")).unwrap();
        std::fs::write(root.path().join("pkg/tests/prompts.rs"), "").unwrap();
        let package = package.to_str().unwrap();
        // `file!()` as a workspace member's test gives it: from the workspace root.
        let at = ("prompts", package, "pkg/tests/prompts.rs");
        let written = write_page(&book(), "desk", at, Some(OsStr::new("1"))).unwrap();
        let expected = root.path().join("pkg/tests/snapshots/prompts__desk.html");
        assert_eq!(written.as_deref(), Some(expected.as_path()));
        let html = std::fs::read_to_string(&expected).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>") && html.contains("Prompt book: desk"));

        let elsewhere = root.path().join("artifacts");
        let at = ("it::crew", package, "pkg/tests/prompts.rs");
        let written = write_page(&book(), "crew", at, Some(elsewhere.as_os_str())).unwrap();
        assert_eq!(written, Some(elsewhere.join("it__crew__crew.html")));
    }

    #[test]
    fn a_page_that_cannot_be_written_says_what_to_do() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("file");
        std::fs::write(&file, "").unwrap();
        let at = ("prompts", "/", "tests/prompts.rs");
        let error = write_page(&book(), "desk", at, Some(file.as_os_str())).unwrap_err();
        assert!(
            error.contains("DOCTRINE_BOOK_HTML=1 (beside the snapshot)"),
            "{error}"
        );
    }
}
