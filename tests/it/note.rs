//! A layer's `note`: one line for whoever reads the layer table, shown under its row in
//! `explain()` and in `LayerInfo`, never in the prompt.

mod n {
    doctrine::doctrine!("../fixtures/note/doctrine.toml");
}

const NOTE: &str = "Reviewed by the safety team; change with care.";

#[test]
fn a_note_is_shown_under_its_layer_and_not_in_the_prompt() {
    assert_eq!(n::LAYERS[0].note, Some(NOTE));
    assert_eq!(n::LAYERS[1].note, None);
    let prompt = n::compose().finish();
    assert_eq!(prompt.as_str(), "Base.\n\n---\n\nTail.");
    let table = prompt.explain().to_string();
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[1].contains("base"), "{table}");
    assert_eq!(lines[2].trim_start(), format!("↳ note: {NOTE}"), "{table}");
    assert!(lines[3].contains("tail"), "{table}");
    assert_eq!(table.matches("note:").count(), 1, "{table}");
}
