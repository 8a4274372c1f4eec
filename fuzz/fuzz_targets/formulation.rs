//! Arbitrary text in every place run-time text lands in a prompt (a fact, a list fact's
//! fields, a replacing and an appended overlay, a selector's file, instructions' scopes
//! and texts, two slots), in each formulation, through the code `doctrine!` generates for
//! `fuzz/formulation/doctrine.toml`: the prompt's section boundaries in reach of its locked
//! layer (by `in_reach`, the guard's promise stated plainly: the manifest is one message,
//! so every tag of a section and heading line at level 1 or 2 outside a container, and in
//! the tagged formulation each title's closing tag inside its content) are exactly its
//! titles' delimiters, the locked layer is its shipped text, every escape is a `\`, and
//! the stable and volatile halves compose alone to the same bytes.
#![no_main]

use std::io::Write;

use arbitrary::Arbitrary;
use doctrine::__private::in_reach;
use doctrine::input::Formulation;
use doctrine::instructions::Instruction;
use doctrine::introspect::SectionState;
use libfuzzer_sys::fuzz_target;

mod fx {
    doctrine::doctrine!("../formulation/doctrine.toml");
    /// What the manifest guards its run-time text against.
    pub fn guard() -> &'static doctrine::__private::Guard {
        &__doctrine::GUARD
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    formulation: u8,
    repo: String,
    tools: Vec<(String, String)>,
    style: String,
    tools_more: String,
    spine: Option<String>,
    rules: Vec<(u8, String, String)>,
    note: Option<String>,
    task: String,
}

fuzz_target!(|input: Input| {
    let f = doctrine_fuzz::formulation(input.formulation);
    let items: Vec<fx::ToolsItem> = (input.tools.iter().take(4))
        .map(|(name, note)| fx::ToolsItem { name, note })
        .collect();
    let rules: Vec<Instruction> = (input.rules.iter().take(3))
        .map(doctrine_fuzz::instruction)
        .collect();
    let overlay = fx::Overlay {
        style: input.style.clone(),
        tools_more: input.tools_more.clone(),
    };
    // The selector's file, read through the runtime's own loader.
    let file = tempfile::Builder::new().tempfile_in("/dev/shm").unwrap();
    let path = file.path().to_str().unwrap().to_string();
    if let Some(text) = &input.spine {
        file.as_file().write_all(text.as_bytes()).unwrap();
    }
    let spine = input.spine.as_ref().map(|_| path.as_str());
    let (selection, _) = fx::Selectors { spine }.resolve("/nonexistent");
    let facts = fx::Facts {
        repo: &input.repo,
        tools: &items,
    };
    let compose = || {
        fx::compose(facts)
            .formulation(f)
            .overlay(&overlay)
            .selection(&selection)
            .rules(&rules)
            .note(input.note.as_deref())
            .task(&input.task)
    };
    let p = compose().finish();
    let text = p.as_str();
    // One message, holding the locked layer: every layer is guarded.
    assert_eq!(
        in_reach(text, p.sections(), f, fx::guard(), &|_| true),
        delimiters(&p, f),
        "{f}: {text:?}"
    );
    let safety = p.layer("safety").unwrap();
    assert!(
        safety.contains("Never push to main.") && safety.len() < 64,
        "{safety:?}"
    );
    for e in p.escapes() {
        assert_eq!(&text[e.at..e.at + 1], "\\", "{e:?}");
        assert!(e.boundary.contains(&e.at), "{e:?}");
    }
    assert_eq!(compose().finish_stable(), p.stable());
    assert_eq!(compose().finish_volatile(), p.volatile());
});

/// The marks of the delimiters `f` writes around the prompt's titled layers: `##` before
/// each (markdown), `<tag` and `</tag` around each (tagged), none (bare).
fn delimiters(p: &fx::Prompt, f: Formulation) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    for s in p.sections() {
        let (Some(title), SectionState::Included { start, end }) = (s.info.title, s.state) else {
            continue;
        };
        match f {
            Formulation::Markdown => out.push(start..start + 2),
            Formulation::Tagged => {
                out.push(start..start + title.open.len() - 2);
                out.push(end - title.close.len() + 1..end - 1);
            }
            _ => {}
        }
    }
    out
}
