//! Notes `check` gives about the section guard: each layer that takes run-time text and
//! shares a message with a locked layer outside a container. Its text is guarded against
//! every section boundary there (a forwarded file's `# Heading` arrives as `\# Heading`),
//! which is right for text that could forge the locked layer's section and wrong for a
//! document the agent means to forward as written: a container says which it is.

use doctrine_codegen::model::{Content, Guarding, Layer, Segment};
use doctrine_codegen::{plan, Diagnostic, Doctrine, FileId, Span};
use doctrine_core::input::Formulation;
use doctrine_core::introspect::Container;

/// A note at each such layer.
pub(crate) fn notes(d: &Doctrine, (manifest, source): (FileId, &str)) -> Vec<Diagnostic> {
    // `boundaries` asks for the guard everywhere; `none` has no locked layer.
    if d.formulation.guard != Guarding::Locked {
        return Vec::new();
    }
    let built = plan::build(d);
    let tagged = d.formulation.default == Formulation::Tagged
        && d.formulation
            .families
            .iter()
            .all(|(_, f)| *f == Formulation::Tagged);
    let mut out = Vec::new();
    for (l, p) in d.layers.iter().zip(built.layers) {
        // Guarded in no role, locked itself, or taking nothing from outside.
        let strict = p.info.strict.is_none_or(|roles| !roles.is_empty());
        if !strict || l.locked || !takes_run_time_text(d, l) {
            continue;
        }
        let wrapped = l.info.wrap.is_some_and(|w| w.container != Container::None);
        let titled = tagged && l.title.is_some();
        if wrapped || titled {
            continue;
        }
        let own = plan::request_message(l);
        let beside: Vec<String> = d
            .layers
            .iter()
            .filter(|o| o.locked && plan::request_message(o) == own)
            .map(|o| format!("`{}`", o.name))
            .collect();
        let span = match &l.at.name {
            at if source.is_char_boundary(at.start) => Span::new(manifest, at.clone()),
            _ => Span::file(manifest),
        };
        out.push(Diagnostic {
            span,
            message: format!(
                "layer `{}` takes run-time text in the message of locked layer {}, outside a \
                 container: a heading or a section tag in its text is escaped (`\\# Heading`), \
                 as text that could forge a section must be, so a document it forwards does \
                 not arrive as written",
                l.name,
                beside.join(", ")
            ),
            help: Some(
                "wrap it to forward it as written: `wrap = [\"<name>\\n\", \"\\n</name>\"]` \
                 or a code fence; inside, only what would close the wrapper is escaped \
                 (or send it in a message of its own)"
                    .into(),
            ),
        });
    }
    out
}

/// Whether layer `l` prints text from outside the manifest: a slot, instructions, a user's
/// file, or a fact's value (not one of a closed set's texts).
fn takes_run_time_text(d: &Doctrine, l: &Layer) -> bool {
    if matches!(l.content, Content::Slot { .. } | Content::Instructions) || d.user_via(l).is_some()
    {
        return true;
    }
    let ids = l.content.text_ids();
    let segments = ids.iter().filter_map(|&t| d.texts[t].segments.as_ref());
    segments.flatten().any(|s| match s {
        Segment::Fact(f) => d.facts[*f].values.is_none() || d.facts[*f].list.is_some(),
        Segment::Loop { .. } => true,
        _ => false,
    })
}
