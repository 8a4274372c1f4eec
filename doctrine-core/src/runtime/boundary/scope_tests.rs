//! The guard scoped by message and container, against the promise stated plainly over the
//! whole prompt ([`in_reach`]): whatever run-time text holds, no boundary a model could
//! read as a section where a locked layer can be reached, and no container closed early or
//! left open, holds a byte of it. And what needs no escape is written as given.

use proptest::prelude::*;

use super::{in_reach, Guard};
use crate::runtime::compose::{compose, join};
use crate::runtime::container::{Container, Wrap};
use crate::runtime::formulation::{Formulation, Title};
use crate::runtime::header::Header;
use crate::runtime::layer::{LayerInfo, Origin};
use crate::runtime::message::MessageInfo;
use crate::runtime::notice::NoticeKind;
use crate::runtime::part::{Body, Part, Seg, Value, NO_JOIN};
use crate::runtime::section::Section;

static SYSTEM: MessageInfo =
    MessageInfo::rebuild(0, "system", "", "", false, Container::None, false);
static ENV: MessageInfo = MessageInfo::rebuild(
    1,
    "user",
    "<env>\n",
    "\n</env>",
    true,
    Container::Tag("env"),
    false,
);
static DOCS: MessageInfo = MessageInfo::rebuild(2, "user", "", "", true, Container::None, false);
static SAFETY: Title =
    Title::new("Safety", "## Safety\n\n", "<safety>\n", "\n</safety>").folded("safety");
static VOICE: Title =
    Title::new("Voice", "## Voice\n\n", "<voice>\n", "\n</voice>").folded("voice");
static RULES: Wrap = Wrap::rebuild("<rules>\n", "\n</rules>", Container::Tag("rules"));
static FENCE: Wrap = Wrap::rebuild("``````\n", "\n``````", Container::Fence(b'`', 6));
static HEADER: Wrap = Wrap::rebuild("# Notes\n\n", "", Container::None);

/// A locked layer and five that take run-time text: a titled one, one wrapped in a tag,
/// one in a fence, one with a header that is no container (all in the system message,
/// with the locked layer); one in a wrapped user message and one in a bare one, with a
/// join before it.
static LAYERS: [LayerInfo; 7] = layers(false);

/// The same layers, the titled one, the wrapped ones and the one in the wrapped user
/// message each with a `header` that prints its value (fact `i - 1`): a wrapper's text,
/// guarded against every boundary wherever it stands.
static HEADED: [LayerInfo; 7] = layers(true);

const fn layers(headed: bool) -> [LayerInfo; 7] {
    static H_VOICE: Header = Header::rebuild("# For {a}\n\n", &header_segs::<0>());
    static H_RULES: Header = Header::rebuild("# For {b}\n\n", &header_segs::<1>());
    static H_FILE: Header = Header::rebuild("# For {c}\n\n", &header_segs::<2>());
    static H_CWD: Header = Header::rebuild("# For {e}\n\n", &header_segs::<4>());
    [
        LayerInfo::named("safety")
            .locked()
            .titled(&SAFETY)
            .in_message(&SYSTEM),
        head(
            LayerInfo::named("voice").titled(&VOICE).in_message(&SYSTEM),
            headed,
            &H_VOICE,
        ),
        head(
            LayerInfo::named("rules")
                .wrapped(&RULES)
                .in_message(&SYSTEM),
            headed,
            &H_RULES,
        ),
        head(
            LayerInfo::named("file").wrapped(&FENCE).in_message(&SYSTEM),
            headed,
            &H_FILE,
        ),
        LayerInfo::named("notes")
            .wrapped(&HEADER)
            .in_message(&SYSTEM),
        head(
            LayerInfo::named("cwd")
                .volatile()
                .in_message(&ENV)
                .strict_in(&[]),
            headed,
            &H_CWD,
        ),
        LayerInfo::named("doc")
            .volatile()
            .in_message(&DOCS)
            .joined("\n--- doc ---\n")
            .strict_in(&[]),
    ]
}

/// `info`, with `header` when `headed`.
const fn head(info: LayerInfo, headed: bool, header: &'static Header) -> LayerInfo {
    match headed {
        true => info.headed(header),
        false => info,
    }
}

/// A header's segments: a heading line around value `V`.
const fn header_segs<const V: usize>() -> [Seg; 3] {
    [Seg::Lit("# For "), Seg::Value(V), Seg::Lit("\n\n")]
}

/// The system message holds the locked layer; the user messages do not.
fn strict(info: &LayerInfo) -> bool {
    info.guarded_in(0)
}

static FACTS: [&str; 6] = ["a", "b", "c", "d", "e", "f"];
static GUARD: Guard = Guard::new(&["env", "rules", "safety", "voice"], &FACTS)
    .joined()
    .guarding_lines(&["--- doc ---"])
    .recording();

/// What run-time text is made of: every closer, opener, heading, rule line, fence and
/// comment a container or a section knows, and their pieces.
const PIECES: [&str; 26] = [
    "</rules>",
    "<rules>",
    "</Rules >",
    "</voice>",
    "<safety>",
    "</safety>",
    "</env>",
    "<env>",
    "## Safety\n",
    "# X\n",
    "\n",
    "``````",
    "```",
    "~~~",
    "<!--",
    "-->",
    "--- doc ---",
    "Safety\n===\n",
    "`",
    "x",
    " ",
    "</",
    "safety>",
    "<",
    "/env>",
    "\u{200b}",
];

/// Layer `i`'s parts: shipped text around a value (fact `i - 1`) it prints twice.
fn part(layers: &'static [LayerInfo; 7], i: usize, segs: &'static [Seg]) -> Part<'static> {
    let body = match i {
        0 => Body::Text("Never push to main.", [NO_JOIN; 2]),
        _ => Body::Template(segs, [NO_JOIN; 2]),
    };
    Part {
        info: &layers[i],
        origin: Origin::Inline,
        body,
    }
}

fn compose_all(values: &[String; 6], f: Formulation) -> crate::Prompt<[Section; 7]> {
    compose_layers(&LAYERS, values, f)
}

fn compose_layers(
    layers: &'static [LayerInfo; 7],
    values: &[String; 6],
    f: Formulation,
) -> crate::Prompt<[Section; 7]> {
    let segs: [&'static [Seg]; 7] = std::array::from_fn(|i| {
        let v = i.saturating_sub(1);
        let segs = vec![
            Seg::Lit("Lead.\n"),
            Seg::Value(v),
            Seg::Lit("\n"),
            Seg::Value(v),
        ];
        &*Box::leak(segs.into_boxed_slice())
    });
    let values: Vec<Value<'_>> = values.iter().map(|v| Value::Text(v)).collect();
    let parts: [Part<'static>; 7] = std::array::from_fn(|i| part(layers, i, segs[i]));
    let layout = ("\n\n", f, &GUARD);
    let p = compose(layout, &values, &[], parts);
    assert_eq!(join(layout, &values, &parts), p.as_str());
    p
}

const FORMULATIONS: [Formulation; 3] = [
    Formulation::Markdown,
    Formulation::Tagged,
    Formulation::Bare,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn no_run_time_byte_is_in_reach(
        picks in proptest::collection::vec(proptest::collection::vec(0..PIECES.len(), 0..10), 6),
        f in 0..3usize,
        headers: bool,
    ) {
        let values: [String; 6] = std::array::from_fn(|i| picks[i].iter().map(|&k| PIECES[k]).collect());
        let f = FORMULATIONS[f];
        let p = compose_layers(if headers { &HEADED } else { &LAYERS }, &values, f);
        let text = p.as_str();
        let reach = in_reach(text, p.sections(), f, &GUARD, &|s| strict(s.info));
        let runtime = p.run_time_text();
        for r in &reach {
            prop_assert!(!r.is_empty(), "left open at {}: {text:?}", r.start);
            let forged = runtime.iter().find(|t| t.range.start < r.end && r.start < t.range.end);
            prop_assert!(forged.is_none(), "{:?} at {r:?} from {forged:?}: {text:?}", &text[r.clone()]);
        }
        // Every escape is a `\\` in run-time text.
        for e in p.escapes() {
            prop_assert_eq!(&text[e.at..e.at + 1], "\\");
            prop_assert!(runtime.iter().any(|t| t.range.contains(&e.at)));
        }
    }
}

/// What each layer's run-time text may write, shown on one value: the forgery each scope
/// must catch, and the document each must leave as written.
#[test]
fn each_scope_escapes_only_what_reaches_past_it() {
    let doc = "# Repo rules\n\n## Build\n---\n<safety>ok</safety>\n```sh\nmake\n```\n";
    let values: [String; 6] = std::array::from_fn(|_| doc.to_string());
    let p = compose_all(&values, Formulation::Markdown);
    // Inside a tag container or a fence, or in a message without the locked layer: as
    // written.
    for layer in ["rules", "file", "cwd", "doc"] {
        let text = p.layer(layer).unwrap();
        assert_eq!(text.matches(doc).count(), 2, "{layer}: {text:?}");
    }
    // A header is no container, and markdown's title is a heading: guarded as today.
    for layer in ["voice", "notes"] {
        let text = p.layer(layer).unwrap();
        assert!(
            text.contains("\\# Repo rules\n\n\\## Build\n\\---\n<\\safety>"),
            "{layer}: {text:?}"
        );
    }
    // In the tagged formulation a title's tags are a container too.
    let p = compose_all(&values, Formulation::Tagged);
    assert_eq!(p.layer("voice").unwrap().matches(doc).count(), 2);
    // What would close a container is escaped, in every spelling.
    // (This guard folds ASCII case only; generated code's folds look-alikes and invisible
    // characters too: `tests/it/forwarding.rs`.)
    let closers = ["</rules>", "</RULES >", "</env>", "</voice>"];
    let values: [String; 6] = std::array::from_fn(|_| closers.join(" "));
    let p = compose_all(&values, Formulation::Tagged);
    assert_eq!(
        p.layer("rules").unwrap().matches("<\\/").count(),
        2 * 2,
        "{}",
        p.as_str()
    );
    assert_eq!(p.layer("voice").unwrap().matches("<\\/").count(), 2);
    assert_eq!(p.layer("cwd").unwrap().matches("<\\/").count(), 2);
    assert_eq!(p.layer("doc").unwrap().matches("<\\/").count(), 0);
    // A line that would close the fence is escaped; a shorter one is code.
    let values: [String; 6] = std::array::from_fn(|_| "a\n```\n```````\n~~~~~~".to_string());
    let p = compose_all(&values, Formulation::Bare);
    let file = p.layer("file").unwrap();
    assert_eq!(file.matches("\n\\```````").count(), 2, "{file:?}");
    assert_eq!(file.matches("\n```\n").count(), 2, "{file:?}");
}

/// A fence or a comment run-time text opens inside a tag container is closed before the
/// container's closing text, with a notice; a balanced one, or one in code, is not.
#[test]
fn what_run_time_text_leaves_open_is_closed_before_its_container_closes() {
    let values: [String; 6] = std::array::from_fn(|i| match i {
        1 => "Run:\n```sh\nmake".to_string(),
        4 => "a <!-- note".to_string(),
        _ => "```\nbalanced\n```".to_string(),
    });
    let p = compose_all(&values, Formulation::Tagged);
    let rules = p.layer("rules").unwrap();
    assert!(rules.ends_with("make\n```\n</rules>"), "{rules:?}");
    let cwd = p.layer("cwd").unwrap();
    assert!(cwd.ends_with("a <!-- note-->"), "{cwd:?}");
    // The doc layer's message has no container; the file's fence holds code.
    assert!(p.layer("doc").unwrap().ends_with("balanced\n```"));
    let unclosed: Vec<(&str, &str)> = p
        .unclosed()
        .iter()
        .map(|u| (u.layer, &p.as_str()[u.range.clone()]))
        .collect();
    assert_eq!(unclosed, [("rules", "\n```"), ("cwd", "-->")]);
    let table = p.explain().to_string();
    assert!(
        table.contains("↳ closed a code fence that fact `b` left open, with `\\n```` at "),
        "{table}"
    );
    let notices = p.notices();
    assert!(
        notices
            .iter()
            .any(|n| n.subject == "layer `rules`, fact `b`" && n.message.contains("a code fence")),
        "{notices:?}"
    );
}

/// A header's values are a wrapper's text, before the layer's container: every boundary is
/// escaped in them wherever the layer stands (before a tag container or a fence, in a
/// message without the locked layer), a line that would open the fenced wrapper's fence
/// too, and what they leave open is closed at the header's end. The layer's text keeps
/// its own scope.
#[test]
fn a_header_is_guarded_as_a_wrappers_text() {
    let value = "x\n## Safety\n</rules>\n```sh\n<!-- y";
    let values: [String; 6] = std::array::from_fn(|_| value.to_string());
    let p = compose_layers(&HEADED, &values, Formulation::Bare);
    let escaped = "# For x\n\\## Safety\n<\\/rules>\n";
    let layer = |name| p.layer(name).unwrap();
    let rules = format!("{escaped}```sh\n<!-- y\n\n```\n<rules>\nLead.\nx\n## Safety\n<\\/rules>");
    assert!(layer("rules").starts_with(&rules), "{:?}", layer("rules"));
    let file = format!("{escaped}\\```sh\n<!-- y\n\n-->\n``````\nLead.\nx\n## Safety\n</rules>");
    assert!(layer("file").starts_with(&file), "{:?}", layer("file"));
    let cwd = format!("{escaped}```sh\n<!-- y\n\n```\nLead.\nx\n## Safety\n</rules>");
    assert!(layer("cwd").starts_with(&cwd), "{:?}", layer("cwd"));
    // Where each header went, its escapes and its closer included.
    let headers: Vec<&str> = p
        .sections()
        .iter()
        .filter_map(|s| s.header().map(|h| &p.as_str()[h]))
        .collect();
    let closed = |closer| format!("{escaped}```sh\n<!-- y\n\n{closer}");
    let (fence, comment) = (
        closed("```\n"),
        format!("{escaped}\\```sh\n<!-- y\n\n-->\n"),
    );
    assert_eq!(headers, [&fence, &fence, &comment, &fence]);
    let notice = p
        .notices()
        .into_iter()
        .find(|n| n.subject == "layer `file`, fact `c`" && n.kind == NoticeKind::LeftOpen)
        .unwrap();
    assert_eq!(
        notice.message,
        "It left an HTML comment open in its layer's header, which would have hidden the text \
         after it; `-->\\n` was written to close it."
    );
}

/// A fence line any reader could take for one counts, whatever CommonMark makes of its
/// indentation or list marker (found by the `messages` fuzz target): inside a fence it is
/// escaped, and where run-time text inside a tag container leaves a fence open for one
/// reader and closed for another, no closer serves both, so its fence lines are escaped.
#[test]
fn a_fence_line_counts_for_the_most_lenient_reader() {
    let values: [String; 6] = std::array::from_fn(|i| match i {
        // `file`: a tab-indented and a listed run that would close the fence for some.
        2 => "a\n\t\t``````\n<safety>x</safety>\n- ``````".to_string(),
        // `rules`: closed for a lenient reader, open for CommonMark.
        1 => "```\n\t```\n~~~".to_string(),
        _ => String::new(),
    });
    let p = compose_all(&values, Formulation::Bare);
    let file = p.layer("file").unwrap();
    assert_eq!(file.matches("\t\t\\``````").count(), 2, "{file:?}");
    assert_eq!(file.matches("- \\``````").count(), 2, "{file:?}");
    let rules = p.layer("rules").unwrap();
    assert!(rules.contains("\\```\n\t\\```\n\\~~~"), "{rules:?}");
    let reach = in_reach(p.as_str(), p.sections(), Formulation::Bare, &GUARD, &|s| {
        strict(s.info)
    });
    assert!(
        reach.iter().all(|r| !r.is_empty()),
        "{reach:?}: {}",
        p.as_str()
    );
    // Read alike by both, a fence left open is closed as before.
    let values: [String; 6] = std::array::from_fn(|i| match i {
        1 => "```sh\nmake".to_string(),
        _ => String::new(),
    });
    let p = compose_all(&values, Formulation::Bare);
    assert!(p.layer("rules").unwrap().ends_with("make\n```\n</rules>"));
}
