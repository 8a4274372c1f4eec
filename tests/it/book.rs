//! The prompt book (`doctrine::testing::Book`) and the generated `Combination`: the book
//! carries every prompt exactly; a one-line edit to a file every crew role shares is one
//! hunk of the book's text plus one matrix line per prompt, where one snapshot per prompt
//! changes every file; a knob's suffix variants share their text; a manifest's messages
//! are frames around their texts; every flag is set whatever its default.

use doctrine::testing::Book;
use doctrine::Choice;

use crate::crew::{book_prompt, crew, seat};
use crate::messages::msgs;
use crate::support::book_reader;
use crate::support::crew_tools::loaded_tools;

/// The crew with one line of its shared `base.md` edited; every other file is the crew's.
mod edited {
    doctrine::doctrine!("../fixtures/crew_edited/doctrine.toml");
}

/// A manifest without roles, flags or knobs, whose separator is `|`.
mod bar {
    doctrine::doctrine!("../fixtures/trimmed_slot.toml");
}

/// One layer for both roles with a knob's suffix, and the same with one line edited.
mod suffixed {
    doctrine::doctrine!("../fixtures/book_suffix.toml");
}

mod suffixed_edited {
    doctrine::doctrine!("../fixtures/book_suffix_edited.toml");
}

/// A text per role, each with the knob's suffix.
mod suffixed_roles {
    doctrine::doctrine!("../fixtures/book_suffix_roles.toml");
}

/// Flags alone (`brief` defaults to on), and a mode with two flags.
mod flags_only {
    doctrine::doctrine!("../fixtures/sections.toml");
}

mod modes_and_flags {
    doctrine::doctrine!("../fixtures/gates.toml");
}

/// The edited crew's prompt for a combination: the crew test's seats and tools.
fn edited_prompt(c: edited::Combination) -> edited::Prompt {
    let (team, identity) = seat(crew::Role::parse(c.role.as_str()).unwrap());
    let facts = edited::Facts::from(c.role).with_tools(loaded_tools(c.role.as_str()));
    edited::compose(
        facts,
        edited::Team::parse(team.as_str()).unwrap(),
        edited::Identity::parse(identity.as_str()).unwrap(),
    )
    .flags(c.flags)
    .knobs(c.knobs)
    .ambient(None)
    .finish()
}

/// The hunks of a line diff of `old` and `new` with 3 lines of context (as `git diff` and
/// `cargo insta review` show one), each as `(lines removed, lines added)`.
fn hunks(old: &str, new: &str) -> Vec<(usize, usize)> {
    similar::TextDiff::from_lines(old, new)
        .grouped_ops(3)
        .iter()
        .map(|group| {
            group.iter().fold((0, 0), |(rm, add), op| match op.tag() {
                similar::DiffTag::Equal => (rm, add),
                _ => (rm + op.old_range().len(), add + op.new_range().len()),
            })
        })
        .collect()
}

#[test]
fn the_book_carries_every_prompt_byte_for_byte() {
    let book = Book::of("crew", crew::Combination::all(), book_prompt).to_string();
    let read = book_reader::prompts(&book, crew::SEPARATOR);
    let bytes = book_reader::bytes(&book);
    assert_eq!(read.len(), 48);
    for ((name, text), c) in read.iter().zip(crew::Combination::all()) {
        let p = book_prompt(c);
        assert_eq!(name, &c.to_string());
        assert_eq!(text, p.as_str(), "{name}");
        assert_eq!(bytes[name], p.as_str().len(), "{name}");
    }
}

#[test]
fn one_edited_line_in_a_shared_file_is_one_hunk_and_a_matrix_line_per_prompt() {
    let old = Book::of("crew", crew::Combination::all(), book_prompt).to_string();
    let new = Book::of("crew", edited::Combination::all(), edited_prompt).to_string();
    let book = hunks(&old, &new);
    // The matrix: each prompt's bytes and fingerprint, one line per prompt, in one run;
    // then the edited line of `base.md`, once.
    assert_eq!(book, [(48, 48), (1, 1)]);

    // One snapshot per prompt, as the crew had before the book: the hunk in every file.
    let mut files = Vec::new();
    for (c, e) in crew::Combination::all().zip(edited::Combination::all()) {
        assert_eq!(c.to_string(), e.to_string());
        files.push(hunks(book_prompt(c).as_str(), edited_prompt(e).as_str()));
    }
    assert_eq!(files.len(), 48);
    assert!(files.iter().all(|h| h == &[(1, 1)]), "{files:?}");
    println!(
        "prompt book: {} hunks {book:?}; one snapshot per prompt: {} files, {} hunks",
        book.len(),
        files.len(),
        files.iter().map(Vec::len).sum::<usize>()
    );
}

#[test]
fn volatile_texts_follow_a_bar_and_another_joint_is_a_text_of_its_own() {
    let c = crew::Combination::all().next().unwrap();
    let (team, identity) = seat(c.role);
    let ambient = crew::compose(crew::Facts::from(c.role), team, identity)
        .ambient(Some("Release day."))
        .finish();
    let other = bar::compose().note(Some("A note.")).finish();
    assert_eq!(other.as_str(), "Base.|A note.|A note was given.");
    let mut book = Book::new("mixed");
    book.add("ambient", &ambient)
        .add("bar", &other)
        .add("again", &other);
    let text = book.to_string();

    // The crew's joint is the book's; the other manifest's `|` is a text before a layer.
    let read = book_reader::prompts(&text, crew::SEPARATOR);
    assert_eq!(read[0], ("ambient".into(), ambient.as_str().to_string()));
    assert_eq!(read[1], ("bar".into(), other.as_str().to_string()));
    assert_eq!(read[2], ("again".into(), other.as_str().to_string()));
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("ambient ")).collect();
    assert!(
        rows[0].ends_with(" | 7"),
        "the ambient slot is volatile: {}",
        rows[0]
    );
    // Texts are numbered layer by layer: `bar`'s `base` comes right after the crew's.
    let bar: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("bar "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!((bar[1], bar[2]), ("31", "31"));
    // Each `|` is a gap of its own, labelled by the layer it stands before, and listed
    // beside that layer's text.
    assert_eq!(bar[4..], ["3", "8", "9", "10", "11"]);
    assert!(
        text.contains(" = bar\n"),
        "a prompt equal to an earlier one: {text}"
    );
    for gap in ["== 8 (before note),", "== 10 (before note_seen),"] {
        assert!(
            text.contains(&format!("{gap} in 2 prompts (1 distinct): bar\n|\n\n")),
            "{text}"
        );
    }
    assert!(text.contains("A text `(before L)` stands where"), "{text}");
}

#[test]
fn variants_that_differ_in_their_last_paragraph_share_the_rest() {
    let prompt = |c: suffixed::Combination| suffixed::compose(c.role).knobs(c.knobs).finish();
    let old = Book::of("suffixed", suffixed::Combination::all(), prompt).to_string();
    let new = Book::of("suffixed", suffixed_edited::Combination::all(), |c| {
        suffixed_edited::compose(c.role).knobs(c.knobs).finish()
    })
    .to_string();
    // The rules once, each pace's line once.
    assert!(
        old.contains("\n== 1 house, in every prompt\n# House rules\n"),
        "{old}"
    );
    assert!(old
        .contains("\n== 2 house, in 2 prompts: lead+pace=calm, helper+pace=calm\nPace: calm.\n\n"));
    assert!(old.contains(
        "\n== 3 house, in 2 prompts: lead+pace=brisk, helper+pace=brisk\nPace: brisk.\n\n"
    ));
    let rows: Vec<&str> = old.lines().filter(|l| l.contains("+pace=")).collect();
    assert!(
        rows[0].ends_with("  1+2 4") && rows[1].ends_with("  1+3 4"),
        "{rows:?}"
    );
    // Every prompt reads back whole.
    for ((name, text), c) in book_reader::prompts(&old, suffixed::SEPARATOR)
        .iter()
        .zip(suffixed::Combination::all())
    {
        assert_eq!(text, prompt(c).as_str(), "{name}");
    }
    // An edit to the shared rules: every prompt's matrix line, and the line once.
    assert_eq!(hunks(&old, &new), [(4, 4), (1, 1)]);
}

#[test]
fn a_suffix_under_every_roles_text_is_shown_once_with_its_prompts() {
    let prompt =
        |c: suffixed_roles::Combination| suffixed_roles::compose(c.role).knobs(c.knobs).finish();
    let book = Book::of("roles", suffixed_roles::Combination::all(), prompt).to_string();
    // Each role's text once, each pace's line once, in both roles' prompts.
    assert_eq!(book.matches("\nPace: calm.\n").count(), 1, "{book}");
    assert_eq!(book.matches("\nPace: brisk.\n").count(), 1, "{book}");
    assert!(
        book.contains("seat, in 2 prompts: lead+pace=calm, helper+pace=calm\nPace: calm.\n"),
        "{book}"
    );
    for ((name, text), c) in book_reader::prompts(&book, suffixed_roles::SEPARATOR)
        .iter()
        .zip(suffixed_roles::Combination::all())
    {
        assert_eq!(text, prompt(c).as_str(), "{name}");
    }
}

/// Every prompt of the messages fixture, each optional piece there or not: a message with
/// no text is left out, wrapper and all.
fn message_prompts() -> Vec<(String, msgs::Prompt)> {
    let mut out = Vec::new();
    for bits in 0..16u8 {
        let on = |bit: u8, text: &'static str| (bits & (1 << bit) != 0).then_some(text);
        let facts = msgs::Facts {
            sandbox: msgs::Sandbox::ReadOnly,
            cwd: on(3, "/repo"),
        };
        let prompt = msgs::compose(facts)
            .approvals(on(0, "Ask first."))
            .project_doc(on(1, "Project rules."))
            .user_doc(on(2, "My rules."))
            .finish();
        out.push((format!("p{bits:02}"), prompt));
    }
    out
}

#[test]
fn each_message_is_a_frame_around_its_texts_and_every_prompt_reads_back() {
    let prompts = message_prompts();
    let mut book = Book::new("messages");
    for (name, prompt) in &prompts {
        book.add(name, prompt);
    }
    let text = book.to_string();
    for ((name, read), (_, prompt)) in book_reader::prompts(&text, msgs::SEPARATOR)
        .iter()
        .zip(&prompts)
    {
        assert_eq!(read, prompt.as_str(), "{name}");
    }
    // Each frame once, headed by its role and place, its wrapper at its top and bottom,
    // only there: no wrapper is a stretch between two layers.
    let frames = [
        "\n== M1 begins: system message, sent before the history, in every prompt\n== 1 base,",
        "\n== M1 ends\n\n== M2 begins: developer message, sent before the history, in every \
         prompt; it opens with\n<permissions>\n\n\n== 2 sandbox,",
        "\n== M2 ends; it closes with\n\n</permissions>\n\n== M3 begins: user message, sent \
         before the history, in 12 prompts: p02, ",
        "\n== M3 ends\n\n== M4 begins: user message, sent after the history, in 8 prompts: \
         p08, p09, p10, p11, p12, p13, p14, p15; it opens with\n<environment_context>\n\n\n\
         == 8 environment,",
        "\n== M4 ends; it closes with\n\n</environment_context>\n\n== end of book\n",
    ];
    for frame in frames {
        assert!(text.contains(frame), "{frame:?} in {text}");
    }
    for wrapper in ["<permissions>", "</environment_context>"] {
        assert_eq!(text.matches(wrapper).count(), 1, "{wrapper} in {text}");
    }
    let gaps: Vec<&str> = text.lines().filter(|l| l.contains(" (before ")).collect();
    assert_eq!(
        gaps,
        [
            "== 3 (before approvals), in 8 prompts: p01, p03, p05, p07, p09, p11, p13, p15",
            "== 7 (before user_doc), in 4 prompts: p06, p07, p14, p15"
        ],
        "only the joins written by `join_before` stand between texts: {text}"
    );
    // A row per prompt: its messages in brackets, the volatile one after the bar.
    let row = |name: &str| {
        let line = text.lines().find(|l| l.starts_with(name)).unwrap();
        line.split_once("  M")
            .map(|(_, r)| format!("M{r}"))
            .unwrap()
    };
    assert_eq!(row("p00 "), "M1[1] M2[2]");
    assert_eq!(row("p12 "), "M1[1] M2[2] M3[6] | M4[8]");
    assert_eq!(row("p15 "), "M1[1] M2[2 3 4] M3[5 7 6] | M4[8]");
    assert!(text.contains("\n16 prompts (16 distinct) made of 8 texts in 4 messages; "));
}

#[test]
fn combinations_set_every_flag_whatever_its_default_and_name_the_ones_on() {
    // `brief` defaults to on: the first combination still has it off.
    let all: Vec<flags_only::Combination> = flags_only::Combination::all().collect();
    let flags: Vec<bool> = all.iter().map(|c| c.flags.brief).collect();
    assert_eq!(flags, [false, true]);
    let names: Vec<String> = all.iter().map(ToString::to_string).collect();
    assert_eq!(names, ["(no flag on)", "brief"]);

    // A mode, then the flags counted off before on, the first flag slowest.
    let names: Vec<String> = modes_and_flags::Combination::all()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(
        names,
        ["work", "work+strict", "work+verbose", "work+verbose+strict"]
    );
    let last = modes_and_flags::Combination::all().last().unwrap();
    assert_eq!(last.mode, modes_and_flags::Mode::Work);
    assert!(last.flags.verbose && last.flags.strict);
}

/// The variable that makes [`pins_a_book_into_the_directory_given`] write its book.
const SNAP_DIR: &str = "DOCTRINE_TEST_SNAP_DIR";

/// Run by [`accepting_without_cargo_insta_writes_the_snapshot_cargo_insta_writes`] in a
/// process of its own (`insta` reads its variables once per process); a no-op otherwise.
#[test]
#[ignore = "run as a child process by the test of accepting without cargo-insta"]
fn pins_a_book_into_the_directory_given() {
    let Some(dir) = std::env::var_os(SNAP_DIR) else {
        return;
    };
    let prompt = |c: suffixed::Combination| suffixed::compose(c.role).knobs(c.knobs).finish();
    insta::with_settings!({ snapshot_path => dir, prepend_module_to_snapshot => false }, {
        doctrine::testing::assert_book!("suffixed", suffixed::Combination::all(), prompt);
    });
}

/// The guide's route without `cargo-insta` writes the `.snap` as `cargo insta accept` does:
/// no `assertion_line` in its header (a renamed `.snap.new` keeps one, and a later
/// `cargo insta accept` would drop it, an unrelated hunk).
#[test]
fn accepting_without_cargo_insta_writes_the_snapshot_cargo_insta_writes() {
    let guide = include_str!("../../doctrine/docs/testing.md").replace('\n', " ");
    assert!(
        guide.contains("`INSTA_UPDATE=always cargo test`"),
        "the guide's route"
    );
    assert!(
        !guide.contains("rename it over"),
        "no route that keeps `assertion_line`"
    );
    let run = |update: &str| {
        let dir = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "book::pins_a_book_into_the_directory_given"])
            .args(["--ignored", "--test-threads", "1"])
            .env(SNAP_DIR, dir.path())
            .env("INSTA_UPDATE", update)
            .env_remove("CI")
            .env_remove("INSTA_FORCE_PASS")
            .output()
            .unwrap();
        let files: Vec<(String, String)> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&p).unwrap())
            })
            .collect();
        (out, files)
    };
    let (out, files) = run("always");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let [(name, snap)] = &files[..] else {
        panic!("one file: {files:?}")
    };
    assert_eq!(name, "suffixed.snap");
    let header = snap.split("\n---\n").next().unwrap_or_default();
    assert!(header.contains("expression: prompt book"), "{snap}");
    assert!(!snap.contains("assertion_line"), "{snap}");
    // What renaming a pending `.snap.new` would have kept.
    let (_, files) = run("new");
    let [(name, pending)] = &files[..] else {
        panic!("one file: {files:?}")
    };
    assert_eq!(name, "suffixed.snap.new");
    assert!(pending.contains("assertion_line"), "{pending}");
}
