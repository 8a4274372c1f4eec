//! A coding agent's project instruction files forwarded as a list fact, with no glue: a
//! file of whitespace alone is left out (`skip = "blank"`), files are parted by one blank
//! line whether or not they end with a line break (`join = { end_line = true, text = "\n"
//! }`), and the budget counts the files' bytes, not the joins (`max_bytes = { items = 80
//! }`). Each test asserts the user message's bytes as the agent sends them.

use doctrine::introspect::Counted;

mod forwarded {
    doctrine::doctrine!("../../doctrine/docs/examples/forwarded/doctrine.toml");
}

use forwarded::{compose, Facts};

/// 36 bytes, ending with a line break.
const CHECK: &str = "Run `make check` before you commit.\n";
/// 36 bytes, without one.
const LOG: &str = "Use the `log` crate, not `println!`.";
/// 40 bytes.
const SHORT: &str = "Keep functions short; split a long one.\n";

/// The user message the agent sends for these files and notes.
fn user_message(docs: &[&str], notes: Option<&str>) -> String {
    let p = compose(Facts { docs }).notes(notes).finish();
    let messages = p.messages();
    assert_eq!(messages.len(), usize::from(!p.as_str().is_empty()));
    messages
        .first()
        .map_or(String::new(), |m| m.text.to_string())
}

#[test]
fn files_are_parted_by_one_blank_line_and_blank_ones_left_out() {
    let docs = [CHECK, " \n\t\n", LOG];
    assert_eq!(
        user_message(&docs, Some("Prefer small commits.")),
        "Prefer small commits.\n\n--- project-doc ---\n\n\
         Run `make check` before you commit.\n\nUse the `log` crate, not `println!`."
    );
    // Only blank files: the list is absent, and so is its layer and its join.
    assert_eq!(
        user_message(&[" ", "\n\n"], Some("Prefer small commits.")),
        "Prefer small commits."
    );
    assert_eq!(user_message(&["\n"], None), "");
}

/// 80 bytes of the files' text: the first two (72), then 8 of the third, cut where the
/// budget ends; the two joins (a blank line each) are not counted.
#[test]
fn the_budget_counts_the_files_not_the_joins() {
    let docs = [CHECK, LOG, SHORT];
    let p = compose(Facts { docs: &docs }).finish();
    assert_eq!(
        p.as_str(),
        "Run `make check` before you commit.\n\nUse the `log` crate, not `println!`.\n\nKeep fun"
    );
    let cut = p.cuts()[0];
    assert_eq!((cut.name, cut.counted), ("docs", Counted::ListItems));
    assert_eq!((cut.printed, cut.full), (80, 112));
    crate::support::told_cut::assert_cut_told(
        &p,
        "fact `docs`",
        "cut to 80 of 112 bytes of its items by its byte budget (`max_bytes`), at a character boundary",
        "list fact `docs` cut to 80 of 112 bytes of its items by its byte budget",
    );
}

/// The builder lowers the budget, counted the same way: 36 bytes are the first file
/// whole, and the second is not begun (no join left dangling).
#[test]
fn the_builder_lowers_the_budget_of_the_files() {
    let docs = [CHECK, LOG, SHORT];
    let p = compose(Facts { docs: &docs }).max_bytes_docs(36).finish();
    assert_eq!(p.as_str(), CHECK);
    assert_eq!((p.cuts()[0].printed, p.cuts()[0].full), (36, 112));
    let p = compose(Facts { docs: &docs }).max_bytes_docs(40).finish();
    assert_eq!(p.as_str(), format!("{CHECK}\nUse "));
    // A higher budget leaves the manifest's.
    let p = compose(Facts { docs: &docs })
        .max_bytes_docs(1 << 20)
        .finish();
    assert_eq!(p.cuts()[0].printed, 80);
}
