//! The diagnostics as one SARIF 2.1.0 log (OASIS Static Analysis Results Interchange
//! Format), which code-scanning services read: one run of this tool, a result per
//! diagnostic with its level, message (the help as a second paragraph) and position.
//! Columns count characters, as the human format's do, so the run says
//! `"columnKind": "unicodeCodePoints"` (SARIF's default would be UTF-16 units).

use std::path::Path;

use doctrine_codegen::{Diagnostics, Located, Position};
use serde_json::{json, Value};

/// The log for `all`, each at `level` (`error` or `note`), files named relative to
/// `crate_dir`, which the log names as its `%SRCROOT%`.
pub(crate) fn log(all: &Diagnostics, level: &str, crate_dir: &Path) -> String {
    let results: Vec<Value> = all.located().map(|d| result(&d, level)).collect();
    // `C:\dir` becomes `/C:/dir`: a drive's colon may stand in an absolute URI's path.
    let dir = crate_dir.to_string_lossy().replace('\\', "/");
    let dir = if dir.starts_with('/') {
        dir
    } else {
        format!("/{dir}")
    };
    let root = format!("file://{}/", uri_path(&dir).replace("%3A", ":"));
    let value = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "cargo-doctrine",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://docs.rs/doctrine-prompt",
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    format!("{value:#}\n")
}

fn result(d: &Located<'_>, level: &str) -> Value {
    let mut text = d.diagnostic.message.clone();
    if let Some(help) = &d.diagnostic.help {
        text.push_str("\n\nhelp: ");
        text.push_str(help);
    }
    let mut location =
        json!({"artifactLocation": {"uri": uri_path(d.file), "uriBaseId": "%SRCROOT%"}});
    if let Some(Position { line, column }) = d.position {
        location["region"] = json!({"startLine": line, "startColumn": column});
    }
    json!({
        "level": level,
        "message": {"text": text},
        "locations": [{"physicalLocation": location}],
    })
}

/// `path` as a URI path: `/` kept, every byte outside RFC 3986's unreserved set escaped.
fn uri_path(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(b))
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::uri_path;

    #[test]
    fn paths_escape_what_a_uri_may_not_hold() {
        assert_eq!(uri_path("tests/errors/a b.toml"), "tests/errors/a%20b.toml");
        assert_eq!(uri_path("é#"), "%C3%A9%23");
    }
}
