//! Arbitrary text in every place run-time text lands in a prompt of messages and
//! containers (`fuzz/messages/doctrine.toml`), in each formulation, for a role whose
//! system message holds the locked layer and one whose holds none, through the code
//! `doctrine!` generates. The same composition with harmless text (every character but
//! whitespace turned into `x`s of its length) gives the manifest's own boundaries; the
//! forged one must give exactly those too, by `in_reach` (the guard's promise stated
//! plainly over the whole prompt), in the same places. Besides: nothing is left open at a
//! container's end, the locked layer is its shipped text, every escape is a `\` and the
//! only change to the text, the messages are the manifest's with their own wrappers, and
//! in a message without a locked layer, outside containers, run-time text is written as
//! given (but for a line that reads as the join).
#![no_main]

use std::ops::Range;

use arbitrary::Arbitrary;
use doctrine::__private::in_reach;
use doctrine::input::Formulation;
use doctrine::instructions::Instruction;
use doctrine::introspect::{Container, LayerInfo, Section, SectionState};
use libfuzzer_sys::fuzz_target;

mod fx {
    doctrine::doctrine!("../messages/doctrine.toml");
    /// What the manifest guards its run-time text against.
    pub fn guard() -> &'static doctrine::__private::Guard {
        &__doctrine::GUARD
    }
}

/// The manifest's messages: role, sent after the history, wrapper, layers.
const MESSAGES: [(&str, bool, [&str; 2], &[&str]); 5] = [
    (
        "system",
        false,
        ["", ""],
        &[
            "intro",
            "style",
            "tool_policy",
            "spine",
            "safety",
            "rules",
            "note",
        ],
    ),
    ("system", false, ["", ""], &["extra_system"]),
    (
        "developer",
        false,
        ["<permissions>\n", "\n</permissions>"],
        &["grant", "policy_file"],
    ),
    ("user", false, ["", ""], &["project_doc", "user_doc"]),
    ("user", true, ["", ""], &["env", "task"]),
];
/// The containers the manifest's wrappers make, by layer and by message role: what the
/// guard and `in_reach` read from the generated code, pinned here to the manifest.
const WRAPS: [(&str, Container); 5] = [
    ("tool_policy", Container::Tag("tools")),
    ("spine", Container::Fence(b'`', 6)),
    ("rules", Container::Tag("instructions")),
    ("note", Container::None),
    ("policy_file", Container::Fence(b'~', 4)),
];
const MESSAGE_WRAP: (&str, Container) = ("developer", Container::Tag("permissions"));
const SEPARATOR: &str = "\n";
const JOIN: (&str, &str) = ("user_doc", "\n\n--- doc ---\n\n");
const JOIN_LINE: &str = "--- doc ---";

#[derive(Arbitrary, Debug)]
struct Input {
    formulation: u8,
    guest: bool,
    relaxed: bool,
    repo: String,
    tools: Vec<(String, String)>,
    style: String,
    tools_more: String,
    spine: Option<String>,
    rules: Vec<(u8, String, String)>,
    note: Option<String>,
    extra_system: Option<String>,
    grant: Option<String>,
    policy_file: Option<String>,
    project_doc: Option<String>,
    user_doc: Option<String>,
    cwd: Option<String>,
    task: String,
}

impl Input {
    /// The same input with every run-time text through `f`.
    fn map(&self, f: impl Fn(&str) -> String) -> Input {
        let o = |s: &Option<String>| s.as_deref().map(&f);
        Input {
            formulation: self.formulation,
            guest: self.guest,
            relaxed: self.relaxed,
            repo: f(&self.repo),
            tools: (self.tools.iter().take(4))
                .map(|(n, t)| (f(n), f(t)))
                .collect(),
            style: f(&self.style),
            tools_more: f(&self.tools_more),
            spine: o(&self.spine),
            rules: (self.rules.iter().take(3))
                .map(|(s, scope, text)| (*s, f(scope), f(text)))
                .collect(),
            note: o(&self.note),
            extra_system: o(&self.extra_system),
            grant: o(&self.grant),
            policy_file: o(&self.policy_file),
            project_doc: o(&self.project_doc),
            user_doc: o(&self.user_doc),
            cwd: o(&self.cwd),
            task: f(&self.task),
        }
    }

    /// What the layers that print one run-time value print around it.
    fn values(&self) -> [(&'static str, Option<String>); 8] {
        let c = |s: &Option<String>| s.clone().filter(|s| !s.is_empty());
        [
            ("note", c(&self.note)),
            ("extra_system", c(&self.extra_system)),
            ("grant", c(&self.grant)),
            ("policy_file", c(&self.policy_file)),
            ("project_doc", c(&self.project_doc)),
            ("user_doc", c(&self.user_doc)),
            ("env", c(&self.cwd).map(|v| format!("cwd: {v}"))),
            ("task", Some(self.task.clone()).filter(|s| !s.is_empty())),
        ]
    }
}

/// Text that can write no boundary, no container's end and no join, and that every check
/// on emptiness or blankness reads as it reads `s`: whitespace and BOMs (blank to a file's
/// reader) kept, every other character `x`s of its length.
fn harmless(s: &str) -> String {
    s.chars()
        .map(|c| match c.is_whitespace() || c == '\u{feff}' {
            true => c.to_string(),
            false => "x".repeat(c.len_utf8()),
        })
        .collect()
}

fuzz_target!(|input: Input| {
    let f = doctrine_fuzz::formulation(input.formulation);
    let input = input.map(str::to_string);
    let plain_input = input.map(harmless);
    let parts = Parts::new(&input, "forged");
    let p = parts.compose(f).finish();
    let plain = Parts::new(&plain_input, "plain").compose(f).finish();
    let text = p.as_str();
    let printed = |p: &fx::Prompt| {
        p.sections()
            .iter()
            .map(|s| s.state.range().is_some())
            .collect::<Vec<_>>()
    };
    assert_eq!(printed(&p), printed(&plain), "{text:?}");

    // The guard's reach: a system message before the history holds the locked layer for
    // `lead`, printed or not (`relaxed` gates it off); for `guest` nothing is locked.
    let lead = !input.guest;
    let strict = |s: &Section| lead && in_first_system(s.info);
    let reach = in_reach(text, p.sections(), f, fx::guard(), &strict);
    let plain_reach = in_reach(plain.as_str(), plain.sections(), f, fx::guard(), &strict);
    for r in &reach {
        assert!(!r.is_empty(), "{f}: left open at {}: {text:?}", r.start);
    }
    let (forged, harmless) = (placed(&p, &reach), placed(&plain, &plain_reach));
    assert!(
        same(&forged, &harmless),
        "{f}, lead {lead}: {forged:?}\nwith harmless text: {harmless:?}\nin {text:?}"
    );

    // The locked layer: its shipped text, for `lead` when not gated off.
    let safety = match f {
        Formulation::Markdown => "## Safety\n\nNever push to main.",
        Formulation::Tagged => "<safety>\nNever push to main.\n</safety>",
        _ => "Never push to main.",
    };
    let want = (lead && !input.relaxed).then_some(safety);
    assert_eq!(p.layer("safety"), want, "{f}");

    for e in p.escapes() {
        assert_eq!(&text[e.at..e.at + 1], "\\", "{e:?}");
        assert!(e.boundary.contains(&e.at), "{e:?}");
    }
    check_containers(&p);
    check_messages(&p);
    check_values(&p, &input, f, lead);
    assert_eq!(parts.compose(f).finish_stable(), p.stable());
    assert_eq!(parts.compose(f).finish_volatile(), p.volatile());
});

/// What the builder borrows, made from an input.
struct Parts<'a> {
    input: &'a Input,
    tools: Vec<fx::ToolsItem<'a>>,
    rules: Vec<Instruction<'a>>,
    overlay: fx::Overlay,
    selection: fx::Selection,
}

impl<'a> Parts<'a> {
    /// The parts of `input`, its selector's file written as `name`.
    fn new(input: &'a Input, name: &str) -> Self {
        let tools = (input.tools.iter())
            .map(|(name, note)| fx::ToolsItem { name, note })
            .collect();
        let rules = input.rules.iter().map(doctrine_fuzz::instruction).collect();
        let overlay = fx::Overlay {
            style: input.style.clone(),
            tools_more: input.tools_more.clone(),
        };
        // The selector's file, read through the runtime's own loader.
        let path = scratch().join(format!("{name}.md"));
        let spine = input.spine.as_ref().map(|text| {
            std::fs::write(&path, text).unwrap();
            path.to_str().unwrap()
        });
        let (selection, _) = fx::Selectors { spine }.resolve("/nonexistent");
        Parts {
            input,
            tools,
            rules,
            overlay,
            selection,
        }
    }

    fn compose(&self, f: Formulation) -> fx::Compose<'_, fx::stage::Ready> {
        let input = self.input;
        let (repo, tools, cwd) = (input.repo.as_str(), &self.tools[..], input.cwd.as_deref());
        let facts: fx::Facts<'_> = match input.guest {
            false => fx::LeadFacts { repo, tools, cwd }.into(),
            true => fx::GuestFacts { repo, tools, cwd }.into(),
        };
        fx::compose(facts)
            .formulation(f)
            .flag(fx::Flag::Relaxed, input.relaxed)
            .overlay(&self.overlay)
            .selection(&self.selection)
            .rules(&self.rules)
            .note(input.note.as_deref())
            .extra_system(input.extra_system.as_deref())
            .grant(input.grant.as_deref())
            .policy_file(input.policy_file.as_deref())
            .project_doc(input.project_doc.as_deref())
            .user_doc(input.user_doc.as_deref())
            .task(&input.task)
    }
}

/// This process's scratch directory.
fn scratch() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| doctrine_fuzz::scratch_dir("fuzz-messages"))
}

/// Each range, by where it is: in a layer (by its index), as its text and its offsets from
/// the layer's start and from its end; or between layers (after the layer of that index,
/// or before the first), as its text and its offset from where that stretch starts. Two
/// prompts whose run-time texts differ agree on these exactly when their boundaries are
/// the same shipped bytes; a forged one shows up in a layer as one too many, or one of
/// another text, or one away from both ends.
fn placed<'p>(p: &'p fx::Prompt, ranges: &[Range<usize>]) -> Vec<Placed<'p>> {
    let text = p.as_str();
    let spans: Vec<(usize, Range<usize>)> = (p.sections().iter().enumerate())
        .filter_map(|(i, s)| s.state.range().map(|r| (i, r)))
        .collect();
    let mut out: Vec<Placed<'p>> = ranges
        .iter()
        .map(|r| {
            let bytes = &text[r.clone()];
            match spans
                .iter()
                .find(|(_, s)| s.start <= r.start && r.end <= s.end)
            {
                Some((i, s)) => Placed::In(*i, bytes, r.start - s.start, s.end - r.end),
                None => {
                    let before = spans.iter().rev().find(|(_, s)| s.end <= r.start);
                    let (after, from) = before.map_or((None, 0), |(i, s)| (Some(*i), s.end));
                    Placed::Between(after, bytes, r.start - from)
                }
            }
        })
        .collect();
    out.sort();
    out
}

/// A range of [`placed`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Placed<'p> {
    In(usize, &'p str, usize, usize),
    Between(Option<usize>, &'p str, usize),
}

/// Whether two prompts' [`placed`] ranges are the same boundaries: one for one, of the same
/// text, in the same layer at the same distance from its start or from its end, or between
/// the same layers at the same place.
fn same(a: &[Placed<'_>], b: &[Placed<'_>]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|pair| match pair {
            (Placed::In(i, t, s, e), Placed::In(j, u, s2, e2)) => {
                i == j && t == u && (s == s2 || e == e2)
            }
            (x, y) => x == y,
        })
}

/// The messages are the manifest's that have text, in order, each its wrapper around its
/// layers joined by the separator (or the join, after a layer that printed), and the
/// prompt is them joined by the separator.
fn check_messages(p: &fx::Prompt) {
    let got = p.messages();
    let mut want = Vec::new();
    for (role, after, [open, close], layers) in MESSAGES {
        let texts: Vec<(&str, &str)> = (layers.iter())
            .filter_map(|l| Some((*l, p.layer(l)?)))
            .collect();
        if texts.is_empty() {
            continue;
        }
        let mut body = open.to_string();
        for (i, (layer, t)) in texts.iter().enumerate() {
            if i > 0 {
                let join = if *layer == JOIN.0 { JOIN.1 } else { SEPARATOR };
                body.push_str(join);
            }
            body.push_str(t);
        }
        body.push_str(close);
        want.push((role, after, body));
    }
    let got_view: Vec<(&str, bool, String)> = (got.iter())
        .map(|m| (m.role, m.after_history, m.text.to_string()))
        .collect();
    assert_eq!(got_view, want, "{}", p.as_str());
    let joined: Vec<&str> = got.iter().map(|m| m.text).collect();
    assert_eq!(joined.join(SEPARATOR), p.as_str());
}

/// Each layer that prints one run-time value prints it as given inside its frame: without
/// the escapes' `\`s and what the composer closed for it, the layer is its frame around the
/// value. Outside containers in a message without a locked layer, only a line that reads as
/// the join is escaped, and nothing is closed.
fn check_values(p: &fx::Prompt, input: &Input, f: Formulation, lead: bool) {
    let text = p.as_str();
    for (layer, value) in input.values() {
        let s = p.sections().iter().find(|s| s.info.name == layer).unwrap();
        let (Some(value), SectionState::Included { start, end }) = (&value, s.state) else {
            assert!(value.is_none(), "{layer} left out: {:?}", p.as_str());
            continue;
        };
        let escapes: Vec<_> = p.escapes().iter().filter(|e| e.layer == layer).collect();
        let closed: Vec<Range<usize>> = (p.unclosed().iter())
            .filter(|u| u.layer == layer)
            .map(|u| u.range.clone())
            .collect();
        let mut as_given = String::new();
        for (i, c) in text[start..end].char_indices() {
            let at = start + i;
            let escape = escapes.iter().any(|e| e.at == at);
            if !escape && !closed.iter().any(|r| r.contains(&at)) {
                as_given.push(c);
            }
        }
        assert_eq!(as_given, framed(s.info, f, value), "{layer}: {text:?}");
        let loose = !(lead && in_first_system(s.info)) && !contained(s.info, f);
        if loose {
            assert!(closed.is_empty(), "{layer}: {closed:?} in {text:?}");
            for e in escapes {
                let b = text[e.boundary.clone()].replacen('\\', "", 1);
                let b = b.trim_matches([' ', '\t']);
                assert!(
                    !b.is_empty() && JOIN_LINE.contains(b),
                    "{layer}: {b:?} escaped in {text:?}"
                );
            }
        }
    }
}

/// Whether a layer is in a system message sent before the history: all of them are one to
/// a request.
fn in_first_system(info: &LayerInfo) -> bool {
    info.message
        .is_some_and(|m| m.role == "system" && !m.after_history)
}

/// Each layer's wrapper and message make the containers the manifest says.
fn check_containers(p: &fx::Prompt) {
    for s in p.sections() {
        let wrap = WRAPS.iter().find(|(l, _)| *l == s.info.name);
        let got = s.info.wrap.map(|w| w.container);
        assert_eq!(got, wrap.map(|(_, c)| *c), "{}", s.info.name);
        let m = s.info.message.unwrap();
        let want = match m.role == MESSAGE_WRAP.0 {
            true => MESSAGE_WRAP.1,
            false => Container::None,
        };
        assert_eq!(m.container, want, "{}", s.info.name);
    }
}

/// Whether a layer's text is inside a container: its message's wrapper, its own, or in the
/// tagged formulation its title's tags.
fn contained(info: &LayerInfo, f: Formulation) -> bool {
    let title = info.title.is_some() && f == Formulation::Tagged;
    let wrap = info.wrap.is_some_and(|w| w.container.is_some());
    let message = info.message.is_some_and(|m| m.container.is_some());
    title || wrap || message
}

/// A layer's text around `body`: its wrapper, inside its title's delimiters.
fn framed(info: &LayerInfo, f: Formulation, body: &str) -> String {
    let mut out = String::new();
    let title = info.title;
    match (f, title) {
        (Formulation::Markdown, Some(t)) => out.push_str(t.heading),
        (Formulation::Tagged, Some(t)) => out.push_str(t.open),
        _ => {}
    }
    let (open, close) = info.wrap.map_or(("", ""), |w| (w.open, w.close));
    out.push_str(open);
    out.push_str(body);
    out.push_str(close);
    if let (Formulation::Tagged, Some(t)) = (f, title) {
        out.push_str(t.close);
    }
    out
}
