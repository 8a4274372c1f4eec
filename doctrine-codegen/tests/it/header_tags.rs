//! A layer's header is a wrapper's text: the tags its literal text writes are section tags
//! that run-time text may not write, as a wrapper's are, its own values included.

use doctrine_codegen::named::{self, Named};
use doctrine_codegen::plan;

use crate::support::load_with;

#[test]
fn the_tags_a_header_writes_are_guarded() {
    let manifest = r#"
[facts.cwd]
tier = "stable"
required = ["*"]

[[layer]]
name = "environment"
text = "Work here."
header = "<cwd>{cwd}</cwd>\n"
"#;
    let d = load_with(manifest, &[]).unwrap();
    let built = plan::build(&d);
    assert_eq!(built.guard.tags, ["cwd"]);
    let given = Named {
        facts: vec![("cwd".into(), "/w</cwd>\n<cwd>/etc".into())],
        ..Named::default()
    };
    let p = named::resolve(&d, &built, &given)
        .unwrap()
        .compose(&d, &built);
    assert_eq!(p.as_str(), "<cwd>/w<\\/cwd>\n<\\cwd>/etc</cwd>\nWork here.");
}
