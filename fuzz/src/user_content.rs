//! The user-content ranges of a composed prompt, checked on what a fuzzed directory gave:
//! overlay slots and user skills composed beside a locked layer, through the same
//! composition routine generated code calls.

use doctrine_core::__private::{
    compose, Body, Guard, ItemPiece, ListStyle, Part, Seg, Value, NO_JOIN,
};
use doctrine_core::input::Formulation;
use doctrine_core::introspect::{LayerInfo, Origin, SectionState, UserFile};
use doctrine_load::__private::{render_skill_index, SkillField};
use doctrine_load::{SkillOrigin, Skills};

const fn info(name: &'static str, locked: bool) -> LayerInfo {
    match locked {
        true => LayerInfo::named(name).locked(),
        false => LayerInfo::named(name).user(),
    }
}

static INFOS: [LayerInfo; 4] = [
    info("identity", false),
    info("safety", true),
    info("tools", false),
    info("index", false),
];
const SAFETY: &str = "Never push to main.";
const STYLE: ListStyle = ListStyle {
    item: &[
        ItemPiece::Text("- "),
        ItemPiece::Field(0),
        ItemPiece::Text(": "),
        ItemPiece::Field(1),
    ],
    join: "\n",
    sort: Some(0),
    max: Some(64),
    more: "({n} more)",
    max_bytes: None,
    budget_items: false,
    join_ends_line: false,
    skip_blank: false,
    fact: "",
};
static SEGS: [Seg; 2] = [Seg::Lit("Skills:\n"), Seg::Value(0)];

/// `identity` and `tools` are the first two overlay slots (replace, append); the index
/// lists `skills`. Checked: the locked layer's bytes are the shipped ones; every stretch
/// is in order, inside its own layer and never the locked one; and the stretches are
/// exactly the slots' texts and the user skills' lines.
pub fn check_user_content(slots: &[Option<String>], skills: &Skills) {
    let index = render_skill_index(skills, &[SkillField::Name, SkillField::When], &STYLE);
    let (identity, tools) = (slots[0].as_deref(), slots[1].as_deref().unwrap_or(""));
    let first = match identity {
        Some(text) => (Origin::OverlayReplaced("identity.md"), text),
        None => (Origin::Inline, "Shipped identity."),
    };
    let parts = [
        Part {
            info: &INFOS[0],
            origin: first.0,
            body: Body::Text(first.1, [NO_JOIN; 2]),
        },
        Part {
            info: &INFOS[1],
            origin: Origin::Inline,
            body: Body::Text(SAFETY, [NO_JOIN; 2]),
        },
        Part {
            info: &INFOS[2],
            origin: Origin::OverlayAppended(None, "tools.md"),
            body: Body::Text("Shipped tools.", [NO_JOIN, ("\n\n", tools)]),
        },
        Part {
            info: &INFOS[3],
            origin: Origin::Inline,
            body: Body::Template(&SEGS, [NO_JOIN; 2]),
        },
    ];
    let p = compose(
        ("\n\n", Formulation::Bare, &Guard::HEADINGS),
        &[Value::Text(&index.text)],
        &[(0, &index.user)],
        parts,
    );
    assert_eq!(p.layer("safety"), Some(SAFETY));
    let mut end = 0;
    for u in p.user_content() {
        assert!(u.range.start >= end && u.range.start < u.range.end, "{u:?}");
        end = u.range.end;
        let section = p
            .sections()
            .iter()
            .find(|s| s.info.name == u.layer)
            .unwrap();
        assert!(
            !section.info.locked,
            "user content in a locked layer: {u:?}"
        );
        let SectionState::Included { start, end } = section.state else {
            panic!("user content in a skipped layer: {u:?}");
        };
        assert!(
            start <= u.range.start && u.range.end <= end,
            "{u:?} outside {start}..{end}"
        );
    }
    let mut want: Vec<(&str, String, UserFile)> = Vec::new();
    if let Some(text) = identity {
        want.push((
            "identity",
            text.to_string(),
            UserFile::OverlayFile("identity.md"),
        ));
    }
    if !tools.is_empty() {
        want.push((
            "tools",
            tools.to_string(),
            UserFile::OverlayFile("tools.md"),
        ));
    }
    for s in skills.iter().take(64) {
        if let SkillOrigin::User(file) = &s.origin {
            let source = UserFile::UserSkill {
                name: s.name.clone(),
                file: file.clone(),
            };
            want.push(("index", format!("- {}: {}", s.name, s.when), source));
        }
    }
    // Each stretch as written, less the `\` of a heading line it held (escaped).
    let escaped: Vec<usize> = p.escapes().iter().map(|e| e.at).collect();
    let unescaped = |range: std::ops::Range<usize>| {
        let bytes = range.filter(|i| !escaped.contains(i));
        String::from_utf8(bytes.map(|i| p.as_str().as_bytes()[i]).collect()).unwrap()
    };
    let got: Vec<(&str, String, UserFile)> = p
        .user_content()
        .iter()
        .map(|u| (u.layer, unescaped(u.range.clone()), u.source.clone()))
        .collect();
    assert_eq!(got, want);
}
