//! The spine example on selectors, against seed 003's table: every selector value (off
//! words, on words, mixed case and padded, a good path, a missing one, an empty file, a
//! file over 64 KiB, a directory, a symlink) × role × persona (none, append or replace,
//! empty or not, opted out or not) × the legs' selector following or overriding the
//! supervisor's × a supervisor opting out for its legs. The expected output is the seed
//! composer's rule, written out here: `[base unless replace-with-body] [spine] [body]`.

#[path = "../../examples/spine/persona.rs"]
mod persona;

/// The manifest without the spine layers: "off" must be byte-identical to it.
mod bare {
    doctrine::doctrine!("../fixtures/spine_without.toml");
}

use std::fs;
use std::path::{Path, PathBuf};

use doctrine::input::Selector;
use doctrine::introspect::NoticeKind;
use doctrine::introspect::SelectorOrigin;
use persona::{spine, Mode, Persona, Role, Selection, Selectors};
use proptest::prelude::*;

const BASE: &str = "Host base prompt.";
const USER_COPY: &str = "## How work is delivered (user copy)\n\n- Mine.";
const GOOD: &str = "Be brief.";

/// A temporary directory with one file of each kind a selector may name, and two user
/// directories: one empty (`on` gives the shipped text), one with both user copies.
struct Files {
    tmp: tempfile::TempDir,
}

impl Files {
    fn new() -> Files {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path();
        fs::write(p.join("good.md"), format!("\u{feff}  {GOOD}\r\n")).unwrap();
        fs::write(p.join("empty.md"), " \n\t\n").unwrap();
        fs::write(p.join("big.md"), "x".repeat(64 * 1024 + 1)).unwrap();
        fs::write(p.join("max.md"), "y".repeat(64 * 1024)).unwrap();
        fs::create_dir(p.join("a-dir")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(p.join("good.md"), p.join("link.md")).unwrap();
        fs::create_dir(p.join("no-copies")).unwrap();
        let user = p.join("user");
        fs::create_dir(&user).unwrap();
        fs::write(user.join("spine.md"), format!("{USER_COPY}\n")).unwrap();
        fs::write(user.join("spine.worker.md"), "Worker (user copy).").unwrap();
        Files { tmp }
    }

    fn path(&self, name: &str) -> String {
        self.tmp.path().join(name).display().to_string()
    }
}

/// What a selector value should give, per seed 003's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Off,
    On,
    /// The good file's text.
    Good,
    /// A 64 KiB file, exactly the cap: read.
    Max,
    /// Refused with one notice of this kind, whose message says this.
    Refused(NoticeKind, &'static str),
}

/// Every selector value of the table and what it should give.
fn values(f: &Files) -> Vec<(Option<String>, Expect)> {
    let mut v: Vec<(Option<String>, Expect)> = vec![(None, Expect::Off)];
    for w in [
        "off",
        "0",
        "false",
        "no",
        "OFF",
        " No ",
        "\tfalse\n",
        "oFf",
        "",
        "   ",
    ] {
        v.push((Some(w.to_string()), Expect::Off));
    }
    for w in ["on", "1", "true", "yes", "ON", " Yes ", "\ttrue\n", "oN"] {
        v.push((Some(w.to_string()), Expect::On));
    }
    v.push((Some(f.path("good.md")), Expect::Good));
    v.push((Some(f.path("max.md")), Expect::Max));
    #[cfg(unix)]
    v.push((Some(f.path("link.md")), Expect::Good));
    let refused = [
        ("missing.md", NoticeKind::Unreadable, "does not exist"),
        ("empty.md", NoticeKind::Empty, "empty"),
        (
            "big.md",
            NoticeKind::TooLarge,
            "65537 bytes, over the 65536-byte cap",
        ),
        (
            "a-dir",
            NoticeKind::Unreadable,
            "a directory, not a regular file",
        ),
    ];
    for (name, kind, why) in refused {
        v.push((Some(f.path(name)), Expect::Refused(kind, why)));
    }
    // A path is kept verbatim: padded, it names another (missing) file, not `good.md`.
    v.push((
        Some(format!(" {}", f.path("good.md"))),
        Expect::Refused(NoticeKind::Unreadable, "does not exist"),
    ));
    v
}

/// The layer's text for `expect`, by the seed's rules (`None`: no layer).
fn spine_text(expect: Expect, role: Role, user_copies: bool) -> Option<String> {
    match (expect, role) {
        (Expect::Off | Expect::Refused(..), _) => None,
        (Expect::On, Role::Supervisor) if user_copies => Some(USER_COPY.to_string()),
        (Expect::On, Role::Leg) if user_copies => Some("Worker (user copy).".to_string()),
        (Expect::On, Role::Supervisor) => Some(spine::text::SPINE.to_string()),
        (Expect::On, Role::Leg) => Some(spine::text::SPINE_WORKER.to_string()),
        (Expect::Good, _) => Some(GOOD.to_string()),
        (Expect::Max, _) => Some("y".repeat(64 * 1024)),
    }
}

/// The seed composer: `[base] [spine] [body]`, base dropped by a `replace` persona with a
/// non-empty body, an empty body being no persona at all.
fn seed(spine: Option<&str>, persona: Option<Persona<'_>>) -> String {
    let body = persona.map(|p| p.body.trim()).filter(|b| !b.is_empty());
    let replace = persona.is_some_and(|p| p.mode == Mode::Replace) && body.is_some();
    [(!replace).then_some(BASE), spine, body]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// No persona, and every persona: append or replace, empty, blank or real body, opted in
/// or out.
fn personas() -> Vec<Option<Persona<'static>>> {
    let mut all = vec![None];
    for mode in [Mode::Append, Mode::Replace] {
        for body in ["", "  \n", "Persona."] {
            for spine in [true, false] {
                all.push(Some(Persona { body, mode, spine }));
            }
        }
    }
    all
}

fn resolve(
    spine: Option<&str>,
    legs: Option<&str>,
    user_dir: &Path,
) -> (Selection, Vec<doctrine::introspect::Notice>) {
    Selectors {
        spine,
        spine_legs: legs,
    }
    .resolve(user_dir)
}

/// What the manifest without the spine layers composes for this persona.
fn without_spine(role: Role, persona: Option<Persona<'_>>) -> String {
    let role = match role {
        Role::Supervisor => bare::Role::Supervisor,
        Role::Leg => bare::Role::Leg,
    };
    bare::compose(role)
        .flag(
            bare::Flag::PersonaReplace,
            persona.is_some_and(|p| p.mode == Mode::Replace),
        )
        .base(Some(BASE))
        .persona(persona.map(|p| p.body))
        .finish()
        .into_string()
}

/// The whole table for the supervisor selector (the legs following it), both user
/// directories, every persona; and the notices each value gives.
#[test]
fn every_selector_value_and_persona_matches_the_seed() {
    let f = Files::new();
    for user_copies in [false, true] {
        let dir = f
            .tmp
            .path()
            .join(if user_copies { "user" } else { "no-copies" });
        for (value, expect) in values(&f) {
            let (selection, notices) = resolve(value.as_deref(), None, &dir);
            // A refused path is read and reported once, naming every selector that goes
            // by it: the legs follow the supervisor's value here.
            match expect {
                Expect::Refused(kind, why) => {
                    assert_eq!(notices.len(), 1, "{value:?}: {notices:?}");
                    let n = &notices[0];
                    assert_eq!(n.kind, kind, "{value:?}: {n}");
                    assert!(n.message.contains(why), "{value:?}: {n}");
                    assert!(
                        n.message.contains(", so selectors `spine` and `spine_legs` select nothing and layers `spine` and `spine_worker` are left out"),
                        "{n}"
                    );
                    assert_eq!(Some(n.subject.as_str()), value.as_deref());
                    // Each selector's report carries it.
                    for report in &selection.doctor().selectors {
                        assert_eq!(report.notices, notices, "{report}");
                    }
                }
                _ => assert!(notices.is_empty(), "{value:?}: {notices:?}"),
            }
            for role in [Role::Supervisor, Role::Leg] {
                let text = spine_text(expect, role, user_copies);
                for p in personas() {
                    let opted_out = p.is_some_and(|p| !p.spine);
                    let spine = text.as_deref().filter(|_| !opted_out);
                    let got = match role {
                        Role::Supervisor => persona::supervisor(BASE, p, &selection),
                        Role::Leg => persona::leg(BASE, p, None, &selection),
                    };
                    let want = seed(spine, p);
                    assert_eq!(
                        got.as_str(),
                        want,
                        "{role:?} {value:?} user={user_copies} {p:?}"
                    );
                    // Off, refused, or opted out: byte-identical to no spine layer at all.
                    if spine.is_none() {
                        assert_eq!(got.as_str(), without_spine(role, p), "{value:?} {p:?}");
                    }
                }
            }
        }
    }
}

/// The legs' selector overrides the supervisor's when given (the seed's four arms and
/// more), and follows it when unset or blank.
#[test]
fn the_legs_selector_follows_unless_given() {
    let f = Files::new();
    let dir = f.tmp.path().join("no-copies");
    let legs_values: Vec<(Option<String>, Option<Expect>)> = vec![
        (None, None),
        (Some(" ".into()), None),
        (Some("off".into()), Some(Expect::Off)),
        (Some("Yes".into()), Some(Expect::On)),
        (Some(f.path("good.md")), Some(Expect::Good)),
        (
            Some(f.path("big.md")),
            Some(Expect::Refused(NoticeKind::TooLarge, "cap")),
        ),
    ];
    for (main, main_expect) in values(&f) {
        for (legs, legs_expect) in &legs_values {
            let (selection, _) = resolve(main.as_deref(), legs.as_deref(), &dir);
            let legs_expect = legs_expect.unwrap_or(main_expect);
            for p in personas() {
                let sup = persona::supervisor(BASE, p, &selection);
                let opted_out = p.is_some_and(|p| !p.spine);
                let want = spine_text(main_expect, Role::Supervisor, false).filter(|_| !opted_out);
                assert_eq!(
                    sup.as_str(),
                    seed(want.as_deref(), p),
                    "{main:?}/{legs:?} {p:?}"
                );
                let leg = persona::leg(BASE, p, None, &selection);
                let want = spine_text(legs_expect, Role::Leg, false).filter(|_| !opted_out);
                assert_eq!(
                    leg.as_str(),
                    seed(want.as_deref(), p),
                    "{main:?}/{legs:?} {p:?}"
                );
            }
        }
    }
}

/// A supervisor's `spine: false` holds for the legs it spawns, whatever the leg's own
/// persona says; a supervisor that keeps the spine leaves the leg's own opt-out in force.
#[test]
fn a_supervisor_opting_out_suppresses_its_legs() {
    let (selection, _) = resolve(Some("on"), Some("on"), Path::new("/nonexistent/dir"));
    let out = Persona {
        body: "",
        mode: Mode::Append,
        spine: false,
    };
    let keeps = Persona { spine: true, ..out };
    for leg_persona in personas() {
        let leg_opts_out = leg_persona.is_some_and(|p| !p.spine);
        for (supervisor, sup_out) in [(None, false), (Some(keeps), false), (Some(out), true)] {
            let got = persona::leg(BASE, leg_persona, supervisor, &selection);
            let spine = (!sup_out && !leg_opts_out).then_some(spine::text::SPINE_WORKER);
            assert_eq!(
                got.as_str(),
                seed(spine, leg_persona),
                "{supervisor:?} {leg_persona:?}"
            );
        }
    }
    // The supervisor's own prompt keeps its spine when only a leg opts out.
    assert!(persona::supervisor(BASE, None, &selection)
        .as_str()
        .contains(spine::text::SPINE));
}

/// Without `.selection()`, every selector layer is off: the same bytes as no layer.
/// The spine family is `spine` and `spine_legs` (which follows it): opting out of it is
/// opting out of every selector layer of this manifest, for either role, whatever the
/// selectors say; and the last call wins.
#[test]
fn opting_out_of_the_family_covers_the_legs() {
    let f = Files::new();
    for value in ["on", "1", f.path("good.md").as_str()] {
        let (selection, _) = resolve(Some(value), None, &f.tmp.path().join("user"));
        for role in [Role::Supervisor, Role::Leg] {
            let compose = || spine::compose(role).selection(&selection);
            let family = compose()
                .opt_out_spine(true)
                .base(Some(BASE))
                .persona(None)
                .finish();
            let all = compose()
                .opt_out(true)
                .base(Some(BASE))
                .persona(None)
                .finish();
            assert_eq!(family.as_str(), BASE, "{role:?} {value}");
            assert_eq!(all.as_str(), BASE);
            let back = compose().opt_out(true).opt_out_spine(false);
            let back = back.base(Some(BASE)).persona(None).finish();
            assert_ne!(back.as_str(), BASE, "{role:?} {value}: the last call wins");
        }
    }
}

#[test]
fn no_selection_is_off() {
    for role in [Role::Supervisor, Role::Leg] {
        for p in personas() {
            let got = spine::compose(role)
                .flag(
                    spine::Flag::PersonaReplace,
                    p.is_some_and(|p| p.mode == Mode::Replace),
                )
                .base(Some(BASE))
                .persona(p.map(|p| p.body))
                .finish();
            assert_eq!(got.as_str(), without_spine(role, p));
        }
    }
}

/// `on` reads nothing but the selector's own file: an unknown entry beside it is not
/// reported (that is `Overlay::load`'s job), and an explicit path reads no user copy.
#[test]
fn only_the_selected_file_is_read() {
    let f = Files::new();
    let user = f.tmp.path().join("user");
    fs::write(user.join("unknown.md"), "x").unwrap();
    let (_, notices) = resolve(Some("on"), None, &user);
    assert!(notices.is_empty(), "{notices:?}");
    // A user copy that would be refused is not looked at when a path is selected.
    fs::write(user.join("spine.md"), [0xff, 0xfe]).unwrap();
    let (selection, notices) = resolve(Some(&f.path("good.md")), None, &user);
    assert!(notices.is_empty(), "{notices:?}");
    assert!(persona::supervisor(BASE, None, &selection)
        .as_str()
        .ends_with(GOOD));
    // The manifest has no overridable layer, so no `Overlay` at all: a selector's user copy
    // is the selector's to read (the loader passes it by in silence: a unit test of
    // `load_overlay`).
}

/// Makes one user directory's contents.
type Setup = dyn Fn(&Path);

/// A notice for each way `on` or a path can fail, from a temporary directory; `on` falls
/// back to the shipped text (the overlay rules), a path to no layer (never elsewhere).
#[test]
fn every_notice_from_a_temporary_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path();
    let user = p.join("user");
    fs::create_dir(&user).unwrap();
    let shipped = format!("{BASE}\n\n{}", spine::text::SPINE);
    let on = |setup: &dyn Fn(&Path)| {
        let _ = fs::remove_dir_all(&user);
        fs::create_dir(&user).unwrap();
        setup(&user);
        let (selection, notices) = resolve(Some("on"), Some("off"), &user);
        let prompt = persona::supervisor(BASE, None, &selection).into_string();
        (prompt, notices, selection)
    };
    let kinds = |n: &[doctrine::introspect::Notice]| n.iter().map(|n| n.kind).collect::<Vec<_>>();

    // The legacy bypass: an untouched copy of an earlier shipped text.
    let legacy = fs::read("examples/spine/prompts/legacy/spine.v1.md").unwrap();
    let (prompt, notices, selection) = on(&|u| fs::write(u.join("spine.md"), &legacy).unwrap());
    assert_eq!(prompt, shipped);
    assert_eq!(kinds(&notices), [NoticeKind::ShippedCopy]);
    let report = &selection.doctor().selectors[0];
    assert_eq!(report.source, SelectorOrigin::Shipped);
    assert_eq!(report.bypassed, [user.join("spine.md")]);
    // Edited by one byte, it is the user's copy.
    let mut edited = legacy.clone();
    edited.push(b'x');
    let (prompt, notices, _) = on(&|u| fs::write(u.join("spine.md"), &edited).unwrap());
    assert!(prompt.ends_with("before you call it done.\nx"), "{prompt}");
    assert!(notices.is_empty());

    // Empty, not UTF-8, a directory, hard-linked: the shipped text, with a notice.
    let cases: Vec<(&Setup, NoticeKind)> = vec![
        (
            &|u| fs::write(u.join("spine.md"), "\n \n").unwrap(),
            NoticeKind::Empty,
        ),
        (
            &|u| fs::write(u.join("spine.md"), [b'a', 0xff]).unwrap(),
            NoticeKind::NotUtf8,
        ),
        (
            &|u| fs::create_dir(u.join("spine.md")).unwrap(),
            NoticeKind::Unreadable,
        ),
        #[cfg(unix)]
        (
            &|u| {
                fs::write(u.join("other"), "Linked.").unwrap();
                fs::hard_link(u.join("other"), u.join("spine.md")).unwrap();
            },
            NoticeKind::HardLinked,
        ),
        #[cfg(unix)]
        (
            &|u| std::os::unix::fs::symlink("/etc/hostname", u.join("spine.md")).unwrap(),
            NoticeKind::Escapes,
        ),
        #[cfg(unix)]
        (
            &|u| std::os::unix::fs::symlink("gone.md", u.join("spine.md")).unwrap(),
            NoticeKind::Unreadable,
        ),
    ];
    for (setup, kind) in cases {
        let (prompt, notices, selection) = on(setup);
        assert_eq!(prompt, shipped);
        assert_eq!(kinds(&notices), [kind], "{notices:?}");
        assert_eq!(
            selection.doctor().selectors[0].source,
            SelectorOrigin::Shipped
        );
        assert_eq!(selection.doctor().selectors[0].notices, notices);
    }
    // Over the cap (64 KiB for a selector layer): cut, as the overlay rules do.
    let (prompt, notices, _) = on(&|u| fs::write(u.join("spine.md"), "z".repeat(70_000)).unwrap());
    assert_eq!(prompt.len(), BASE.len() + 2 + 64 * 1024);
    assert_eq!(kinds(&notices), [NoticeKind::Truncated]);
    // The user directory is a file: the shipped text.
    let file = p.join("not-a-dir");
    fs::write(&file, "x").unwrap();
    let (selection, notices) = resolve(Some("on"), Some("off"), &file);
    assert_eq!(kinds(&notices), [NoticeKind::NotADirectory]);
    assert_eq!(
        persona::supervisor(BASE, None, &selection).as_str(),
        shipped
    );

    // A path: every refusal leaves the layer out, names the path and the reason.
    let bad = |name: &str, write: &dyn Fn(&Path)| {
        let path = p.join(name);
        write(&path);
        let (selection, notices) = resolve(Some(path.to_str().unwrap()), Some("off"), &user);
        assert_eq!(persona::supervisor(BASE, None, &selection).as_str(), BASE);
        let report = &selection.doctor().selectors[0];
        assert_eq!(report.source, SelectorOrigin::Degraded);
        assert_eq!(report.file.as_deref(), Some(path.as_path()));
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].subject, path.display().to_string());
        assert!(
            notices[0].message.contains("layer `spine` is left out"),
            "{}",
            notices[0]
        );
        notices[0].kind
    };
    assert_eq!(bad("nope.md", &|_| {}), NoticeKind::Unreadable);
    assert_eq!(
        bad("blank.md", &|p| fs::write(p, "\u{feff}\r\n").unwrap()),
        NoticeKind::Empty
    );
    assert_eq!(
        bad("latin1.md", &|p| fs::write(p, [0xe9]).unwrap()),
        NoticeKind::NotUtf8
    );
    assert_eq!(
        bad("huge.md", &|p| fs::write(p, "x".repeat(64 * 1024 + 1))
            .unwrap()),
        NoticeKind::TooLarge
    );
    assert_eq!(
        bad("dir.md", &|p| fs::create_dir(p).unwrap()),
        NoticeKind::Unreadable
    );
    #[cfg(unix)]
    {
        assert_eq!(
            bad("dangling.md", &|p| std::os::unix::fs::symlink("gone", p)
                .unwrap()),
            NoticeKind::Unreadable
        );
        // A FIFO opens without blocking and is refused by its kind.
        let fifo = |p: &Path| {
            let status = std::process::Command::new("mkfifo").arg(p).status();
            assert!(status.is_ok_and(|s| s.success()), "mkfifo");
        };
        assert_eq!(bad("pipe.md", &fifo), NoticeKind::Unreadable);
    }
}

/// `doctor()` as data and as text.
#[test]
fn doctor_reports_each_selector() {
    let f = Files::new();
    let (selection, _) = resolve(Some(" On "), None, &f.tmp.path().join("user"));
    let d = selection.doctor();
    assert_eq!(d.selectors.len(), 2);
    let (sup, legs) = (&d.selectors[0], &d.selectors[1]);
    assert_eq!((sup.name, sup.layer), ("spine", "spine"));
    assert_eq!(sup.raw.as_deref(), Some(" On "));
    assert_eq!(
        (sup.value.clone(), sup.source),
        (Selector::On, SelectorOrigin::UserCopy)
    );
    assert_eq!(
        (legs.name, legs.layer, legs.raw.as_deref()),
        ("spine_legs", "spine_worker", None)
    );
    assert_eq!(legs.followed, Some("spine"));
    assert_eq!(legs.source, SelectorOrigin::UserCopy);
    let text = d.to_string();
    let user = f.tmp.path().join("user");
    assert_eq!(
        text,
        format!(
            "selector `spine` (layer `spine`): \" On \" (on) -> user copy {}\n\
             selector `spine_legs` (layer `spine_worker`): unset, follows `spine` (on) -> user copy {}",
            user.join("spine.md").display(),
            user.join("spine.worker.md").display()
        )
    );
    let (selection, _) = resolve(None, Some(&f.path("big.md")), Path::new("/nowhere"));
    let d = selection.doctor();
    assert_eq!(d.selectors[0].source, SelectorOrigin::Off);
    assert_eq!(d.selectors[1].source, SelectorOrigin::Degraded);
    let text = d.to_string();
    assert!(
        text.starts_with("selector `spine` (layer `spine`): unset (off) -> off\n"),
        "{text}"
    );
    assert!(text.contains("-> degraded"), "{text}");
    assert!(
        text.contains("\n  "),
        "the refusal is indented under its selector: {text}"
    );
    assert!(text.contains("over the 65536-byte cap"), "{text}");
}

#[test]
fn selector_words() {
    for w in [
        "off",
        "0",
        "false",
        "no",
        " OFF ",
        "No",
        "\tFalse\n",
        "",
        "  ",
    ] {
        assert_eq!(Selector::parse(Some(w)), Selector::Off, "{w:?}");
    }
    assert_eq!(Selector::parse(None), Selector::Off);
    for w in ["on", "1", "true", "yes", " ON ", "Yes", "\ttrue\n"] {
        assert_eq!(Selector::parse(Some(w)), Selector::On, "{w:?}");
    }
    for w in ["onn", "2", " My File.md ", "/x/Spine.MD", "o n"] {
        assert_eq!(
            Selector::parse(Some(w)),
            Selector::Path(PathBuf::from(w)),
            "{w:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any two selector strings: never a panic, and a string that is an off word once
    /// trimmed and lowercased composes exactly as off.
    #[test]
    fn any_selector_string_is_safe(main in any::<String>(), legs in any::<Option<String>>(), word in 0usize..8, pad in "[ \t\n]{0,3}") {
        let dir = Path::new("/nonexistent/doctrine-spine");
        let (selection, _) = resolve(Some(&main), legs.as_deref(), dir);
        for p in personas() {
            let _ = persona::supervisor(BASE, p, &selection);
            let _ = persona::leg(BASE, p, None, &selection);
        }
        let _ = selection.doctor().to_string();
        let off = ["off", "0", "false", "no", "OFF", "Off", "FALSE", "No"][word];
        let padded = format!("{pad}{off}{pad}");
        let (selection, notices) = resolve(Some(&padded), Some(&padded), dir);
        prop_assert!(notices.is_empty());
        for role in [Role::Supervisor, Role::Leg] {
            for p in personas() {
                let got = match role {
                    Role::Supervisor => persona::supervisor(BASE, p, &selection),
                    Role::Leg => persona::leg(BASE, p, None, &selection),
                };
                prop_assert_eq!(got.as_str(), without_spine(role, p));
            }
        }
    }
}
