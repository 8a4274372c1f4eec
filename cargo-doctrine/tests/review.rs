//! `matrix` and `diff`, run as a user runs them, on small manifests written here: every
//! number the commands print is worked out below from the texts themselves.

mod git_repo;
use git_repo::git;

use std::path::Path;
use std::process::{Command, Output, Stdio};

const MANIFEST: &str = r#"roles = ["dev", "qa"]
separator = "\n\n"

[flags]
terse = false

[[layer]]
name = "base"
text = "Shared rules.\nKeep the board current.\nAsk before deleting."

[[layer]]
name = "role"
[layer.texts]
dev = "Write the code."
qa = "Test the code."

[[layer]]
name = "terse"
text = "Be brief."
when = "terse"
"#;

const BASE: &str = "Shared rules.\nKeep the board current.\nAsk before deleting.";

/// A crate directory holding `manifest` as `doctrine.toml`.
fn crate_with(manifest: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
    std::fs::write(dir.path().join("doctrine.toml"), manifest).unwrap();
    dir
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-doctrine"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The four prompts of [`MANIFEST`], by name, in combination order.
fn prompts() -> Vec<(&'static str, String)> {
    let of = |role: &str, terse: bool| {
        let mut p = format!("{BASE}\n\n{role}");
        if terse {
            p.push_str("\n\nBe brief.");
        }
        p
    };
    vec![
        ("dev", of("Write the code.", false)),
        ("dev+terse", of("Write the code.", true)),
        ("qa", of("Test the code.", false)),
        ("qa+terse", of("Test the code.", true)),
    ]
}

fn fingerprint(text: &str) -> String {
    format!(
        "{:016x}",
        doctrine_core::cache::fingerprint(text.as_bytes())
    )
}

#[test]
fn matrix_lists_every_prompt_with_its_sizes_and_shared_prefixes() {
    let dir = crate_with(MANIFEST);
    let out = stdout(&run_in(dir.path(), &["matrix"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "doctrine.toml: 4 prompts, 4 distinct, 4 stable prefixes; ~tokens = bytes / 4, approximate"
    );
    for (i, (name, text)) in prompts().iter().enumerate() {
        let cells: Vec<&str> = lines[3 + i].split_whitespace().collect();
        let (bytes, tokens) = (text.len(), text.len().div_ceil(4));
        // Every layer is stable, so the prefix is the whole prompt.
        let expected = [name, &*bytes.to_string(), &tokens.to_string()];
        assert_eq!(cells[..3], expected, "{}", lines[3 + i]);
        assert_eq!(cells[3..5], expected[1..], "{}", lines[3 + i]);
        assert_eq!(cells[5], format!("P{}", i + 1));
        let prefix_line = lines[3 + 4 + 2 + i];
        let cells: Vec<&str> = prefix_line.split_whitespace().collect();
        let expected = [format!("P{}", i + 1), fingerprint(text), bytes.to_string()];
        assert_eq!(cells[..3], expected, "{prefix_line}");
        assert!(
            prefix_line.ends_with(&format!("1: {name}")),
            "{prefix_line}"
        );
    }
    assert_eq!(lines.len(), 3 + 4 + 2 + 4);
}

#[test]
fn matrix_shows_identical_prompts_and_prefixes_shared_across_a_volatile_layer() {
    // The flag gates nothing in `qa`'s prompt, and a volatile layer follows the prefix.
    let manifest = MANIFEST.replace("when = \"terse\"", "when = \"terse\"\nroles = [\"dev\"]")
        + "\n[[layer]]\nname = \"now\"\ntier = \"volatile\"\ntext = \"Later.\"\n";
    let dir = crate_with(&manifest);
    let out = stdout(&run_in(dir.path(), &["matrix"]));
    let row = |name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row {name}:\n{out}"))
            .to_string()
    };
    assert!(row("qa+terse").ends_with("P3      = qa"), "{out}");
    assert!(!row("qa").contains('='), "{out}");
    let qa = format!("{BASE}\n\nTest the code.");
    let cells: Vec<String> = row("qa").split_whitespace().map(String::from).collect();
    assert_eq!(cells[1], (qa.len() + "\n\nLater.".len()).to_string());
    // The separator before the volatile layer is the volatile part's.
    assert_eq!(cells[3], qa.len().to_string());
    assert!(out.contains("3 distinct, 3 stable prefixes"), "{out}");
    assert!(out.contains("2: qa, qa+terse"), "{out}");
}

/// Old and new crate directories: the new one with `edit` applied to the manifest.
fn old_and_new(edit: impl Fn(&str) -> String) -> (tempfile::TempDir, tempfile::TempDir) {
    (crate_with(MANIFEST), crate_with(&edit(MANIFEST)))
}

fn diff(old: &Path, new: &Path, extra: &[&str]) -> String {
    let (old, new) = (old.join("doctrine.toml"), new.join("doctrine.toml"));
    let mut args = vec!["diff", old.to_str().unwrap(), new.to_str().unwrap()];
    args.extend(extra);
    stdout(&run_in(old.parent().unwrap(), &args))
}

#[test]
fn a_shared_line_changed_is_one_hunk_reaching_every_prompt() {
    let (old, new) = old_and_new(|m| m.replace("Keep the board current.", "Keep the board tidy."));
    let out = diff(old.path(), new.path(), &[]);
    assert!(
        out.contains("4 prompts before, 4 after: 4 changed, 0 unchanged"),
        "{out}"
    );
    let hunk = "layer `base` changed, in every prompt (4):\n@@ -1,3 +1,3 @@\n Shared rules.\n\
                -Keep the board current.\n+Keep the board tidy.\n Ask before deleting.\n\
                \\ No newline at end of text\n";
    assert!(out.contains(hunk), "{out}");
    assert_eq!(out.matches("@@ ").count(), 1, "{out}");
    // Each prompt: 3 bytes fewer; the stable prefix changes at the first differing byte.
    for (name, text) in prompts() {
        let (before, after) = (text.len(), text.len() - "current".len() + "tidy".len());
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            cells[1..4],
            [&*before.to_string(), &after.to_string(), "-3"],
            "{line}"
        );
        assert_eq!(cells.last(), Some(&"changed"), "{line}");
    }
    let at = "Shared rules.\nKeep the board ".len();
    for (name, text) in prompts() {
        let line = out
            .lines()
            .find(|l| l.ends_with(&format!("  {name}")))
            .unwrap();
        let cells: Vec<&str> = line.split_whitespace().collect();
        let expected = [fingerprint(&text), text.len().to_string()];
        assert_eq!(cells[..2], expected, "{line}");
        let expected = [
            "invalidated".to_string(),
            at.to_string(),
            at.div_ceil(4).to_string(),
        ];
        assert_eq!(cells[3..6], expected, "{line}");
    }
    assert!(out.contains("4 of 4 stable prefixes invalidated"), "{out}");
}

#[test]
fn a_change_to_one_role_reaches_its_prompts_only_and_keeps_the_others_cache() {
    let (old, new) = old_and_new(|m| m.replace("Test the code.", "Test the change."));
    let out = diff(old.path(), new.path(), &["--color", "never"]);
    assert!(
        out.contains("2 changed, 2 unchanged, 0 added, 0 removed"),
        "{out}"
    );
    assert!(
        out.contains("layer `role` changed, in 2 prompts:\n  qa, qa+terse\n"),
        "{out}"
    );
    assert!(out.contains("-Test the code.\n"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("dev")), "{out}");
    let kept: Vec<&str> = out.lines().filter(|l| l.contains(" kept ")).collect();
    assert_eq!(kept.len(), 2, "{out}");
    assert!(out.contains("2 of 4 stable prefixes invalidated"), "{out}");
}

#[test]
fn a_new_flag_adds_prompts_and_a_removed_one_removes_them() {
    let (old, new) = old_and_new(|m| m.replace("terse = false", "terse = false\nloud = false"));
    let out = diff(old.path(), new.path(), &[]);
    assert!(
        out.contains("4 prompts before, 8 after: 0 changed, 4 unchanged, 4 added"),
        "{out}"
    );
    assert!(!out.contains("Text changes"), "{out}");
    let out = diff(new.path(), old.path(), &[]);
    assert!(out.contains("4 unchanged, 0 added, 4 removed"), "{out}");
    assert_eq!(out.matches(" gone ").count(), 4, "{out}");
}

#[test]
fn colour_is_asked_for_or_not() {
    let (old, new) = old_and_new(|m| m.replace("Write the code.", "Write tests."));
    let plain = diff(old.path(), new.path(), &[]);
    assert!(!plain.contains('\x1b'), "piped output is plain");
    let coloured = diff(old.path(), new.path(), &["--color", "always"]);
    assert!(
        coloured.contains("\x1b[31m-Write the code.\x1b[0m"),
        "{coloured}"
    );
    assert!(
        coloured.contains("\x1b[32m+Write tests.\x1b[0m"),
        "{coloured}"
    );
}

#[test]
fn rev_reads_the_old_tree_from_git_and_leaves_nothing_behind() {
    let repo = tempfile::tempdir().unwrap();
    let krate = repo.path().join("agent");
    std::fs::create_dir(&krate).unwrap();
    std::fs::write(krate.join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
    std::fs::write(krate.join("doctrine.toml"), MANIFEST).unwrap();
    git(repo.path(), &["init", "-q"]);
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "one"]);
    let edited = MANIFEST.replace("Ask before deleting.", "Ask first.");
    std::fs::write(krate.join("doctrine.toml"), edited).unwrap();
    // The copy goes in the temporary directory the tool is given, and leaves it empty.
    let tmp = tempfile::tempdir().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_cargo-doctrine"))
        .args(["diff", "--rev", "HEAD"])
        .current_dir(&krate)
        .env("TMPDIR", tmp.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let out = stdout(&run);
    assert!(
        out.starts_with("doctrine.toml at HEAD → doctrine.toml: "),
        "{out}"
    );
    assert!(out.contains("-Ask before deleting.\n"), "{out}");
    assert!(out.contains("+Ask first.\n"), "{out}");
    let left = std::fs::read_dir(tmp.path()).unwrap().count();
    assert_eq!(left, 0, "the old tree is removed");
    let bad = run_in(&krate, &["diff", "--rev", "no-such-branch"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`no-such-branch` is not a revision"));
}

#[test]
fn usage_errors_exit_2_and_say_what_to_give() {
    let dir = crate_with(MANIFEST);
    for (args, says) in [
        (
            &["diff", "doctrine.toml"][..],
            "give two manifests, OLD and NEW, or --rev REV",
        ),
        (
            &["diff", "--color", "sometimes", "a", "b"],
            "the choices: auto, always, never",
        ),
        (
            &["matrix", "--rows"],
            "`matrix` takes --choices, --encoding, --help",
        ),
    ] {
        let out = run_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn check_notes_a_prefix_too_short_to_cache_with_its_size() {
    let dir = crate_with(MANIFEST);
    let out = stdout(&run_in(dir.path(), &["check"]));
    // Every distinct stable prefix is short: one note gives their count and sizes.
    let mut sizes: Vec<usize> = prompts().iter().map(|(_, t)| t.len().div_ceil(4)).collect();
    let prompts = sizes.len();
    sizes.sort_unstable();
    sizes.dedup();
    let (lo, hi) = (sizes[0], sizes[sizes.len() - 1]);
    let note = format!(
        "(of {prompts} prompts) are ~{lo}–{hi} tokens without facts or slots, under the 1024 a \
         provider caches at the least"
    );
    assert!(out.contains(&note), "{note}\n{out}");
    let help = format!(
        "  help: {}–{} more stable tokens would make them cacheable",
        1024 - hi,
        1024 - lo
    );
    assert!(out.contains(&help), "{out}");
    // This manifest's role layer before a shared one is the other note.
    assert_eq!(out.matches("note: ").count(), 2, "{out}");
    assert!(
        out.ends_with("doctrine.toml: no errors, the manifest is fine (2 notes above)\n"),
        "{out}"
    );
    let out = stdout(&run_in(dir.path(), &["check", "--min-cache-tokens", "19"]));
    assert!(
        !out.contains("stable prefix"),
        "no prefix is under 19 tokens: {out}"
    );
    let bad = run_in(dir.path(), &["check", "--min-cache-tokens", "many"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn check_notes_a_role_layer_before_layers_every_role_shares() {
    // `role` varies by role and `rules`, after it, is the same for both.
    let manifest = MANIFEST.replace(
        "[[layer]]\nname = \"terse\"",
        "[[layer]]\nname = \"rules\"\ntext = \"Run the tests.\"\n\n[[layer]]\nname = \"terse\"",
    );
    let dir = crate_with(&manifest);
    let out = stdout(&run_in(dir.path(), &["check", "--min-cache-tokens", "1"]));
    let line = manifest
        .lines()
        .position(|l| l == "name = \"role\"")
        .unwrap()
        + 1;
    // `rules` and, where the flag is on, `terse`: "Run the tests.Be brief.", 23 bytes.
    let note = format!(
        "note: doctrine.toml:{line}:8: layer `role` varies by role but comes before `rules`, \
         `terse`, which every role shares: each role's cached prefix parts from the others' at \
         `role`, so these ~6 tokens (23 bytes) are cached once per role instead of once for all\n\
         \x20 help: if the order is not needed, move `role` after them"
    );
    assert!(out.starts_with(&note), "{out}");
    let json = stdout(&run_in(
        dir.path(),
        &["check", "--format", "json", "--min-cache-tokens", "1"],
    ));
    let value: serde_json::Value = serde_json::from_str(json.trim_end()).unwrap();
    assert_eq!(value["level"], "note");
    assert_eq!(value["spans"][0]["line_start"], line);
    // Shared layers first: nothing to say.
    let (head, terse) = MANIFEST.split_once("[[layer]]\nname = \"terse\"").unwrap();
    let (head, role) = head.split_once("[[layer]]\nname = \"role\"").unwrap();
    let shared_first =
        format!("{head}[[layer]]\nname = \"terse\"{terse}\n[[layer]]\nname = \"role\"{role}");
    let dir = crate_with(&shared_first);
    let out = stdout(&run_in(dir.path(), &["check", "--min-cache-tokens", "1"]));
    assert_eq!(out, "doctrine.toml: no errors, the manifest is fine\n");
}

/// A volatile layer a manifest with messages sends before the history: a note at its name;
/// the same layer in a message after the history: none.
#[test]
fn check_notes_a_volatile_layer_sent_before_the_history() {
    let manifest = "separator = \"\\n\\n\"\n\n[[layer]]\nname = \"base\"\ntext = \"You help.\"\n\n\
                    [[layer]]\nname = \"clock\"\nslot = \"optional\"\ntier = \"volatile\"\n\n\
                    [[message]]\nrole = \"system\"\nlayers = [\"base\"]\n\n\
                    [[message]]\nrole = \"user\"\nlayers = [\"clock\"]\n";
    let dir = crate_with(manifest);
    let out = stdout(&run_in(dir.path(), &["check", "--min-cache-tokens", "1"]));
    assert_eq!(
        out,
        "note: doctrine.toml:8:8: volatile layer `clock` is sent in the `user` message before \
         the conversation's history: it changes every turn, so every turn writes the whole \
         history cached after it anew (`cargo doctrine simulate` compares both placements)\n\
         \x20 help: send it after the history: put it in a `[[message]]` with \
         `after_history = true`, the turn's own context\n\n\
         doctrine.toml: no errors, the manifest is fine (1 note above)\n"
    );
    let after = format!("{manifest}after_history = true\n");
    let dir = crate_with(&after);
    let out = stdout(&run_in(dir.path(), &["check", "--min-cache-tokens", "1"]));
    assert_eq!(out, "doctrine.toml: no errors, the manifest is fine\n");
}

#[test]
fn an_encoding_gives_exact_token_counts() {
    use doctrine_core::tokens::Encoding;
    let dir = crate_with(MANIFEST);
    let out = stdout(&run_in(dir.path(), &["matrix", "--encoding", "o200k"]));
    assert!(
        out.lines()
            .next()
            .unwrap()
            .ends_with("; tokens in o200k_base"),
        "{out}"
    );
    assert!(
        out.lines()
            .nth(2)
            .unwrap()
            .contains("bytes  tokens  stable  tokens"),
        "{out}"
    );
    for (i, (name, text)) in prompts().iter().enumerate() {
        let cells: Vec<&str> = out.lines().nth(3 + i).unwrap().split_whitespace().collect();
        let tokens = Encoding::O200k.count(text).to_string();
        assert_eq!(cells[..3], [name, &*text.len().to_string(), &tokens]);
    }
    // diff: the token at which a prefix first differs, counted in the encoding.
    let (old, new) = old_and_new(|m| m.replace("Keep the board current.", "Keep the board tidy."));
    let out = diff(old.path(), new.path(), &["--encoding", "cl100k"]);
    let at = "Shared rules.\nKeep the board ".len();
    let before = Encoding::Cl100k.count(&BASE[..at]).to_string();
    let line = out.lines().find(|l| l.ends_with("  dev")).unwrap();
    let cells: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        cells[3..6],
        ["invalidated", &*at.to_string(), &before],
        "{line}"
    );
    let bad = run_in(dir.path(), &["matrix", "--encoding", "p50k"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown encoding `p50k`"));
}

/// [`BASE`] in tier `shared`, a text per role in tier `role`, a turn's text last.
fn three_tiers() -> String {
    format!(
        "roles = [\"dev\", \"qa\"]\nseparator = \"\\n\\n\"\ntiers = [\"shared\", \"role\", \"turn\"]\n\n\
         [cache]\nshared = [\"shared\"]\n\n\
         [[layer]]\nname = \"base\"\ntier = \"shared\"\ntext = {BASE:?}\n\n\
         [[layer]]\nname = \"role\"\ntier = \"role\"\n[layer.texts]\ndev = \"Write the code.\"\nqa = \"Test the code.\"\n\n\
         [[layer]]\nname = \"now\"\ntier = \"turn\"\ntext = \"Later.\"\n"
    )
}

#[test]
fn matrix_of_a_tiered_manifest_shows_each_cached_prefix_and_who_shares_it() {
    let manifest = three_tiers();
    let dir = crate_with(&manifest);
    let out = stdout(&run_in(dir.path(), &["matrix"]));
    let table: Vec<Vec<&str>> = out
        .lines()
        .skip_while(|l| !l.starts_with("tier "))
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    let row = |tier: &str, prefix: &str, block: &str, who: &[&str]| {
        let mut row = vec![
            tier.to_string(),
            fingerprint(prefix),
            block.len().to_string(),
        ];
        row.push(block.len().div_ceil(4).to_string());
        row.push(prefix.len().div_ceil(4).to_string());
        row.extend(who.iter().map(|w| w.to_string()));
        row
    };
    // The separator before a block's first layer is the block's.
    let (dev, qa) = ("\n\nWrite the code.", "\n\nTest the code.");
    let expected = [
        row("shared", BASE, BASE, &["every", "prompt", "(2)"]),
        row("role", &format!("{BASE}{dev}"), dev, &["1:", "dev"]),
        row("role", &format!("{BASE}{qa}"), qa, &["1:", "qa"]),
    ];
    assert_eq!(table, expected, "{out}");
}

/// Two roles in tiers `shared`, `role`, `turn`: a shared base of 4,200 bytes (1,050
/// tokens), then the role's 8 bytes after the separator: each prompt is 4,210 bytes, 1,053
/// tokens. The base goes at `{BASE}` (first, shared) or at `{AFTER}` (after the role layer,
/// in the role tier).
const TIERED: &str = r#"roles = ["dev", "qa"]
separator = "\n\n"
tiers = ["shared", "role", "turn"]

[cache]
shared = ["shared"]
{BASE}
[[layer]]
name = "role"
tier = "role"
[layer.texts]
dev = "Dev code"
qa = "QA tests"
{AFTER}"#;

fn tiered(base_first: bool) -> String {
    let tier = if base_first { "shared" } else { "role" };
    let base = format!(
        "\n[[layer]]\nname = \"base\"\ntier = \"{tier}\"\ntext = \"{}\"\n",
        "ab".repeat(2100)
    );
    let (before, after) = if base_first {
        (base, String::new())
    } else {
        (String::new(), base)
    };
    TIERED.replace("{BASE}", &before).replace("{AFTER}", &after)
}

#[test]
fn diff_reports_how_a_change_moves_the_simulated_figures() {
    let simulated = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("simulated ("))
            .unwrap_or_else(|| panic!("no simulated line in:\n{out}"))
            .to_string()
    };
    // 2 roles × 3 sessions × 4 turns = 24 requests of 1,053 + 500 (the message) tokens:
    // 37,272 in all. Base first, in the shared tier: dev's first request writes the base
    // (1,050) and its role (3), qa's reads the base and writes its role, the other 22 read
    // 1,053: 24,216 read (65.0%), 1,056 written, 12,000 uncached; cost (2,421.6 + 1,320 +
    // 12,000) / 37,272. Base moved after the role layer, into the role tier: each role
    // writes its whole 1,053 once, 22 read it: 23,166 read (62.2%), 2,106 written; cost
    // (2,316.6 + 2,632.5 + 12,000) / 37,272.
    let (old, new) = (crate_with(&tiered(true)), crate_with(&tiered(false)));
    let out = diff(old.path(), new.path(), &["--color", "never"]);
    assert_eq!(
        simulated(&out),
        "simulated (3 sessions × 4 turns, default workload): served 65.0% → 62.2%, \
         cost 0.422 → 0.455"
    );
    assert!(out.ends_with(&format!("{}\n", simulated(&out))), "{out}");
    // MANIFEST's prompts are far under the minimum: nothing is cached on either side.
    let (old, new) = old_and_new(|m| m.replace("Test the code.", "Test the change."));
    let out = diff(old.path(), new.path(), &[]);
    assert_eq!(
        simulated(&out),
        "simulated (3 sessions × 4 turns, default workload): served 0.0% → 0.0%, \
         cost 1.000 → 1.000 (no prefix reaches the 1024-token minimum on either side)"
    );
}

#[test]
fn check_notes_each_tier_whose_prefixes_are_too_short_to_cache() {
    let dir = crate_with(&three_tiers());
    let out = stdout(&run_in(dir.path(), &["check"]));
    let (dev, qa) = (
        format!("{BASE}\n\nWrite the code."),
        format!("{BASE}\n\nTest the code."),
    );
    let shared = format!(
        "note: doctrine.toml: the prefix that ends with tier `shared` is under the 1024 tokens \
         a provider caches at the least (without facts or slots), so its breakpoint caches \
         nothing there: every prompt (2) (~{})\n",
        BASE.len().div_ceil(4)
    );
    let role = format!(
        "note: doctrine.toml: 2 of the 2 prefixes that end with tier `role` are under the 1024 \
         tokens a provider caches at the least (without facts or slots), so its breakpoint \
         caches nothing there: dev (~{}); qa (~{})\n",
        dev.len().div_ceil(4),
        qa.len().div_ceil(4)
    );
    assert!(out.contains(&shared), "{out}");
    assert!(out.contains(&role), "{out}");
    // Two notes, one per cached tier; none on layer order, which the tiers fix.
    assert_eq!(out.matches("note: ").count(), 2, "{out}");
}

#[test]
fn diff_simulates_the_settings_it_is_given() {
    let (old, new) = old_and_new(|m| m.replace("Write the code.", "Write tests."));
    let line = |extra: &[&str]| {
        let out = diff(old.path(), new.path(), extra);
        out.lines()
            .find(|l| l.starts_with("simulated ("))
            .unwrap()
            .to_string()
    };
    assert!(line(&[]).starts_with("simulated (3 sessions × 4 turns, default workload): "));
    let on = line(&["--flag", "terse"]);
    assert!(
        on.starts_with("simulated (3 sessions × 4 turns, default workload, with terse): "),
        "{on}"
    );
    let typo = line(&["--flag", "tersee"]);
    assert!(
        typo.ends_with("not run on the old manifest: unknown flag: `tersee`; valid: terse"),
        "{typo}"
    );
}

/// [`MANIFEST`] with a three-value knob whose suffix ends the `base` layer.
fn with_suffix(manifest: &str) -> String {
    manifest.replace("terse = false\n", "terse = false\n\n[knobs.pace]\nvalues = [\"slow\", \"even\", \"fast\"]\ndefault = \"even\"\n")
        .replace(
            "text = \"Shared rules.\\nKeep the board current.\\nAsk before deleting.\"\n",
            "text = \"Shared rules.\\nKeep the board current.\\nAsk before deleting.\"\n\
             [layer.suffix]\ntext = \"Pace: {pace}.\"\n",
        )
}

#[test]
fn an_edit_before_a_knob_suffix_is_shown_once_with_the_knob_values() {
    let old = crate_with(&with_suffix(MANIFEST));
    let new = crate_with(
        &with_suffix(MANIFEST).replace("Keep the board current.", "Keep the board tidy."),
    );
    let out = diff(old.path(), new.path(), &["--color", "never"]);
    assert!(
        out.contains("12 prompts before, 12 after: 12 changed"),
        "{out}"
    );
    // One hunk, not one per value of `pace`, naming the values it reaches.
    assert_eq!(out.matches("@@ ").count(), 1, "{out}");
    assert_eq!(out.matches("-Keep the board current.").count(), 1, "{out}");
    assert!(
        out.contains(
            "layer `base` changed, in every prompt (12):\n  (the text before its last \
             paragraph, which differs by prompt and is unchanged: pace=slow; pace=even; \
             pace=fast)\n@@ -1,3 +1,3 @@\n Shared rules.\n-Keep the board current.\n\
             +Keep the board tidy.\n Ask before deleting.\n"
        ),
        "{out}"
    );
    // An edit of the suffix itself differs by value: a change each.
    let new = crate_with(&with_suffix(MANIFEST).replace("Pace: {pace}.", "Pace {pace}."));
    let out = diff(old.path(), new.path(), &["--color", "never"]);
    assert_eq!(out.matches("@@ ").count(), 3, "{out}");
}

#[test]
fn two_manifests_named_alike_are_headed_as_given() {
    let (old, new) = old_and_new(|m| m.replace("Write the code.", "Write tests."));
    let out = diff(old.path(), new.path(), &[]);
    let head = format!(
        "{} → {}: ",
        old.path().join("doctrine.toml").display(),
        new.path().join("doctrine.toml").display()
    );
    assert!(out.starts_with(&head), "{out}");
}

#[test]
fn rev_says_when_the_old_side_is_what_fails() {
    // A skills directory git never kept: the old revision names one that is not in it.
    let repo = tempfile::tempdir().unwrap();
    std::fs::write(repo.path().join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
    let old = format!("{MANIFEST}\n[skills]\ndir = \"skills\"\n");
    std::fs::write(repo.path().join("doctrine.toml"), old).unwrap();
    std::fs::create_dir(repo.path().join("skills")).unwrap();
    git(repo.path(), &["init", "-q"]);
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "one"]);
    std::fs::write(repo.path().join("doctrine.toml"), MANIFEST).unwrap();
    let out = run_in(repo.path(), &["diff", "--rev", "HEAD"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let (head, rest) = err.split_once('\n').unwrap();
    assert_eq!(
        head,
        "in the OLD side: the crate as git has it at `HEAD` (the files named below are those \
         of `HEAD`, not of the working tree):"
    );
    let line = MANIFEST.lines().count() + 3;
    let error = format!(
        "error: doctrine.toml:{line}:7: missing skills directory `skills` \
         (looked for `skills`)\n"
    );
    assert!(rest.starts_with(&error), "{err}");
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    // The book's review says it alike.
    let out_dir = repo.path().join("book");
    let book = run_in(
        repo.path(),
        &["book", "--rev", "HEAD", "--out", out_dir.to_str().unwrap()],
    );
    assert_eq!(book.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&book.stderr), err);
}
