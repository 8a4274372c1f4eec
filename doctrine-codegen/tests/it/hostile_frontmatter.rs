//! Hostile frontmatter and deeply nested TOML: a located error or a clean result, never a
//! stack overflow, and never an alias expanded. These run on the default test thread
//! (2 MiB of stack), so a regression to a recursive reader shows up as a crash.

use crate::support;
use doctrine_codegen::__internals::{strip_frontmatter, FrontmatterError};

const DEEP: usize = 100_000;

fn fm_error(text: &str) -> FrontmatterError {
    match strip_frontmatter(text) {
        Ok(found) => panic!("expected an error, got {:?}", found.1),
        Err(e) => e,
    }
}

/// `---` frontmatter around `matter`, and a body.
fn yaml(matter: &str) -> String {
    format!("---\n{matter}\n---\nbody\n")
}

#[test]
fn deep_yaml_flow_nesting_is_refused() {
    // `a: ` takes columns 1-3; the top-level mapping is depth 1. The scanner looks ahead
    // over a run of flow openers (any of them may start a key), so its own limit of 255
    // flow levels answers first there; where keys come between, our limit of 64 does.
    let ours = "frontmatter nests deeper than 64 levels";
    let scanners = "frontmatter is not valid YAML: recursion limit exceeded";
    let cases = [
        // The 256th `[`.
        (
            "sequences",
            format!("a: {}{}", "[".repeat(DEEP), "]".repeat(DEEP)),
            scanners,
            3 + 256,
        ),
        (
            "unclosed",
            format!("a: {}", "[".repeat(DEEP)),
            scanners,
            3 + 256,
        ),
        // Four columns per `{b: `; the 64th opens level 65.
        (
            "mappings",
            format!("a: {}c{}", "{b: ".repeat(DEEP), "}".repeat(DEEP)),
            ours,
            3 + 4 * 63 + 1,
        ),
        // Five columns per `[{b: `; the 256th opener is the 128th `{`.
        (
            "mixed",
            format!("a: {}c{}", "[{b: ".repeat(DEEP / 2), "}]".repeat(DEEP / 2)),
            scanners,
            3 + 5 * 127 + 2,
        ),
    ];
    for (what, matter, message, col) in cases {
        let e = fm_error(&yaml(&matter));
        assert_eq!(e.message, message, "{what}");
        assert_eq!((e.line, e.column), (2, col), "{what}");
    }
}

#[test]
fn deep_yaml_block_nesting_is_refused() {
    // Compact block nesting: one line, each level two columns further right.
    let seq = format!("a:\n  {}x", "- ".repeat(DEEP));
    let map = format!("a:\n  {}x", "? ".repeat(DEEP));
    let mixed = format!("a:\n  {}x", "- ? ".repeat(DEEP / 2));
    for (what, matter) in [("sequences", seq), ("mappings", map), ("mixed", mixed)] {
        let e = fm_error(&yaml(&matter));
        assert!(
            e.message.contains("nests deeper than 64 levels"),
            "{what}: {}",
            e.message
        );
        assert_eq!(e.line, 3, "{what}");
    }
    // Indented block mappings, one per line (the shape that crashed at 3,000 levels;
    // 100,000 would take 5 GB of indentation).
    let indented: String = (0..3_000)
        .map(|i| format!("{}k:\n", " ".repeat(i)))
        .collect();
    let e = fm_error(&yaml(&format!("{indented}{}v", " ".repeat(3_000))));
    assert!(
        e.message.contains("nests deeper than 64 levels"),
        "{}",
        e.message
    );
    // Line 2 holds depth 1's key; the 65th mapping starts under the 64th key, on line 66.
    assert_eq!(e.line, 66);
}

#[test]
fn deep_yaml_that_is_not_a_mapping_is_refused_at_its_start() {
    for matter in [
        "- ".repeat(DEEP),
        "[".repeat(DEEP),
        format!("{}x", "? ".repeat(DEEP)),
    ] {
        let e = fm_error(&yaml(&matter));
        assert!(
            e.message.contains("must be a YAML mapping")
                || e.message.contains("nests deeper than 64 levels")
                || e.message.contains("not valid YAML"),
            "{}",
            e.message
        );
        assert_eq!(e.line, 2);
    }
}

#[test]
fn an_alias_bomb_is_never_expanded() {
    // Ten levels of ten aliases each: 10^10 nodes if expanded.
    let mut matter = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        matter.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    matter.push_str("source: kept\nversion: 1.10");
    let text = yaml(&matter);
    let (body, fields) = strip_frontmatter(&text).unwrap();
    assert_eq!(body, "body\n");
    assert_eq!(fields.source.as_deref(), Some("kept"));
    assert_eq!(fields.version.as_deref(), Some("1.10"));
    // As a provenance field, the alias is refused rather than followed.
    matter.push_str("\nlicence: *a9");
    let e = fm_error(&yaml(&matter));
    assert!(e.message.contains("alias"), "{}", e.message);
    assert_eq!((e.line, e.column), (14, 1));
}

/// `+++` frontmatter around `matter`, and a body.
fn toml(matter: &str) -> String {
    format!("+++\n{matter}\n+++\nbody\n")
}

/// Deeply nested TOML of every shape, as one line, with the column where it first
/// nests past 64 levels (arrays, inline tables and key parts each open one).
fn deep_toml() -> Vec<(&'static str, String, usize)> {
    let dotted = vec!["k"; DEEP].join(".");
    vec![
        // `a = ` takes columns 1-4; `a` and its array are depth 1; the 65th bracket.
        (
            "arrays",
            format!("a = {}{}", "[".repeat(DEEP), "]".repeat(DEEP)),
            4 + 65,
        ),
        ("unclosed", format!("a = {}", "[".repeat(DEEP)), 4 + 65),
        // Five columns per `{b = `; the 64th table's `b` is level 65.
        (
            "inline tables",
            format!("a = {}1{}", "{b = ".repeat(DEEP), "}".repeat(DEEP)),
            4 + 5 * 63 + 2,
        ),
        // Six columns per `[{b = `: array 2k-1, table 2k, its `b` 2k+1; the 32nd table's `b`.
        (
            "mixed",
            format!(
                "a = {}1{}",
                "[{b = ".repeat(DEEP / 2),
                "}]".repeat(DEEP / 2)
            ),
            4 + 6 * 31 + 3,
        ),
        ("dotted key", format!("{dotted} = 1"), 1),
        ("table header", format!("[{dotted}]"), 2),
        ("array of tables", format!("[[{dotted}]]"), 3),
    ]
}

#[test]
fn deep_toml_frontmatter_is_refused_where_it_passes_the_limit() {
    for (what, matter, col) in deep_toml() {
        let e = fm_error(&toml(&matter));
        assert!(
            e.message.contains("nests deeper than 64 levels"),
            "{what}: {}",
            e.message
        );
        assert_eq!((e.line, e.column), (2, col), "{what}");
    }
}

/// The deepest TOML the `toml` crate accepts by its own limits: it caps arrays and
/// inline tables at 80 levels and keys at 80 parts, but not their product, so a table
/// header, a dotted key and 80 inline tables each under an 80-part key nest 6,560
/// tables, which overflowed a 2 MiB stack.
fn crate_limit_toml() -> String {
    let key = vec!["k"; 80].join(".");
    let inline = format!("{{{key} = ").repeat(80);
    format!("{key} = {inline}1{}", "}".repeat(80))
}

#[test]
fn toml_the_crate_accepts_but_cannot_hold_is_refused() {
    let text = toml(&format!("version = 0x1F\n{}", crate_limit_toml()));
    let e = fm_error(&text);
    assert!(
        e.message.contains("nests deeper than 64 levels"),
        "{}",
        e.message
    );
    assert_eq!((e.line, e.column), (3, 1));
    // Right at the limit: 63 inline tables, the last key at level 64.
    let at_limit = format!(
        "version = 0x1F\na = {}1{}",
        "{b = ".repeat(63),
        "}".repeat(63)
    );
    let text = toml(&at_limit);
    let (body, fields) = strip_frontmatter(&text).unwrap();
    assert_eq!((body, fields.version.as_deref()), ("body\n", Some("0x1F")));
}

/// Generates from `manifest` in a fresh crate directory holding `files`.
fn generate_in(manifest: &str, files: &[(&str, &str)]) -> Result<String, Vec<String>> {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    support::generate_with(manifest, &files)
        .map(|tokens| tokens.to_string())
        .map_err(|d| d.located().map(|d| d.to_string()).collect())
}

#[test]
fn a_deep_manifest_is_a_located_error() {
    let mut cases = deep_toml();
    cases.push(("crate's limits", crate_limit_toml(), 1));
    for (what, line, col) in cases {
        // At the top level, where `deep_toml`'s columns hold (a `[[layer]]` header would
        // add a level).
        let manifest = format!("{line}\n[[layer]]\nname = \"a\"\ntext = \"t\"\n");
        let errors = generate_in(&manifest, &[]).unwrap_err();
        assert_eq!(errors.len(), 1, "{what}: {errors:?}");
        let expected = format!("doctrine.toml:1:{col}: the manifest nests deeper than 64 levels");
        assert!(errors[0].starts_with(&expected), "{what}: {}", errors[0]);
    }
    // Inside a layer, where serde walks an unknown key's value (this overflowed even an
    // 8 MiB stack in a debug build).
    let manifest = format!(
        "[[layer]]\nname = \"a\"\ntext = \"t\"\n{}\n",
        crate_limit_toml()
    );
    let errors = generate_in(&manifest, &[]).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("doctrine.toml:4:1: the manifest nests deeper than 64 levels"),
        "{}",
        errors[0]
    );
    // At the limit, the nesting is only an unknown key.
    let manifest = format!(
        "x = {}1{}\n[[layer]]\nname = \"a\"\ntext = \"t\"\n",
        "{b = ".repeat(63),
        "}".repeat(63)
    );
    let errors = generate_in(&manifest, &[]).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("unknown key `x`"), "{}", errors[0]);
}

#[test]
fn frontmatter_errors_name_the_files_line_and_column() {
    let manifest = "[[layer]]\nname = \"a\"\nfile = \"a.md\"\nfrontmatter = \"strip\"\n";
    // The manifest entry, then the file's own line and column.
    let errors = generate_in(
        manifest,
        &[("a.md", "---\na: 1\nb: 2\n\nversion: [1]\n---\n")],
    )
    .unwrap_err();
    assert!(
        errors[0].starts_with(
            "doctrine.toml:3:8: in `a.md:5:1`: frontmatter field `version` must be a single value"
        ),
        "{}",
        errors[0]
    );
    let errors =
        generate_in(manifest, &[("a.md", "+++\na = 1\n  version = [1]\n+++\n")]).unwrap_err();
    assert!(
        errors[0].starts_with("doctrine.toml:3:8: in `a.md:3:3`: frontmatter field `version`"),
        "{}",
        errors[0]
    );
    let deep = format!("---\na: {}\n---\nbody\n", "[".repeat(DEEP));
    let errors = generate_in(manifest, &[("a.md", &deep)]).unwrap_err();
    assert!(
        errors[0].starts_with("doctrine.toml:3:8: in `a.md:2:259`: frontmatter is not valid YAML"),
        "{}",
        errors[0]
    );
}
