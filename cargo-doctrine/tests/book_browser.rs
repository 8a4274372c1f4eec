//! The book in a real browser: headless Chromium opens the crew's book (48 prompts) and the
//! overlay example's (a locked layer, overlay files, a slot and an instruction), and the DOM
//! it builds is read back: each prompt's blocks join to the prompt's bytes exactly, every
//! locked layer and user-file stretch carries its label, and each breakpoint's token count
//! is the o200k_base count of the prompt up to the end of its block in `blocks()`.
//! Skipped, saying so, where no Chromium is installed (`.ci/run` installs Debian's).
//! With `DOCTRINE_BLESS=1` the screenshots are copied to `doctrine/docs/img/`.

mod book_dom;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use doctrine_codegen::named::{self, Named, NamedInstruction, SlotText};
use doctrine_codegen::{inputs, load, naming, plan, Request};
use doctrine_core::introspect::{Origin, Section, Supplied};
use doctrine_core::tokens::Encoding;
use doctrine_core::Prompt;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The first Chromium on the path that answers `--version`.
fn chromium() -> Option<&'static str> {
    [
        "chromium",
        "chromium-headless-shell",
        "chromium-browser",
        "google-chrome",
    ]
    .into_iter()
    .find(|name| {
        Command::new(name)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

fn browser(chromium: &str, args: &[&str], page: &str) -> String {
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .args(args)
        .arg(page)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn book(dir: &Path, args: &[&str]) -> PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-doctrine"))
        .arg("book")
        .args(args)
        .arg("--out")
        .arg(dir)
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join("index.html")
}

fn request(manifest: &str) -> Request {
    let path = root().join(manifest);
    Request::new(
        path.file_name().unwrap().to_string_lossy(),
        path.parent().unwrap(),
        root(),
    )
}

/// Every prompt of a manifest with `shared` inputs, by name, composed as compiled code does
/// (recording the run-time pieces, as the book composes: the bytes are the same).
fn prompts(manifest: &str, shared: &Named) -> Vec<(String, Prompt<Box<[Section]>>)> {
    let d = load(&request(manifest)).unwrap_or_else(|e| panic!("{}", e.rendered()));
    let plan = plan::build(&d).recording();
    inputs::combinations(&d, false)
        .into_iter()
        .map(|c| {
            let name = naming::name(&d, &c, false);
            let mut n = Named::of(&d, &c);
            n.facts = shared.facts.clone();
            n.slots = shared.slots.clone();
            n.instructions = shared.instructions.clone();
            n.overlay = shared.overlay.clone();
            let prompt = named::resolve(&d, &plan, &n).unwrap().compose(&d, &plan);
            (name, prompt)
        })
        .collect()
}

/// The checks every prompt's page must pass against the prompt itself.
fn check(page: &book_dom::Page, prompts: &[(String, Prompt<Box<[Section]>>)]) {
    assert_eq!(page.scripts, 1, "the page's own script only");
    for (name, prompt) in prompts {
        let section = page
            .sections
            .iter()
            .find(|s| s.names.contains(name))
            .unwrap_or_else(|| panic!("no section names {name}"));
        let text = prompt.as_str();
        assert_eq!(
            section.bytes, text,
            "{name}: the blocks' text is the prompt"
        );
        let copied: String = serde_json::from_str(&section.json).unwrap();
        assert_eq!(copied, text, "{name}: the copy control copies the prompt");
        let mut end = 0;
        let mut expected = Vec::new();
        for block in prompt.blocks() {
            end += block.text.len();
            if block.breakpoint {
                expected.push((end, Encoding::O200k.count(&text[..end])));
            }
        }
        assert_eq!(section.breakpoints, expected, "{name}: breakpoints");
        for s in prompt
            .sections()
            .iter()
            .filter(|s| s.state.range().is_some())
        {
            let layer = section
                .layers
                .iter()
                .find(|l| l.name == s.info.name)
                .unwrap();
            let locked = layer.classes.iter().any(|c| c == "locked");
            assert_eq!(locked, s.info.locked, "{name}: {} locked", s.info.name);
            assert_eq!(
                layer.label.contains("LOCKED"),
                s.info.locked,
                "{name}: {}",
                layer.label
            );
            let runtime = matches!(s.origin, Origin::Slot | Origin::Instructions);
            assert_eq!(
                layer.label.contains("RUN-TIME VALUE"),
                runtime,
                "{}",
                layer.label
            );
        }
        // Each caller's value inside shipped text, labelled with whose it is (a layer that
        // is all run-time text, or a user's file, is marked whole instead).
        let whole = |layer: &str| {
            let s = prompt.sections().iter().find(|s| s.info.name == layer);
            s.is_some_and(|s| matches!(s.origin, Origin::Slot | Origin::Instructions))
        };
        let values: Vec<(String, String)> = prompt
            .run_time_text()
            .iter()
            .filter(|v| !whole(v.layer))
            .filter(|v| {
                !matches!(
                    v.source,
                    Supplied::OverlayFile(_) | Supplied::SelectorPath(_)
                )
            })
            .map(|v| (text[v.range.clone()].to_string(), v.source.to_string()))
            .collect();
        assert_eq!(section.values, values, "{name}: each value, labelled");
        let user: Vec<(String, String)> = prompt
            .user_content()
            .iter()
            .map(|u| (text[u.range.clone()].to_string(), u.source.to_string()))
            .collect();
        assert_eq!(
            section.user, user,
            "{name}: each user-file stretch, labelled"
        );
    }
}

#[test]
fn the_crew_and_overlay_books_read_back_from_chromium_are_their_prompts() {
    let Some(chromium) = chromium() else {
        eprintln!(
            "skipped: no Chromium binary (chromium, chromium-headless-shell) on the path; \
             `apt-get install -y chromium` installs Debian's, as .ci/run does"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let crew = book(&dir.path().join("crew"), &["examples/crew/doctrine.toml"]);
    let url = format!("file://{}", crew.display());
    let page = book_dom::read(&browser(chromium, &["--dump-dom"], &url));
    let crew_prompts = prompts("examples/crew/doctrine.toml", &Named::default());
    assert_eq!(crew_prompts.len(), 48);
    assert_eq!(page.rows, 16, "identical prompts share a row");
    check(&page, &crew_prompts);

    let shared = Named {
        facts: vec![("tools".into(), "grep, <script>alert(1)</script>".into())],
        slots: vec![(
            "repo".into(),
            SlotText::Text("main </pre> --> &amp;".into()),
        )],
        instructions: vec![(
            "instructions".into(),
            NamedInstruction {
                source: "project".into(),
                scope: "AGENTS.md".into(),
                text: SlotText::Text("Run the tests.".into()),
            },
        )],
        overlay: Some(root().join("examples/overlay/config-demo")),
        ..Named::default()
    };
    let overlay = book(
        &dir.path().join("overlay"),
        &[
            "examples/overlay/doctrine.toml",
            "--fact",
            "tools=grep, <script>alert(1)</script>",
            "--slot",
            "repo=main </pre> --> &amp;",
            "--instruction",
            "instructions=project@AGENTS.md:Run the tests.",
            "--overlay",
            "examples/overlay/config-demo",
        ],
    );
    let url = format!("file://{}", overlay.display());
    let page = book_dom::read(&browser(chromium, &["--dump-dom"], &url));
    let overlay_prompts = prompts("examples/overlay/doctrine.toml", &shared);
    check(&page, &overlay_prompts);
    let (_, first) = &overlay_prompts[0];
    assert!(first
        .sections()
        .iter()
        .any(|s| s.info.locked && s.state.range().is_some()));
    assert!(!first.user_content().is_empty());

    screenshots(chromium, dir.path(), &crew, &overlay);
}

/// The index of the crew's book and the overlay example's prompt page, as PNG files; copied
/// to `doctrine/docs/img/` with `DOCTRINE_BLESS=1`.
fn screenshots(chromium: &str, dir: &Path, crew: &Path, overlay: &Path) {
    let shots = [
        (
            "book-index.png",
            format!("file://{}", crew.display()),
            "1280,900",
        ),
        (
            "book-prompt.png",
            format!("file://{}#p1", overlay.display()),
            "1280,1250",
        ),
    ];
    for (file, url, size) in shots {
        let png = dir.join(file);
        let shot = format!("--screenshot={}", png.display());
        browser(chromium, &[&shot, &format!("--window-size={size}")], &url);
        let bytes = std::fs::read(&png).unwrap();
        assert!(bytes.starts_with(b"\x89PNG"), "{file} is a PNG");
        if std::env::var_os("DOCTRINE_BLESS").is_some() {
            std::fs::write(root().join("doctrine/docs/img").join(file), bytes).unwrap();
        }
    }
}
