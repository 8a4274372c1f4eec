//! `simulate`, run as a user runs it, on a small manifest written here: every number it
//! prints is worked out below from the texts. Tokens are bytes / 4, rounded up.

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Each prompt: `base` (16 bytes), the separator (2), the role's text (8): 26 bytes, 7
/// tokens, all stable. `base` alone is 16 bytes, 4 tokens.
const MANIFEST: &str = r#"roles = ["dev", "qa"]
separator = "\n\n"

[[layer]]
name = "base"
text = "Shared rules ok."

[[layer]]
name = "role"
[layer.texts]
dev = "Dev code"
qa = "QA tests"
"#;

/// 2 roles × 2 sessions × 2 turns = 8 requests; each turn's message is 40 bytes, 10
/// tokens, so each request is 17 tokens of input, 136 in all, and 80 are messages.
/// [`simulate_on`] adds `--no-history`: each request is the prompt and the message
/// ([`with_history`] resends the conversation).
const WORKLOAD: &[&str] = &[
    "simulate",
    "doctrine.toml",
    "--sessions",
    "2",
    "--turns",
    "2",
    "--turn-bytes",
    "40",
];

fn simulate(extra: &[&str]) -> Output {
    simulate_on(MANIFEST, extra)
}

fn simulate_on(manifest: &str, extra: &[&str]) -> Output {
    with_history(manifest, &[&["--no-history"], extra].concat())
}

/// As [`simulate_on`], with the history resent (the command's default).
fn with_history(manifest: &str, extra: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
    std::fs::write(dir.path().join("doctrine.toml"), manifest).unwrap();
    run_in(dir.path(), &[WORKLOAD, extra].concat())
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-doctrine"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Standard output, after checking the run succeeded with nothing on standard error.
fn printed(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(err, "");
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The table's row for `name`, its cells.
fn row(text: &str, name: &str) -> Vec<String> {
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no row {name} in:\n{text}"));
    line.split_whitespace()
        .skip(1)
        .map(str::to_string)
        .collect()
}

#[test]
fn two_tiers_write_each_role_s_prefix_once_and_read_it_after() {
    let text = printed(&simulate(&["--min-cache-tokens", "4"]));
    assert!(
        text.starts_with(
            "doctrine.toml: 2 roles × 2 sessions × 2 turns = 8 requests; a turn's message \
             40 bytes, no history, per-session values 64 bytes, per-turn values 64 bytes\n\
             layout: two tiers (one breakpoint, at the end of the stable prefix)\n\
             cache: anthropic-style (at most 4 breakpoints), at least 4 tokens"
        ),
        "{text}"
    );
    // Each role's first request writes its 7-token prefix; its 3 others read it.
    assert_eq!(
        row(&text, "dev"),
        ["4", "68", "21", "7", "40", "30.9%", "0.748"]
    );
    assert_eq!(
        row(&text, "qa"),
        ["4", "68", "21", "7", "40", "30.9%", "0.748"]
    );
    // 42 of 136 read; (42 × 0.1 + 14 × 1.25 + 80) / 136 = 101.7 / 136.
    assert_eq!(
        row(&text, "all"),
        ["8", "136", "42", "14", "80", "30.9%", "0.748"]
    );
    // No volatile part: both placements send the same requests.
    assert!(
        text.ends_with(
            "served from cache: 30.9% of input tokens; cost: 0.748 of no caching \
             (read 0.1×, write 1.25×)\n\n\
             where the volatile part goes:\n  \
             at the end of the system text     : served 30.9%, cost 0.748 of no caching\n  \
             in the turn's message, after history: served 30.9%, cost 0.748 of no caching\n"
        ),
        "{text}"
    );
}

#[test]
fn a_breakpoint_after_the_shared_layer_lets_the_roles_share_it() {
    let tiered = ["--breakpoints-after", "base,role"];
    let text = printed(&simulate(
        &[&tiered[..], &["--min-cache-tokens", "4"]].concat(),
    ));
    assert!(
        text.contains("layout: a breakpoint after base, role\n"),
        "{text}"
    );
    // dev's first request writes base (4) and then its role (3); qa's first reads base and
    // writes its role (3); every later request reads its 7.
    assert_eq!(
        row(&text, "dev"),
        ["4", "68", "21", "7", "40", "30.9%", "0.748"]
    );
    assert_eq!(
        row(&text, "qa"),
        ["4", "68", "25", "3", "40", "36.8%", "0.680"]
    );
    // (46 × 0.1 + 10 × 1.25 + 80) / 136 = 97.1 / 136.
    assert_eq!(
        row(&text, "all"),
        ["8", "136", "46", "10", "80", "33.8%", "0.714"]
    );
    // With a minimum of 5 tokens base alone is never cached: as with two tiers.
    let text = printed(&simulate(
        &[&tiered[..], &["--min-cache-tokens", "5"]].concat(),
    ));
    assert_eq!(
        row(&text, "all"),
        ["8", "136", "42", "14", "80", "30.9%", "0.748"]
    );
}

#[test]
fn openai_style_caches_the_common_prefix_with_no_surcharge() {
    let text = printed(&simulate(&[
        "--provider",
        "openai",
        "--min-cache-tokens",
        "4",
        "--read-price",
        "0.5",
    ]));
    // Steps of 128 from 4 tokens, within 17: 4 only, the first 16 bytes (base, the same in
    // every request): written once, read 7 times. (28 × 0.5 + 4 + 104) / 136 = 122 / 136.
    assert_eq!(
        row(&text, "all"),
        ["8", "136", "28", "4", "104", "20.6%", "0.897"]
    );
    assert!(text.contains("(read 0.5×, write 1×)"), "{text}");
}

#[test]
fn an_unknown_layer_or_role_or_too_many_breakpoints_exit_2() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--breakpoints-after", "base,rol"],
            "error: unknown layer `rol`; the layers: base, role\n",
        ),
        (
            &["--breakpoints-after", "base,role,base,role,base"],
            "error: 5 breakpoints given, more than the 4 a request may mark\n",
        ),
        (
            &["--roles", "dev,ops"],
            "error: unknown role `ops`; the roles: dev, qa\n",
        ),
        (
            &["--provider", "gemini"],
            "error: unknown provider `gemini`; the providers: anthropic, openai\n",
        ),
    ];
    for (extra, message) in cases {
        let out = simulate(extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with(message), "{extra:?}: {err}");
        assert_eq!(out.stdout, b"");
    }
}

#[test]
fn roles_can_be_chosen() {
    let text = printed(&simulate(&["--roles", "qa", "--min-cache-tokens", "4"]));
    assert!(
        text.starts_with("doctrine.toml: 1 roles × 2 sessions"),
        "{text}"
    );
    // qa alone: written once, read 3 times.
    assert_eq!(
        row(&text, "all"),
        ["4", "68", "21", "7", "40", "30.9%", "0.748"]
    );
}

/// [`MANIFEST`] in three tiers, with a per-turn slot: `Prompt::blocks()` gives `base` (16
/// bytes, 4 tokens, shared), the separator and the role's text (10 bytes: the prefix is 26
/// bytes, 7 tokens), then the separator and the slot's 64 bytes, never cached. Each prompt
/// is 92 bytes, 23 tokens; with the message, 33 tokens a request, 264 in all.
const TIERED: &str = r#"roles = ["dev", "qa"]
separator = "\n\n"
tiers = ["shared", "role", "turn"]

[cache]
shared = ["shared"]

[[layer]]
name = "base"
text = "Shared rules ok."

[[layer]]
name = "role"
tier = "role"
[layer.texts]
dev = "Dev code"
qa = "QA tests"

[[layer]]
name = "ambient"
tier = "turn"
slot = "optional"
"#;

#[test]
fn a_tiered_manifest_is_cut_where_its_blocks_end_unless_breakpoints_are_given() {
    let text = printed(&simulate_on(TIERED, &["--min-cache-tokens", "4"]));
    assert!(
        text.contains(
            "layout: the manifest's tiers, shared | role | turn (a breakpoint after each but \
             the last, as `Prompt::blocks()` marks them)\n"
        ),
        "{text}"
    );
    // As `--breakpoints-after base,role` on the untiered manifest: dev's first request
    // writes base (4) and its role (3), qa's first reads base and writes its role (3), every
    // later one reads 7. The slot and the message are never cached: 26 tokens a request.
    assert_eq!(
        row(&text, "dev"),
        ["4", "132", "21", "7", "104", "15.9%", "0.870"]
    );
    assert_eq!(
        row(&text, "qa"),
        ["4", "132", "25", "3", "104", "18.9%", "0.835"]
    );
    // (46 × 0.1 + 10 × 1.25 + 208) / 264 = 225.1 / 264.
    assert_eq!(
        row(&text, "all"),
        ["8", "264", "46", "10", "208", "17.4%", "0.853"]
    );
    // One breakpoint after `role` instead: each role writes its own 7 tokens once.
    let text = printed(&simulate_on(
        TIERED,
        &["--min-cache-tokens", "4", "--breakpoints-after", "role"],
    ));
    assert!(text.contains("layout: a breakpoint after role\n"), "{text}");
    // (42 × 0.1 + 14 × 1.25 + 208) / 264 = 229.7 / 264.
    assert_eq!(
        row(&text, "all"),
        ["8", "264", "42", "14", "208", "15.9%", "0.870"]
    );
}

#[test]
fn an_encoding_counts_exactly_and_the_minimum_compares_exact_counts() {
    // `hello`, ` world`, ` hello`, ` world`: 4 tokens in o200k, 23 bytes, 6 estimated.
    let manifest = MANIFEST.replace("Shared rules ok.", "hello world hello world");
    let read_write = |extra: &[&str]| {
        let args = [&["--breakpoints-after", "base"][..], extra].concat();
        let text = printed(&simulate_on(&manifest, &args));
        (text.clone(), row(&text, "all")[2..4].to_vec())
    };
    // Estimated, the 6 tokens of `base` reach a minimum of 5: written once, read 7 times.
    let (text, cells) = read_write(&["--min-cache-tokens", "5"]);
    assert!(
        text.contains("; ~tokens = bytes / 4, approximate\n"),
        "{text}"
    );
    assert_eq!(cells, ["42", "6"]);
    // Counted exactly they are 4: under 5 nothing is cached, at 4 it is.
    let exact = ["--encoding", "o200k"];
    let (text, cells) = read_write(&[&exact[..], &["--min-cache-tokens", "5"]].concat());
    assert!(text.contains("; tokens in o200k_base\n"), "{text}");
    assert_eq!(cells, ["0", "0"]);
    let (_, cells) = read_write(&[&exact[..], &["--min-cache-tokens", "4"]].concat());
    assert_eq!(cells, ["28", "4"]);
    let out = simulate(&["--encoding", "p50k"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `extra` is refused with exit code 2 and a message starting with `message`.
fn refused(extra: &[&str], message: &str) {
    let out = simulate(extra);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
    assert!(err.starts_with(message), "{extra:?}: {err}");
    assert_eq!(out.stdout, b"");
}

#[test]
fn a_workload_without_sessions_or_turns_is_refused() {
    // Not a run whose input costs "0.000 of no caching": there is no input to cost.
    refused(
        &["--sessions", "0"],
        "error: --sessions 0: a workload needs at least one session and one turn\n",
    );
    refused(
        &["--turns", "0"],
        "error: --turns 0: a workload needs at least one session and one turn\n",
    );
}

#[test]
fn a_clock_that_would_overflow_is_refused() {
    // 2 sessions × 2 turns: the last request would be sent at 3 × 2^63 s.
    refused(
        &["--turn-seconds", "9223372036854775808"],
        "error: --turn-seconds 9223372036854775808: the last of 4 turns would be sent \
         after the simulated clock's end (2^64 - 1 s)\n",
    );
    // The largest that fits runs.
    let out = printed(&simulate(&["--turn-seconds", "6148914691236517205"]));
    assert!(out.contains("served from cache"), "{out}");
}

#[test]
fn a_message_or_value_larger_than_any_context_window_is_refused() {
    // Not an allocation of 100 GB per request.
    for option in ["--turn-bytes", "--session-bytes", "--volatile-bytes"] {
        refused(
            &[option, "100000000000"],
            &format!(
                "error: {option} 100000000000: more than the 16777216 bytes (16 MiB) this \
                 command gives a text\n"
            ),
        );
    }
}

#[test]
fn more_requests_than_a_count_holds_are_refused() {
    // 2 roles × 2^62 sessions × 4 turns = 2^65 requests: not a run that fills memory with
    // requests, nor a count that wraps.
    refused(
        &[
            "--sessions",
            "4611686018427387904",
            "--turns",
            "4",
            "--turn-seconds",
            "0",
        ],
        "error: 2 roles × 4611686018427387904 sessions × 4 turns: more requests than this \
         machine counts\n",
    );
}

/// A prompt with a volatile part: `base` (16 bytes, 4 tokens) stable, then the separator
/// and the turn's `now` (`turn T now`, 10 bytes).
const VOLATILE: &str = r#"separator = "\n\n"

[facts.now]
tier = "volatile"
required = ["*"]

[[layer]]
name = "base"
text = "Shared rules ok."

[[layer]]
name = "clock"
text = "{now}"
interpolate = true
tier = "volatile"
"#;

/// The workload of the tests on [`VOLATILE`]: 1 session of 2 turns, 40-byte messages and
/// replies, 8-byte per-turn values, a minimum of 4 tokens.
const TWO_TURNS: &[&str] = &[
    "--sessions",
    "1",
    "--turns",
    "2",
    "--turn-bytes",
    "40",
    "--reply-bytes",
    "40",
    "--volatile-bytes",
    "8",
    "--min-cache-tokens",
    "4",
];

/// History on (the default): 1 session of 2 turns, 40-byte messages and replies. Each
/// turn's message ends with a breakpoint; the next turn finds it one message back.
///
/// Volatile part at the end of the system text: turn 0 sends base (16, breakpoint), the
/// separator and `turn 0 now` (12), its message (40, breakpoint): 68 bytes, 17 tokens,
/// all written (4 + 13). Turn 1 sends base, `turn 1 now`, message 0, reply 0, message 1:
/// 148 bytes, 37 tokens; what turn 0 wrote after base began with `turn 0 now`, so only base
/// is read (4) and 33 are written. 54 in all, 4 read, 50 written: 7.4%,
/// (0.4 + 62.5) / 54 = 1.165.
///
/// Volatile part in the turn's message: turn 0 sends base (breakpoint), then `turn 0
/// now`, a blank line and its message (52, breakpoint): 68 bytes, 17 written. Turn 1 sends
/// base, that message again, reply 0 and its own (52): 160 bytes, 40 tokens; the 68 bytes
/// turn 0 wrote are read (17), 23 written. 57 in all, 17 read, 40 written: 29.8%,
/// (1.7 + 50) / 57 = 0.907.
#[test]
fn with_history_the_volatile_part_in_the_message_keeps_the_history_cached() {
    let text = printed(&with_history(VOLATILE, TWO_TURNS));
    assert!(
        text.starts_with(
            "doctrine.toml: 1 roles × 1 sessions × 2 turns = 2 requests; a turn's message \
             40 bytes, its reply 40 bytes, the history resent,"
        ),
        "{text}"
    );
    assert_eq!(
        row(&text, "all"),
        ["2", "54", "4", "50", "0", "7.4%", "1.165"]
    );
    assert!(
        text.ends_with(
            "where the volatile part goes:\n  \
             at the end of the system text     : served 7.4%, cost 1.165 of no caching\n  \
             in the turn's message, after history: served 29.8%, cost 0.907 of no caching\n"
        ),
        "{text}"
    );
}

/// [`VOLATILE`] as two messages, the clock's its own: sent after the history, the table
/// sends it at the start of the turn's message (the figures of the volatile part in the
/// message, above: 29.8%, 0.907); sent before it, at the end of the system text (7.4%,
/// 1.165), where its text, new every turn, makes every turn write the history again.
#[test]
fn the_table_sends_a_message_after_the_history_where_the_manifest_puts_it() {
    let messages = |after: bool| {
        let clock = match after {
            true => "after_history = true\n",
            false => "",
        };
        format!(
            "{VOLATILE}\n[[message]]\nrole = \"system\"\nlayers = [\"base\"]\n\n\
             [[message]]\nrole = \"user\"\nlayers = [\"clock\"]\n{clock}"
        )
    };
    let run = |after: bool| printed(&with_history(&messages(after), TWO_TURNS));
    let (before, after) = (run(false), run(true));
    assert_eq!(
        row(&before, "all"),
        ["2", "54", "4", "50", "0", "7.4%", "1.165"]
    );
    assert_eq!(
        row(&after, "all"),
        ["2", "57", "17", "40", "0", "29.8%", "0.907"]
    );
    let line = |text: &str| {
        let at = text.find("\nmessages: ").map(|i| i + 1);
        at.map(|i| text[i..].lines().next().unwrap_or("").to_string())
    };
    assert_eq!(
        line(&before).as_deref(),
        Some("messages: 2 before the history, 0 after it (`after_history`: at the start of the turn's message), as the table sends them")
    );
    assert_eq!(
        line(&after).as_deref(),
        Some("messages: 1 before the history, 1 after it (`after_history`: at the start of the turn's message), as the table sends them")
    );
    // The lines comparing the placements of the volatile part are the same for both.
    let tail = |text: &str| text[text.find("where the volatile part goes").unwrap()..].to_string();
    assert_eq!(tail(&before), tail(&after));
    assert!(
        after.ends_with(
            "  at the end of the system text     : served 7.4%, cost 1.165 of no caching\n  \
             in the turn's message, after history: served 29.8%, cost 0.907 of no caching\n"
        ),
        "{after}"
    );
    // A manifest without messages has no such line.
    assert_eq!(line(&printed(&simulate(&[]))), None);
}
