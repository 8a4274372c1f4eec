//! A diagnostic in rustc's JSON shape (`rustc --error-format=json`; cargo's
//! `--message-format=json` carries the same objects), so that editors and CI read it with
//! what they read rustc's with.
//!
//! A span is zero-width, at where the diagnostic's own span starts, and its byte is found
//! in the file as it is on disk (a markdown file's spans index its text as read, without
//! BOM or CRLF). A diagnostic about a whole file (one not UTF-8, say) has its span at the
//! file's start.

use std::path::Path;

use doctrine_codegen::__internals::MAX_FILE_BYTES;
use doctrine_codegen::{Located, Position};
use doctrine_load::__internals::safe_open;
use serde_json::json;

/// One diagnostic as one line of JSON, with its newline; `level` is rustc's (`error`,
/// `note`).
pub(crate) fn diagnostic(d: &Located<'_>, level: &str, crate_dir: &Path) -> String {
    let (file, Position { line, column }) = (
        d.file,
        d.position.unwrap_or(Position { line: 1, column: 1 }),
    );
    // Files are named relative to the crate directory (an absolute path joins as itself).
    let source = quoted(&crate_dir.join(file));
    let (byte, text) = match locate(&source, line, column) {
        Some((byte, text)) => (
            byte,
            vec![json!({"text": text, "highlight_start": column, "highlight_end": column})],
        ),
        None => (0, Vec::new()),
    };
    let children: Vec<_> = d
        .diagnostic
        .help
        .iter()
        .map(|help| {
            json!({
                "message": help, "code": null, "level": "help",
                "spans": [], "children": [], "rendered": null,
            })
        })
        .collect();
    let value = json!({
        "$message_type": "diagnostic",
        "message": d.diagnostic.message,
        "code": null,
        "level": level,
        "spans": [{
            "file_name": file,
            "byte_start": byte, "byte_end": byte,
            "line_start": line, "line_end": line,
            "column_start": column, "column_end": column,
            "is_primary": true,
            "text": text,
            "label": null,
            "suggested_replacement": null,
            "suggestion_applicability": null,
            "expansion": null,
        }],
        "children": children,
        "rendered": format!("{level}: {d}\n"),
    });
    format!("{value}\n")
}

/// The bytes of the file a diagnostic names, read again only to quote a line: as the
/// loader reads (a file swapped for a FIFO since would stall the tool, a device flood it),
/// at most what the loader reads; empty (nothing quoted) when it cannot be read so.
fn quoted(path: &Path) -> Vec<u8> {
    safe_open::open_regular(path)
        .ok()
        .and_then(|f| f.read_at_most(MAX_FILE_BYTES).ok())
        .unwrap_or_default()
}

/// The byte offset of `line:column` (from 1; columns count characters) in `source`, and
/// that line's text, or `None` when the file (unreadable: empty) has no such line. Bytes that are not UTF-8
/// count as they would once replaced, one character per bad sequence start.
fn locate(source: &[u8], line: usize, column: usize) -> Option<(usize, String)> {
    let start = if line == 1 {
        0
    } else {
        source
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 2)?
            .0
            + 1
    };
    let end = source[start..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(source.len(), |n| start + n);
    let mut at = start;
    for _ in 1..column {
        if at >= end {
            break;
        }
        at += 1;
        // UTF-8 continuation bytes belong to the character before.
        while at < end && source[at] & 0xC0 == 0x80 {
            at += 1;
        }
    }
    let text = String::from_utf8_lossy(&source[start..end]);
    Some((at, text.trim_end_matches('\r').to_string()))
}

#[cfg(test)]
mod tests {
    use super::{locate, quoted};

    #[cfg(unix)]
    #[test]
    fn a_file_quoted_is_read_only_if_regular_without_blocking() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("base.md");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        assert!(quoted(&fifo).is_empty());
        std::os::unix::fs::symlink("/dev/zero", tmp.path().join("zero.md")).unwrap();
        assert!(quoted(&tmp.path().join("zero.md")).is_empty());
        std::fs::write(tmp.path().join("ok.md"), "text").unwrap();
        assert_eq!(quoted(&tmp.path().join("ok.md")), b"text");
    }

    #[test]
    fn finds_the_byte_of_a_line_and_column() {
        let source = "a = 1\nbé = 2\r\n\nlast".as_bytes();
        let at = |line, column| locate(source, line, column).map(|(b, t)| (b, t.to_string()));
        assert_eq!(at(1, 1), Some((0, "a = 1".into())));
        assert_eq!(at(2, 1), Some((6, "bé = 2".into())));
        // `é` is two bytes and one column.
        assert_eq!(at(2, 3), Some((9, "bé = 2".into())));
        assert_eq!(at(3, 1), Some((15, String::new())));
        assert_eq!(at(4, 5), Some((20, "last".into())));
        // A column past the line's end stops at its end.
        assert_eq!(at(4, 9), Some((20, "last".into())));
        assert_eq!(at(5, 1), None);
        assert_eq!(locate(b"", 1, 1), Some((0, String::new())));
    }
}
