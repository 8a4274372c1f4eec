//! A tool names each prompt as generated code names its `Combination`: the CLI's matrix and
//! diff lines read like the book's.

use doctrine_codegen::inputs::combinations;
use doctrine_codegen::{load, naming, Request};

use crate::crew::crew;

fn crew_manifest() -> doctrine_codegen::Doctrine {
    let root = env!("CARGO_MANIFEST_DIR");
    let request = Request::new("doctrine.toml", format!("{root}/examples/crew"), root);
    load(&request).expect("the crew example loads")
}

#[test]
fn run_time_names_are_the_generated_combinations_names() {
    let d = crew_manifest();
    let ours: Vec<String> = combinations(&d, false)
        .iter()
        .map(|c| naming::name(&d, c, false))
        .collect();
    let generated: Vec<String> = crew::Combination::all().map(|c| c.to_string()).collect();
    assert_eq!(ours, generated);
    assert_eq!(ours[1], "developer+intensity=full");
}

#[test]
fn with_choices_each_choice_layer_is_named_by_its_variant() {
    let d = crew_manifest();
    let all = combinations(&d, true);
    let first = naming::name(&d, &all[0], true);
    assert_eq!(
        first,
        "developer+intensity=lite+team=backend+identity=arch-1"
    );
    let names: std::collections::BTreeSet<String> =
        all.iter().map(|c| naming::name(&d, c, true)).collect();
    assert_eq!(names.len(), all.len(), "two combinations share a name");
}
