//! Manifests from the hostile-input review: each is a located error (never generated code
//! that does not compile, never a panic).

use crate::support;
use support::errors;

/// Asserts one error containing `expected`, located at `doctrine.toml:line:`.
fn assert_error(manifest: &str, files: &[(&str, &[u8])], line: usize, expected: &str) {
    let errs = errors(manifest, files);
    assert!(
        errs.iter()
            .any(|e| e.contains(expected) && e.starts_with(&format!("doctrine.toml:{line}:"))),
        "{manifest}\nexpected `{expected}` at line {line} in {errs:#?}"
    );
}

#[test]
fn variants_named_after_generated_associated_items() {
    let clash = "clashes with the associated item";
    assert_error(
        "roles = [\"dev\", \"ALL\"]\n[[layer]]\nname = \"a\"\ntext = \"x\"\n",
        &[],
        1,
        "role `ALL` would become the enum variant `ALL`",
    );
    assert_error(
        "modes = [\"NAMES\"]\n[[layer]]\nname = \"a\"\ntext = \"x\"\n",
        &[],
        1,
        clash,
    );
    assert_error(
        "[knobs.pace]\nvalues = [\"calm\", \"NAMES\"]\ndefault = \"calm\"\n[[layer]]\nname = \"a\"\ntext = \"x\"\n",
        &[],
        2,
        "knob value `NAMES`",
    );
    assert_error(
        "[facts.kind]\ntier = \"stable\"\nvalues = [\"ALL\"]\nrequired = [\"*\"]\n[[layer]]\nname = \"a\"\ntext = \"x\"\n",
        &[],
        3,
        "value `ALL` of fact `kind`",
    );
    assert_error(
        "[[layer]]\nname = \"team\"\ndir = \"teams\"\n",
        &[("teams/ALL.md", b"all"), ("teams/ok.md", b"ok")],
        3,
        "file `ALL.md` in `teams`",
    );
}

#[test]
fn types_named_after_generated_ones() {
    for ty in ["Stage", "Prompt", "Compose", "Overlay", "Facts"] {
        assert_error(
            &format!("[[layer]]\nname = \"pick\"\ndir = \"d\"\nchoice = \"{ty}\"\n"),
            &[("d/a.md", b"a")],
            4,
            &format!("would generate a type `{ty}`, which generated code already defines"),
        );
    }
    // A knob whose enum would shadow the builder's stage parameter.
    assert_error(
        "[knobs.stage]\nvalues = [\"a\"]\ndefault = \"a\"\n[[layer]]\nname = \"a\"\ntext = \"x\"\n",
        &[],
        1,
        "type `Stage`",
    );
}

#[test]
fn slots_named_after_builder_methods() {
    // `opt_out_<selector>` is reserved whether or not the manifest has selectors.
    for method in [
        "finish",
        "flags",
        "family",
        "finish_volatile",
        "opt_out_spine",
    ] {
        assert_error(
            &format!("[[layer]]\nname = \"{method}\"\nslot = \"optional\"\n"),
            &[],
            2,
            &format!("clash with the builder's own `.{method}()` method"),
        );
    }
}

#[test]
fn overlay_files_that_read_as_a_locked_layer() {
    let manifest = |file: &str| {
        format!(
            "[[layer]]\nname = \"safety\"\ntext = \"s\"\nlocked = true\n[[layer]]\nname = \"voice\"\ntext = \"v\"\noverride = \"replace\"\noverlay_file = \"{file}\"\n"
        )
    };
    for file in [
        "Safety.md",
        "SAFETY.MD",
        "safety\\u200b.md",
        "s\\u00adafety.md",
        "\\ufeffsafety.md",
        // Cyrillic `ѕ`, Greek `Α`, fullwidth `ｙ`: letters that read as Latin ones.
        "\\u0455afety.md",
        "S\\u0391FETY.md",
        "safet\\uff59.md",
    ] {
        assert_error(
            &manifest(file),
            &[],
            9,
            "is named after locked layer `safety`",
        );
    }
    for file in ["voice\\u0000.md", "vo\\nice.md", "voice\\u007f.md"] {
        assert_error(&manifest(file), &[], 9, "holds a control character");
    }
    // Two files a case-insensitive file system would take for one.
    assert_error(
        "[[layer]]\nname = \"a\"\ntext = \"s\"\noverride = \"replace\"\noverlay_file = \"Notes.md\"\n[[layer]]\nname = \"b\"\ntext = \"v\"\noverride = \"replace\"\noverlay_file = \"notes.md\"\n",
        &[],
        10,
        "both read overlay file `notes.md`",
    );
}

#[test]
fn very_long_unknown_names_are_reported_without_a_hint() {
    // A 20,000-character unknown key once computed a 3 GB edit-distance table.
    let long = "k".repeat(20_000);
    let errs = errors(
        &format!("{long} = 1\n[[layer]]\nname = \"a\"\ntext = \"x\"\n"),
        &[],
    );
    assert!(
        errs.iter()
            .any(|e| e.starts_with("doctrine.toml:1:1: unknown key")),
        "{:?}",
        errs.iter()
            .map(|e| &e[..e.len().min(120)])
            .collect::<Vec<_>>()
    );
    assert!(errs.iter().all(|e| !e.contains("did you mean")));
    let errs = errors(
        &format!("roles = [\"a\"]\n[[layer]]\nname = \"x\"\ntext = \"t\"\nroles = [\"{long}\"]\n"),
        &[],
    );
    assert!(
        errs.iter().any(|e| e.contains("unknown role")),
        "{}",
        errs.len()
    );
}
