//! Arbitrary values printed escaped (`escape = "json"` and `"xml"`, a fact's and a list
//! field's, whole and piece by piece; handlebars' `{{note}}` beside `{{{note}}}`) beside a
//! locked layer, in each formulation, through the code `doctrine!` generates for
//! `fuzz/escaped/doctrine.toml`: each JSON string reads back with `serde_json` as the value
//! given, whatever the guard escaped in it; each XML text reads back with `roxmltree` as
//! the value less what XML cannot carry, and so does the HTML-escaped note (the guard
//! writes a character reference there, never a `\`); and the boundaries in reach of the
//! locked layer are those of the same prompt with harmless values.
#![no_main]

use arbitrary::Arbitrary;
use doctrine::__private::in_reach;
use doctrine::input::Formulation;
use doctrine::introspect::CleanedFrom;
use libfuzzer_sys::fuzz_target;

mod fx {
    doctrine::doctrine!("../escaped/doctrine.toml");
    /// What the manifest guards its run-time text against.
    pub fn guard() -> &'static doctrine::__private::Guard {
        &__doctrine::GUARD
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    formulation: u8,
    query: String,
    title: String,
    schema: String,
    xml: String,
    note: String,
}

fuzz_target!(|input: Input| {
    let f = doctrine_fuzz::formulation(input.formulation);
    let p = compose(&input, f);
    let text = p.as_str();
    let harmless = Input {
        formulation: input.formulation,
        query: "q".into(),
        title: "t".into(),
        schema: "s".into(),
        xml: "x".into(),
        note: "n".into(),
    };
    assert_eq!(
        marks(&p, f),
        marks(&compose(&harmless, f), f),
        "{f}: {text:?}"
    );

    // The JSON strings, as JSON reads them.
    let request = p.layer("request").unwrap();
    let object = &request[request.find('{').unwrap()..=request.rfind('}').unwrap()];
    let object: serde_json::Value =
        serde_json::from_str(object).unwrap_or_else(|e| panic!("{f}: not JSON: {object:?}: {e}"));
    assert_eq!(object["q"], *input.query, "{f}: {object}");
    // Printed only when the query is given (a section on it).
    match p.layer("trimmed") {
        None => assert!(input.query.is_empty(), "{f}"),
        Some(trimmed) => {
            // The object alone: a closer of what the value left open may follow it.
            let trimmed = &trimmed[..=trimmed.rfind('}').unwrap()];
            let again: serde_json::Value = serde_json::from_str(trimmed)
                .unwrap_or_else(|e| panic!("{f}: not JSON: {trimmed:?}: {e}"));
            assert_eq!(again["again"], *input.query, "{f}");
        }
    }
    let tools = p.layer("tools").unwrap();
    let item = &tools[tools.find("t=\"").unwrap() + 2..];
    let mut strings = serde_json::Deserializer::from_str(item).into_iter::<String>();
    let schema = strings
        .next()
        .unwrap()
        .unwrap_or_else(|e| panic!("{f}: {item:?}: {e}"));
    assert_eq!(schema, input.schema, "{f}: {item:?}");
    // Up to the item's own `</x>` (a titled layer's closing tag may follow).
    let rest = &item[strings.byte_offset()..];
    let end = rest
        .rfind("</x>")
        .unwrap_or_else(|| panic!("{f}: {rest:?}"))
        + 4;
    let rest = &rest[..end];
    assert!(rest.starts_with("|<x>"), "{f}: {rest:?}");

    // The XML texts, as an XML parser reads them, the closers the guard wrote after what a
    // value left open taken out. Its escapes stay: each is a character reference there.
    let unescaped = |part: &str| {
        let start = part.as_ptr() as usize - text.as_ptr() as usize;
        let range = start..start + part.len();
        for e in p.escapes().iter().filter(|e| range.contains(&e.at)) {
            assert!(
                e.replaced.is_some(),
                "{f}: a `\\` in escaped markup: {text:?}"
            );
        }
        let closer = |i: &usize| p.unclosed().iter().any(|u| u.range.contains(i));
        let bytes = range.filter(|i| !closer(i)).map(|i| text.as_bytes()[i]);
        String::from_utf8(bytes.collect()).unwrap()
    };
    let element = |xml: &str, name: &str| {
        let doc = roxmltree::Document::parse(xml)
            .unwrap_or_else(|e| panic!("{f}: not XML: {xml:?}: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), name);
        doc.root_element().text().unwrap_or("").to_string()
    };
    let title = p.layer("title").unwrap();
    assert_eq!(
        element(&unescaped(title), "title"),
        xml_text(&input.title),
        "{f}"
    );
    assert_eq!(
        element(&unescaped(&rest[1..]), "x"),
        xml_text(&input.xml),
        "{f}"
    );
    // The HTML-escaped note, up to its `</h>` (its `<` is escaped, so the first is the
    // layer's), reads back as given. What an XML reader reads differently from an HTML one
    // (controls, a carriage return) is left out of the value (`note`).
    let layer = p.layer("note").unwrap();
    let h = &layer[..layer.find("</h>").unwrap() + 4];
    let h = &h[h.find("<h>").unwrap()..];
    assert_eq!(element(&unescaped(h), "h"), note(&input.note), "{f}: {h:?}");

    // What XML could not carry is counted, fact by fact.
    let dropped = |name: &'static str| {
        (p.cleaned().iter())
            .find(|c| c.from == CleanedFrom::Fact(name))
            .map_or(0, |c| c.removed.xml)
    };
    let lost = |v: &str| v.chars().filter(|&c| !carried(c)).count();
    assert_eq!(dropped("title"), lost(&input.title), "{f}");
    assert_eq!(dropped("tools"), lost(&input.xml), "{f}");
});

fn compose(input: &Input, f: Formulation) -> fx::Prompt {
    let items = [fx::ToolsItem {
        name: "t",
        schema: &input.schema,
        xml: &input.xml,
    }];
    fx::compose(fx::Facts {
        query: Some(&input.query),
        title: &input.title,
        tools: &items,
        note: &note(&input.note),
    })
    .formulation(f)
    .finish()
}

/// The note as composed: what XML reads back as HTML does (no control, no carriage return).
fn note(value: &str) -> String {
    value.chars().filter(|&c| carried(c) && c != '\r').collect()
}

/// What XML 1.0 text can carry of `value`, as a parser reads it back: the characters XML
/// has no place for (controls other than tab, line feed and carriage return; U+FFFE,
/// U+FFFF) left out. A carriage return comes back as itself: it is written `&#13;`.
fn xml_text(value: &str) -> String {
    value.chars().filter(|&c| carried(c)).collect()
}

/// Whether XML 1.0 can carry `c` (its `Char` production).
fn carried(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The boundaries in reach of the locked layer (the manifest is one message), sorted.
fn marks(p: &fx::Prompt, f: Formulation) -> Vec<&str> {
    let text = p.as_str();
    doctrine::__private::marks(
        text,
        in_reach(text, p.sections(), f, fx::guard(), &|_| true),
    )
}
