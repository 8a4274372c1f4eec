//! `cargo doctrine book`'s work apart from its command line: every prompt a manifest makes
//! with the inputs given ([`compose`]), the web page's book of them with what the manifest
//! says of each layer (its gate, its overlay field), and in review mode the change from an
//! old manifest's prompts ([`review`]). The page itself is `doctrine_book::Book::html`,
//! shared with `doctrine::testing`.

pub(crate) mod compose;
pub(crate) mod review;

use doctrine_book::{Book, LayerAbout};
use doctrine_codegen::model::Layer;
use doctrine_codegen::Doctrine;

use crate::prompts::Prompts;

/// The book of `prompts`, titled after the manifest.
pub(crate) fn of(prompts: &Prompts) -> Book {
    let d = &prompts.doctrine;
    let mut book = Book::new(d.manifest_display.clone());
    book.roles(d.roles.iter().cloned());
    for layer in &d.layers {
        book.describe(layer.name.clone(), about(d, layer));
    }
    for c in &prompts.all {
        book.add(&c.name, &c.prompt);
    }
    book
}

/// What the manifest says of `layer` that its prompts do not record.
fn about(d: &Doctrine, layer: &Layer) -> LayerAbout {
    let mut gate = Vec::new();
    let written = |conds: &[doctrine_codegen::model::Cond]| {
        conds
            .iter()
            .map(|c| c.written.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !layer.when.is_empty() {
        gate.push(format!("when {}", written(&layer.when)));
    }
    for any in &layer.when_any {
        gate.push(format!("when any: {}", written(any)));
    }
    if !layer.unless.is_empty() {
        gate.push(format!("unless {}", written(&layer.unless)));
    }
    for any in &layer.unless_any {
        gate.push(format!("unless any: {}", written(any)));
    }
    if let Some(scope) = &layer.scope {
        let roles: Vec<&str> = scope.iter().map(|&r| d.roles[r].as_str()).collect();
        gate.push(format!("roles {}", roles.join(", ")));
    }
    let overlay = match (&layer.selector, &layer.overlay) {
        (Some(selector), _) => Some(format!("selector {}", selector.name)),
        (None, Some(o)) => Some(format!("{} (file {})", o.field, o.file)),
        (None, None) => None,
    };
    LayerAbout {
        gate: (!gate.is_empty()).then(|| gate.join("; ")),
        overlay,
    }
}
