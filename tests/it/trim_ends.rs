//! `trim = "start"` / `"end"`: a text trimmed at one end only, as embedded, once rendered
//! and as a slot's value.

mod ends {
    doctrine::doctrine!("../fixtures/trim_ends.toml");
}

use ends::{compose, Flag};

#[test]
fn each_layer_is_trimmed_at_the_ends_it_names() {
    let p = compose().flag(Flag::More, false).note(None).finish();
    assert_eq!(
        p.as_str(),
        "    indented code|Ends with a break.\n|both|  Start."
    );
}

#[test]
fn a_template_trimmed_at_its_end_keeps_its_start_once_rendered() {
    let p = compose().flag(Flag::More, true).note(None).finish();
    assert_eq!(p.layer("rendered"), Some("  Start.\nMore."));
}

#[test]
fn a_slot_takes_the_manifests_end_trim() {
    let p = compose().note(Some("\n  a note \n\n")).finish();
    assert_eq!(p.layer("note"), Some("\n  a note"));
    // Blank once trimmed: not given.
    let p = compose().note(Some(" \n ")).finish();
    assert_eq!(p.layer("note"), None);
}
