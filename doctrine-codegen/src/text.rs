//! Compile-time text normalisation: BOM, line endings, frontmatter, trimming.
//!
//! Everything here runs inside the macro, so the embedded bytes are the same on every
//! platform whatever the checkout's line endings.

pub(crate) use doctrine_load::__internals::text::normalise;

use doctrine_load::__internals::frontmatter::FrontmatterError;

/// Frontmatter fields kept as provenance, each as written in the file: `version: 0x1F`
/// is `0x1F` and `1.10` stays `1.10` (a quoted value loses its quotes and has its escapes
/// resolved). A field given as null (YAML `~`, `null` or nothing) is absent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fields {
    pub source: Option<String>,
    pub version: Option<String>,
    pub licence: Option<String>,
}

/// The body after any YAML (`---`) or TOML (`+++`) frontmatter, and the fields it held.
///
/// The opening fence must be the file's first line and the closing fence a line of its
/// own; the body is every byte after the closing fence's newline, so nothing else in the
/// file moves. (We split here rather than with a frontmatter crate because the ones we
/// tried rebuild the body line by line, losing the final newline and leading blank lines,
/// which breaks byte-for-byte reproduction; the fields themselves are read by
/// `yaml-rust2` and `toml`, see the `frontmatter` module.)
///
/// Only the top-level `source`, `version` and `licence`/`license` are read, and they must
/// be single values given once. Other keys may hold anything, nested up to
/// `frontmatter::yaml::MAX_DEPTH` (64) levels in YAML (the `toml` crate's own limit in
/// TOML); YAML aliases are never expanded, and the YAML must be one document.
pub fn strip_frontmatter(text: &str) -> Result<(&str, Fields), FrontmatterError> {
    let (body, mut found) = doctrine_load::__internals::frontmatter::read(
        text,
        doctrine_load::__internals::frontmatter::PROVENANCE,
    )?;
    let mut take = |i: usize| match found[i].take() {
        Some(doctrine_load::__internals::frontmatter::Field {
            value: doctrine_load::__internals::frontmatter::Value::Text(t),
            ..
        }) => Some(t),
        _ => None,
    };
    let fields = Fields {
        source: take(0),
        version: take(1),
        licence: take(2),
    };
    Ok((body, fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_carriage_return_is_no_line_break_in_error_positions() {
        // Found by the `frontmatter` fuzz target: YAML counts a lone CR as a line break, the
        // generator (which keeps it as text) does not, so the error named line 5 of 4. A
        // lone CR is now refused where it stands, on the line the generator counts.
        let err = strip_frontmatter("---\n\r-\n\x01\n---").unwrap_err();
        assert_eq!((err.line, err.column), (2, 1), "{}", err.message);
        let err = strip_frontmatter("---\na: 1\r\rb: [\n---\nbody").unwrap_err();
        assert_eq!((err.line, err.column), (2, 5), "{}", err.message);
    }

    #[test]
    fn refuses_every_yaml_line_break_but_a_line_feed() {
        // YAML ends `version` at the CR: `## x` would be a comment and `source: y` a key of
        // its own, and the author's text would not be the value it stands in.
        for (c, name) in [
            ('\r', "U+000D (carriage return)"),
            ('\u{85}', "U+0085 (next line)"),
            ('\u{2028}', "U+2028 (line separator)"),
            ('\u{2029}', "U+2029 (paragraph separator)"),
        ] {
            let text = format!("---\nlicence: MIT\nversion: ünï 1{c}## x{c}source: y\n---\nbody");
            let (line, col, msg) = error_at(&text);
            assert_eq!((line, col), (3, 15), "{msg}");
            assert!(
                msg.starts_with(&format!("frontmatter holds {name}")),
                "{msg}"
            );
            // Anywhere in the block, under keys nobody reads too.
            let (line, _, msg) = error_at(&format!("---\nother: [a,{c} b]\n---\n"));
            assert_eq!(line, 2, "{msg}");
        }
        // Escaped in a double-quoted value, it is text, not a line break.
        let (_, fields) = strip_frontmatter("---\nsource: \"a\\rb\"\n---\n").unwrap();
        assert_eq!(fields.source.as_deref(), Some("a\rb"));
        // In the body, a CR is text.
        assert!(strip_frontmatter("---\nsource: a\n---\nx\ry").is_ok());
    }

    #[test]
    fn normalises_bom_and_crlf() {
        assert_eq!(normalise("\u{feff}a\r\nb\r\n"), "a\nb\n");
        assert_eq!(normalise("a\rb"), "a\rb");
    }

    #[test]
    fn strips_yaml_frontmatter_exactly() {
        let (body, fields) =
            strip_frontmatter("---\nsource: x\nversion: 0.18.0\nlicense: MIT\n---\n\n# T\n")
                .unwrap();
        assert_eq!(body, "\n# T\n");
        assert_eq!(fields.source.as_deref(), Some("x"));
        assert_eq!(fields.version.as_deref(), Some("0.18.0"));
        assert_eq!(fields.licence.as_deref(), Some("MIT"));
    }

    #[test]
    fn strips_toml_frontmatter() {
        let (body, fields) = strip_frontmatter("+++\nversion = 3\n+++\nbody").unwrap();
        assert_eq!(body, "body");
        assert_eq!(fields.version.as_deref(), Some("3"));
    }

    #[test]
    fn accepts_fences_with_trailing_blanks_and_refuses_list_provenance() {
        let (body, fields) = strip_frontmatter("--- \nversion: 1\n---\t\nbody").unwrap();
        assert_eq!((body, fields.version.as_deref()), ("body", Some("1")));
        let err = strip_frontmatter("---\nsource: [1, 2]\n---\nbody").unwrap_err();
        assert!(
            err.message.contains("`source` must be a single value"),
            "{}",
            err.message
        );
    }

    #[test]
    fn leaves_text_without_frontmatter_alone() {
        let (body, fields) = strip_frontmatter("# T\n---\nx\n").unwrap();
        assert_eq!(body, "# T\n---\nx\n");
        assert_eq!(fields, Fields::default());
    }

    #[test]
    fn reports_unclosed_and_invalid_frontmatter() {
        let err = strip_frontmatter("---\nsource: x\n").unwrap_err();
        assert!(err.message.contains("never closed"), "{}", err.message);
        let err = strip_frontmatter("---\nok: 1\nbad: [\n---\nbody").unwrap_err();
        assert!(err.message.contains("not valid YAML"), "{}", err.message);
        assert!(err.line >= 3, "line {}", err.line);
    }

    fn version(text: &str) -> Option<String> {
        strip_frontmatter(text).unwrap().1.version
    }

    #[test]
    fn keeps_yaml_values_as_written() {
        for written in [
            "0x1F", "1.10", "+1", "1e3", "0o17", "true", "yes", "Null", "1_000",
        ] {
            let text = format!("---\nversion: {written}\n---\n");
            assert_eq!(version(&text).as_deref(), Some(written), "{written}");
        }
        // Quotes go and escapes resolve; a quoted null is text.
        assert_eq!(
            version("---\nversion: '0x1F'\n---\n").as_deref(),
            Some("0x1F")
        );
        assert_eq!(
            version("---\nversion: \"a\\tb\"\n---\n").as_deref(),
            Some("a\tb")
        );
        assert_eq!(
            version("---\nversion: \"null\"\n---\n").as_deref(),
            Some("null")
        );
        // A tag does not change the text.
        assert_eq!(
            version("---\nversion: !!int 0x1F\n---\n").as_deref(),
            Some("0x1F")
        );
        for null in ["~", "null", "", "!!null ~", "&v"] {
            let text = format!("---\nversion: {null}\n---\n");
            assert_eq!(version(&text), None, "{null}");
        }
    }

    #[test]
    fn keeps_toml_values_as_written() {
        for written in [
            "0x1F",
            "1.10",
            "+1",
            "1e3",
            "0o17",
            "0b11",
            "1_000",
            "true",
            "inf",
            "1979-05-27",
        ] {
            let text = format!("+++\nversion = {written} # comment\n+++\n");
            assert_eq!(version(&text).as_deref(), Some(written), "{written}");
        }
        assert_eq!(
            version("+++\nversion = '0x1F'\n+++\n").as_deref(),
            Some("0x1F")
        );
        assert_eq!(
            version("+++\nversion = \"a\\tb\"\n+++\n").as_deref(),
            Some("a\tb")
        );
    }

    /// Line and column of the error for `text`.
    fn error_at(text: &str) -> (usize, usize, String) {
        let e = strip_frontmatter(text).unwrap_err();
        (e.line, e.column, e.message)
    }

    #[test]
    fn locates_errors_at_the_offending_value() {
        let (line, col, msg) = error_at("---\na: 1\nb: 2\nc: 3\nsource: [1, 2]\n---\n");
        assert_eq!((line, col), (5, 1), "{msg}");
        assert!(msg.contains("`source` must be a single value"), "{msg}");
        let (line, col, msg) = error_at("---\na: 1\nb:\n  c: 3\nversion:\n  x: 1\n---\n");
        assert_eq!((line, col), (5, 1), "{msg}");
        let (line, col, msg) = error_at("+++\na = 1\nb = 2\nc = 3\n  source = [1]\n+++\n");
        assert_eq!((line, col), (5, 3), "{msg}");
        let (line, col, msg) = error_at("+++\na = 1\n  source.url = \"x\"\n+++\n");
        assert_eq!((line, col), (3, 3), "{msg}");
        assert!(msg.contains("`source` must be a single value"), "{msg}");
        // Syntax errors: the YAML scanner's and the TOML parser's own positions.
        let (line, col, msg) = error_at("---\na: 1\nb: \"open\n---\n");
        assert!(msg.contains("not valid YAML"), "{msg}");
        // The unclosed quote.
        assert_eq!((line, col), (3, 4), "{msg}");
        let (line, col, msg) = error_at("+++\na = 1\nb = = 2\n+++\n");
        assert!(msg.contains("not valid TOML"), "{msg}");
        assert_eq!((line, col), (3, 5), "{msg}");
        // Not a mapping at all.
        let (line, col, msg) = error_at("---\n\n- a\n---\n");
        assert_eq!((line, col), (3, 1), "{msg}");
        assert!(msg.contains("must be a YAML mapping"), "{msg}");
    }

    #[test]
    fn refuses_a_field_given_twice_and_a_second_document() {
        let (line, col, msg) = error_at("---\nlicence: MIT\nsource: x\nlicense: MIT\n---\n");
        assert_eq!((line, col), (4, 1), "{msg}");
        let (line, col, msg) = error_at("---\n{licence: MIT, license: MIT}\n---\n");
        assert_eq!((line, col), (2, 16), "{msg}");
        assert!(msg.contains("a licence") && msg.contains("twice"), "{msg}");
        let (line, _, msg) = error_at("+++\nlicense = 'MIT'\nlicence = 'MIT'\n+++\n");
        assert_eq!(line, 3, "{msg}");
        let (line, col, msg) = error_at("---\nother: 1\nother: 2\n---\n");
        assert_eq!((line, col), (3, 1), "{msg}");
        let (line, _, msg) = error_at("---\nversion: 1\n...\nversion: 2\n---\n");
        assert!(msg.contains("more than one YAML document"), "{msg}");
        assert_eq!(line, 4, "{msg}");
    }

    #[test]
    fn skips_what_it_does_not_read_and_never_expands_aliases() {
        let text = "---\n\
            ? [complex, key]\n: 1\n\
            meta: &m {a: [1, {b: [2]}], c: {d: e}}\n\
            again: *m\n\
            source: &s origin\n\
            version: 2\n---\nbody";
        let (body, fields) = strip_frontmatter(text).unwrap();
        assert_eq!(body, "body");
        assert_eq!(fields.source.as_deref(), Some("origin"));
        assert_eq!(fields.version.as_deref(), Some("2"));
        let (line, col, msg) = error_at("---\na: &v 1\nversion: *v\n---\n");
        assert_eq!((line, col), (3, 1), "{msg}");
        assert!(msg.contains("alias"), "{msg}");
        assert_eq!(
            strip_frontmatter("---\n# only a comment\n---\nbody").unwrap(),
            ("body", Fields::default())
        );
    }

    #[test]
    fn nests_up_to_the_yaml_depth_limit() {
        let max = doctrine_load::__internals::frontmatter::yaml::MAX_DEPTH;
        // The top-level mapping is depth 1, so `max - 1` brackets reach the limit.
        let at_limit = format!(
            "---\na: {}{}\n---\n",
            "[".repeat(max - 1),
            "]".repeat(max - 1)
        );
        assert!(strip_frontmatter(&at_limit).is_ok());
        let over = format!("---\na: {}{}\n---\n", "[".repeat(max), "]".repeat(max));
        let (line, col, msg) = error_at(&over);
        // At the bracket that opens the level past the limit (`a: ` takes columns 1-3).
        assert_eq!((line, col), (2, 3 + max), "{msg}");
        assert!(msg.contains(&format!("deeper than {max} levels")), "{msg}");
    }
}
