//! `cargo doctrine book` on hostile content, at scale, in review mode, and given bad input,
//! its page read back as a browser parses it (`book_dom`): nothing in a prompt opens a tag
//! or runs, nothing is lost, many prompts are paged, errors say what to do.

mod book_dom;

mod git_repo;
use git_repo::git;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use doctrine_codegen::{inputs, load, naming, plan, Request};

fn crate_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-doctrine"))
        .arg("book")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The book of `manifest` in `dir`, as written.
fn page(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    std::fs::read_to_string(dir.join("doctrine-book/index.html")).unwrap()
}

/// Every prompt of `dir/doctrine.toml`, by name.
fn prompts(dir: &Path) -> Vec<(String, String)> {
    let d = load(&Request::new("doctrine.toml", dir, dir)).unwrap();
    let plan = plan::build(&d);
    inputs::combinations(&d, false)
        .into_iter()
        .map(|c| {
            let given = inputs::Given::new(&d, &plan, c.clone());
            let prompt = inputs::compose(&d, &plan, &given);
            (naming::name(&d, &c, false), prompt.as_str().to_string())
        })
        .collect()
}

/// Each prompt's section holds its bytes exactly, in its blocks and in its copy control.
fn every_prompt_is_whole(page: &book_dom::Page, prompts: &[(String, String)]) {
    assert_eq!(page.scripts, 1, "no script but the page's own");
    for (name, text) in prompts {
        let section = page
            .sections
            .iter()
            .find(|s| s.names.contains(name))
            .unwrap();
        assert!(
            section.bytes == *text,
            "{name}: blocks differ from the prompt"
        );
        let copied: String = serde_json::from_str(&section.json).unwrap();
        assert!(
            copied == *text,
            "{name}: the copy text differs from the prompt"
        );
    }
}

const HOSTILE: &str = "<script>alert(1)</script> </pre></div></section>\n\
<!-- a comment that never ends --> -->\n&amp; &lt; &#x41; &nbsp; \"quoted\" 'single'\n\
\u{202E}reversed\u{202C} \u{2067}isolate \u{200B}zero\u{200D}width\u{FEFF}\n\
<img src=x onerror=alert(2)> <style>body{display:none}</style> ]]> \\u0000 carriage\rreturn\u{7}bell";

#[test]
fn hostile_text_and_a_megabyte_layer_stay_text_and_whole() {
    let big: String = (0..60_000)
        .map(|i| format!("line {i:05} <b>&</b>\n"))
        .collect::<String>();
    assert!(big.len() > 1_000_000);
    let manifest = "roles = [\"a\", \"b\"]\nseparator = \"\\n\\n\"\n\n\
        [[layer]]\nname = \"hostile\"\nfile = \"hostile.md\"\n\n\
        [[layer]]\nname = \"big\"\nfile = \"big.md\"\nroles = [\"b\"]\n";
    let dir = crate_with(&[
        ("doctrine.toml", manifest),
        ("hostile.md", HOSTILE),
        ("big.md", &big),
    ]);
    let html = page(dir.path(), &["doctrine.toml"]);
    let page = book_dom::read(&html);
    let prompts = prompts(dir.path());
    assert!(prompts
        .iter()
        .any(|(_, t)| t.contains("<script>alert(1)</script>")));
    assert!(prompts.iter().any(|(_, t)| t.len() > 1_000_000));
    assert!(prompts
        .iter()
        .all(|(_, t)| t.contains("carriage\rreturn\u{7}")));
    every_prompt_is_whole(&page, &prompts);
    // The markup a prompt holds stays text: no element of it exists in the page.
    for tag in ["img", "style", "pre"] {
        let found = page
            .html
            .select(&scraper::Selector::parse(tag).unwrap())
            .count();
        let allowed = usize::from(tag == "style");
        assert_eq!(found, allowed, "<{tag}> elements");
    }
    // The invisible and direction-changing characters are kept, and named on the label.
    let hostile = &page.sections[0].layers[0].label;
    assert!(
        hostile.contains("U+202E ×1") && hostile.contains("U+200B ×1"),
        "{hostile}"
    );
}

#[test]
fn ten_thousand_prompts_are_paged_and_whole() {
    let values: Vec<String> = (0..1000).map(|i| format!("\"v{i}\"")).collect();
    let roles: Vec<String> = (0..10).map(|i| format!("\"r{i}\"")).collect();
    let manifest = format!(
        "roles = [{}]\nseparator = \"\\n\\n\"\n\n[knobs.k]\nvalues = [{}]\ndefault = \"v0\"\n\n\
         [[layer]]\nname = \"base\"\ntext = \"Work <carefully> & well.\"\n\
         [layer.suffix]\ntext = \"Setting: {{k}}.\"\n",
        roles.join(", "),
        values.join(", ")
    );
    let dir = crate_with(&[("doctrine.toml", &manifest)]);
    let page = book_dom::read(&page(dir.path(), &["doctrine.toml"]));
    let prompts = prompts(dir.path());
    assert_eq!(prompts.len(), 10_000);
    // A row per distinct prompt (the roles share each text), paged by the script.
    assert_eq!(page.rows, 1000);
    let pager = scraper::Selector::parse("#pager").unwrap();
    assert_eq!(page.html.select(&pager).count(), 1);
    every_prompt_is_whole(&page, &prompts);
}

#[test]
fn a_review_shows_each_changed_text_once_and_the_changed_bytes() {
    let old = "roles = [\"dev\", \"qa\"]\nseparator = \"\\n\\n\"\n\n\
        [[layer]]\nname = \"base\"\ntext = \"Shared rules.\\nAsk before deleting.\"\n\n\
        [[layer]]\nname = \"role\"\n[layer.texts]\ndev = \"Write the code.\"\nqa = \"Test the code.\"\n";
    let new = old.replace("Ask before deleting.", "Ask before deleting anything.");
    let dir = crate_with(&[("old/doctrine.toml", old), ("new/doctrine.toml", &new)]);
    let html = page(
        dir.path(),
        &["--diff", "old/doctrine.toml", "new/doctrine.toml"],
    );
    let page = book_dom::read(&html);
    let select = |s: &str| scraper::Selector::parse(s).unwrap();
    let changes: Vec<String> = page
        .html
        .select(&select("#review .change .label"))
        .map(|l| l.text().collect())
        .collect();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert!(
        changes[0].contains("base") && changes[0].contains("dev, qa"),
        "{changes:?}"
    );
    let added: Vec<String> = page
        .html
        .select(&select("#review .diff .added"))
        .map(|l| l.text().collect())
        .collect();
    assert_eq!(added, ["+Ask before deleting anything."]);
    let new_prompts = prompts(&dir.path().join("new"));
    every_prompt_is_whole(&page, &new_prompts);
    for section in &page.sections {
        let inserted: Vec<String> = page
            .html
            .select(&select(&format!("#{} .text .ins", section.id)))
            .map(|l| l.text().collect())
            .collect();
        assert_eq!(inserted, [" anything"], "{}", section.id);
        let cache: String = page
            .html
            .select(&select(&format!("#{} ul.cache", section.id)))
            .map(|l| l.text().collect::<String>())
            .collect();
        // "Shared rules.\n\nAsk before deleting" is where the old prefix first differs.
        let at = "Shared rules.\nAsk before deleting".len();
        assert!(
            cache.contains(&format!("invalidated from byte {at} ")),
            "{cache}"
        );
    }
}

#[test]
fn bad_input_is_an_error_that_names_the_fix() {
    let dir = crate_with(&[("doctrine.toml", "[[layer]]\nname = \"a\"\ntext = \"A.\"\n")]);
    let out = run_in(dir.path(), &["--diff", "doctrine.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--diff takes two manifests, OLD and NEW"),
        "{stderr}"
    );
    std::fs::write(dir.path().join("file"), "").unwrap();
    let out = run_in(dir.path(), &["doctrine.toml", "--out", "file"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("give --out a directory you can write"),
        "{stderr}"
    );
    let out = run_in(dir.path(), &["missing.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read missing.toml"));
}

/// A fact's value inside shipped text, a list item's field and a default are the
/// caller's: each is marked where it lands, with whose it is, and the layer's label says
/// it holds run-time values; the shipped text around them is not marked.
#[test]
fn the_callers_values_inside_shipped_text_are_marked_where_they_land() {
    let manifest = r#"
[facts.user]
tier = "stable"
optional = ["*"]
default = "friend"

[facts.tools]
tier = "stable"
optional = ["*"]
list = { item = "- {.}" }

[[layer]]
name = "greeting"
text = "Hello, {user}.{?tools} Tools:\n{tools}{/tools}"
interpolate = true
"#;
    let dir = crate_with(&[("doctrine.toml", manifest)]);
    let html = page(
        dir.path(),
        &[
            "--fact",
            "user=Ada <b>",
            "--fact",
            "tools=grep",
            "--fact",
            "tools=sed",
        ],
    );
    let read = book_dom::read(&html);
    let [section] = &read.sections[..] else {
        panic!("one prompt")
    };
    assert_eq!(section.bytes, "Hello, Ada <b>. Tools:\n- grep\n- sed");
    assert_eq!(
        section.values,
        [
            ("Ada <b>".to_string(), "fact `user`".to_string()),
            ("grep".to_string(), "fact `tools`".to_string()),
            ("sed".to_string(), "fact `tools`".to_string()),
        ]
    );
    assert!(section.layers[0].label.contains("HOLDS CALLER'S VALUES"));
    // Not given, the default prints, and is the caller's value too.
    let html = page(dir.path(), &[]);
    let read = book_dom::read(&html);
    assert_eq!(
        read.sections[0].values,
        [("friend".to_string(), "fact `user`".to_string())]
    );
}

/// A layer's header is drawn as the first bytes of its layer's block, its value marked as
/// the caller's even in a layer that is all run-time text (instructions), where the
/// layer's own text is marked whole.
#[test]
fn a_headers_value_is_marked_in_its_layers_block() {
    let manifest = r##"
[facts.cwd]
tier = "stable"
required = ["*"]

[[layer]]
name = "project_docs"
instructions = true
verbatim = true
header = "# AGENTS.md instructions for {cwd}\n\n"
wrap = ["<INSTRUCTIONS>\n", "\n</INSTRUCTIONS>"]
"##;
    let dir = crate_with(&[("doctrine.toml", manifest)]);
    let html = page(
        dir.path(),
        &[
            "--fact",
            "cwd=/work/app",
            "--instruction",
            "project_docs=project@AGENTS.md:Run the tests.",
        ],
    );
    let read = book_dom::read(&html);
    let [section] = &read.sections[..] else {
        panic!("one prompt")
    };
    assert_eq!(
        section.bytes,
        "# AGENTS.md instructions for /work/app\n\n<INSTRUCTIONS>\nRun the tests.\n</INSTRUCTIONS>"
    );
    assert_eq!(
        section.values,
        [("/work/app".to_string(), "fact `cwd`".to_string())]
    );
    let layer = &section.layers[0];
    assert!(
        layer.classes.iter().any(|c| c == "runtime"),
        "{:?}",
        layer.classes
    );
    assert!(
        layer.label.contains("HOLDS CALLER'S VALUES"),
        "{}",
        layer.label
    );
}

/// `book --rev REV` reviews the change since a revision, both sides composed with the
/// inputs given: the old text read from git, the changed bytes marked, the values the
/// caller gave marked in the new side's pages.
#[test]
fn a_review_against_a_revision_takes_the_inputs_for_both_sides() {
    let old = "[facts.user]\ntier = \"stable\"\nrequired = [\"*\"]\n\n\
        [[layer]]\nname = \"base\"\ntext = \"Hello, {user}. Ask before deleting.\"\ninterpolate = true\n";
    let dir = crate_with(&[("doctrine.toml", old)]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "one"]);
    let new = old.replace("Ask before deleting.", "Ask first.");
    std::fs::write(dir.path().join("doctrine.toml"), new).unwrap();
    // A required fact: without it neither side composes.
    let out = run_in(dir.path(), &["--rev", "HEAD"]);
    assert_ne!(out.status.code(), Some(0));
    let html = page(dir.path(), &["--rev", "HEAD", "--fact", "user=Ada"]);
    let read = book_dom::read(&html);
    let [section] = &read.sections[..] else {
        panic!("one prompt")
    };
    assert_eq!(section.bytes, "Hello, Ada. Ask first.");
    assert_eq!(
        section.values,
        [("Ada".to_string(), "fact `user`".to_string())]
    );
    let select = |s: &str| scraper::Selector::parse(s).unwrap();
    let added: Vec<String> = read
        .html
        .select(&select("#review .diff .added"))
        .map(|l| l.text().collect())
        .collect();
    // The layer's text as composed with the inputs, on both sides.
    assert_eq!(added, ["+Hello, Ada. Ask first."]);
    let removed: Vec<String> = read
        .html
        .select(&select("#review .diff .removed"))
        .map(|l| l.text().collect())
        .collect();
    assert_eq!(removed, ["-Hello, Ada. Ask before deleting."]);
    let inserted: String = read
        .html
        .select(&select(&format!("#{} .text .ins", section.id)))
        .map(|l| l.text().collect::<String>())
        .collect();
    // The changed bytes are marked in the page (a character diff of the two texts).
    assert!(!inserted.is_empty());
}

/// `--models`: a page per `[models]` rule and one for a name no rule matches, each with
/// the text that rule chooses; with `--model` too, or on a manifest without `[models]`, a
/// usage error.
#[test]
fn models_make_a_page_per_rule() {
    let manifest = "[[layer]]\nname = \"base\"\ndir = \"base\"\n\n[models]\n\
                    default = { base = \"plain\" }\n\n[models.rules]\n\"big\" = { base = \"long\" }\n";
    let dir = crate_with(&[
        ("doctrine.toml", manifest),
        ("base/plain.md", "Plain text."),
        ("base/long.md", "Long text."),
    ]);
    let html = page(dir.path(), &["--models"]);
    let read = book_dom::read(&html);
    let text_of = |name: &str| {
        let section = read
            .sections
            .iter()
            .find(|s| s.names.iter().any(|n| n == name));
        section.map(|s| s.bytes.clone())
    };
    assert_eq!(
        text_of("(no flag on)+model=big").as_deref(),
        Some("Long text.")
    );
    assert_eq!(
        text_of("(no flag on)+model=default").as_deref(),
        Some("Plain text.")
    );
    let both = run_in(dir.path(), &["--models", "--model", "big"]);
    assert_eq!(both.status.code(), Some(2));
    let none = crate_with(&[("doctrine.toml", "[[layer]]\nname = \"a\"\ntext = \"A\"\n")]);
    let out = run_in(none.path(), &["--models"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no `[models]` table"));
}

/// The book takes every input `render` takes, for every prompt of the book: a user skill
/// directory (its skill replaces the shipped one in the index) and a list fact's byte
/// budget (the list is cut as `render` cuts it). Both were once accepted and ignored.
#[test]
fn skill_directories_and_list_budgets_reach_every_prompt() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let out = tempfile::tempdir().unwrap();
    let book = |args: &[&str]| {
        let run = Command::new(env!("CARGO_BIN_EXE_cargo-doctrine"))
            .arg("book")
            .args(args)
            .arg("--out")
            .arg(out.path())
            .current_dir(root)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(0), "{stderr}");
        (
            std::fs::read_to_string(out.path().join("index.html")).unwrap(),
            stderr.into_owned(),
        )
    };
    let agent = ["examples/agent/doctrine.toml", "--slot", "task=Fix it."];
    let (shipped, _) = book(&agent);
    assert!(shipped.contains("Preparing a release of the crate."));
    assert!(!shipped.contains("Releasing, the way this team does it."));
    let with_skills = [&agent[..], &["--skills", "examples/agent/user-skills"]].concat();
    let (user, notices) = book(&with_skills);
    assert!(user.contains("Releasing, the way this team does it."));
    assert!(!user.contains("Preparing a release of the crate."));
    assert!(
        notices.contains("user-skills/release.md: Skill `release` replaces the shipped"),
        "{notices}"
    );
    let budget = [
        "tests/fixtures/list_budget.toml",
        "--fact",
        "docs=éé doc",
        "--fact",
        "docs=other",
    ];
    let (whole, _) = book(&budget);
    assert!(whole.contains("éé doc"));
    let (cut, notices) = book(&[&budget[..], &["--max-bytes", "docs=3"]].concat());
    assert!(!cut.contains("éé doc"));
    assert!(
        notices.contains("notice: fact `docs`: cut to 2 of 14 bytes by its byte budget"),
        "{notices}"
    );
}
