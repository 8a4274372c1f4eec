//! Composing the crew's developer prompt through the generated API, against a plain copy of
//! the same bytes and against a runtime composer that reads the markdown from disk on every
//! call, the way hand-written composers do; and the extensions example's prompt against
//! minijinja rendering the Jinja template it replaces, with the same values.
//!
//! cargo bench --features bench --bench compose
//! cargo bench --features bench --bench compose -- extensions
//! cargo bench --features bench --bench compose -- requests

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use criterion::{criterion_group, criterion_main, Criterion};

#[path = "../tests/it/support/seed_composer.rs"]
mod seed_composer;
use seed_composer::{Runtime, Seat};

mod crew {
    doctrine::doctrine!("../examples/crew/doctrine.toml");
}

#[path = "../tests/it/support/extensions_jinja.rs"]
mod extensions_jinja;

mod extensions {
    doctrine::doctrine!("../examples/extensions/doctrine.toml");
}

mod requests {
    doctrine::doctrine!("../examples/requests/doctrine.toml");
}

/// The same without `sanitize`: what cleaning its values costs.
mod extensions_unsanitized {
    doctrine::doctrine!("../tests/fixtures/extensions_unsanitized.toml");
}

/// The same manifest with `sanitize = ["tags", "bidi", "nfc"]`: its tool list cleaned.
mod crew_sanitized {
    doctrine::doctrine!("../tests/fixtures/crew_sanitized.toml");
}

/// Counts allocations (including reallocations) made by this binary.
struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to `System` with its arguments unchanged; counting needs a
// global allocator, and implementing one is `unsafe` by definition.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What the harness loaded: the developer's tool list.
const TOOLS: &[&str] = &["the repository", "the test runner", "the task board"];
/// The same call for the runtime composer.
const SEAT: Seat<'static> = Seat {
    role: "developer",
    tools: TOOLS,
    team: "backend",
    identity: "be-dev-1",
    fable: true,
    intensity: "full",
    ambient: None,
};

/// The developer's builder, every slot filled.
fn builder() -> crew::Compose<'static, crew::stage::Ready> {
    crew::compose(
        crew::Facts::from(black_box(crew::Role::Developer)).with_tools(black_box(TOOLS)),
        black_box(crew::Team::Backend),
        black_box(crew::Identity::BeDev1),
    )
    .flag(crew::Flag::Fable, black_box(true))
    .knobs(crew::Knobs {
        intensity: black_box(crew::Intensity::Full),
    })
    .ambient(black_box(None::<&str>))
}

fn generated() -> crew::Prompt {
    builder().finish()
}

/// The developer's prompt from the sanitizing manifest, with `tools` as given.
fn sanitized(tools: &'static [&'static str]) -> crew_sanitized::Prompt {
    use crew_sanitized as c;
    c::compose(
        c::Facts::from(black_box(c::Role::Developer)).with_tools(black_box(tools)),
        black_box(c::Team::Backend),
        black_box(c::Identity::BeDev1),
    )
    .flag(c::Flag::Fable, black_box(true))
    .knobs(c::Knobs {
        intensity: black_box(c::Intensity::Full),
    })
    .ambient(black_box(None::<&str>))
    .finish()
}

/// The tool list with a tag character, a right-to-left override and a decomposed accent.
const DIRTY_TOOLS: &[&str] = &[
    "the repository\u{E0041}",
    "the test\u{202E} runner",
    "the task board (cafe\u{301})",
];

/// The same prompt from the developer's plan prepared once (what a session keeps).
fn prepared(plan: &doctrine::Prepared) -> crew::Prompt {
    builder().finish_prepared(black_box(plan))
}

fn crew_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/crew")
}

fn bench(c: &mut Criterion) {
    let composed = generated();
    let runtime = Runtime { dir: crew_dir() };
    let from_disk = runtime.compose(&SEAT);
    assert_eq!(
        from_disk,
        composed.as_str(),
        "the runtime composer must reproduce the generated prompt byte for byte"
    );

    let before = ALLOCS.load(Relaxed);
    let one = generated();
    let allocs = ALLOCS.load(Relaxed) - before;
    drop(one);
    println!(
        "compose/developer: {} bytes; allocations in one compose()..finish(): {allocs}",
        composed.as_str().len()
    );
    let plan = builder().prepare();
    assert_eq!(
        prepared(&plan),
        composed,
        "a prepared plan composes what finish() does"
    );
    let before = ALLOCS.load(Relaxed);
    drop(prepared(&plan));
    let allocs = ALLOCS.load(Relaxed) - before;
    println!("allocations in one compose()..finish_prepared(): {allocs}");
    let parts = pieces(&composed);
    assert_eq!(join(&parts, false), composed.as_str());
    assert_eq!(join(&parts, true), composed.as_str());

    let s: &str = composed.as_str();
    let mut group = c.benchmark_group("compose");
    group.bench_function("generated", |b| b.iter(generated));
    group.bench_function("prepared", |b| b.iter(|| prepared(&plan)));
    assert_eq!(sanitized(TOOLS).as_str(), composed.as_str());
    assert_eq!(sanitized(DIRTY_TOOLS).cleaned().len(), 1);
    group.bench_function("sanitized_clean", |b| b.iter(|| sanitized(TOOLS)));
    group.bench_function("sanitized_dirty", |b| b.iter(|| sanitized(DIRTY_TOOLS)));
    group.bench_function("memcpy", |b| {
        b.iter(|| {
            let mut v = String::with_capacity(s.len());
            v.push_str(black_box(s));
            v
        })
    });
    // Diagnostics, to attribute the gap to the memcpy: the same pieces the generated
    // `finish()` hands to `doctrine::compose` (8 included layers of 4 pieces each, 23 of
    // them empty, plus 7 separators), copied with the same loop but no builder, no
    // `Prompt` and no sections; then the same with empty pieces skipped.
    group.bench_function("diag_pieces_all", |b| {
        b.iter(|| join(black_box(&parts), false))
    });
    group.bench_function("diag_pieces_nonempty", |b| {
        b.iter(|| join(black_box(&parts), true))
    });
    group.bench_function("runtime_from_disk", |b| {
        b.iter(|| runtime.compose(black_box(&SEAT)))
    });
    group.finish();
}

/// The `[text, suffix, overlay separator, overlay]` pieces of each included layer.
fn pieces(p: &crew::Prompt) -> Vec<[&str; 4]> {
    const SUFFIX: &str = "\n\n**Operative intensity: full.**";
    p.sections()
        .iter()
        .filter_map(|s| p.text_of(s))
        .map(|t| match t.strip_suffix(SUFFIX) {
            Some(body) => [body, SUFFIX, "", ""],
            None => [t, "", "", ""],
        })
        .collect()
}

/// The copy loop of `doctrine::compose`, on its own.
fn join(parts: &[[&str; 4]], skip_empty: bool) -> String {
    const SEP: &str = "\n\n---\n\n";
    let total: usize =
        parts.iter().flatten().map(|p| p.len()).sum::<usize>() + SEP.len() * (parts.len() - 1);
    let mut text = String::with_capacity(total);
    for part in parts {
        if !text.is_empty() {
            text.push_str(SEP);
        }
        for piece in part {
            if !skip_empty || !piece.is_empty() {
                text.push_str(piece);
            }
        }
    }
    text
}

/// The extensions example's full prompt: three extensions (both sections, one nested),
/// a JSON suggestion and the user's settings.
const SESSION: extensions_jinja::Context<'static> = {
    use extensions_jinja::Ext;
    extensions_jinja::Context {
        extensions: &[
            Ext {
                name: "web",
                has_resources: true,
                instructions: Some("Fetch a page before quoting it.\nGive its address."),
            },
            Ext {
                name: "calendar",
                has_resources: true,
                instructions: None,
            },
            Ext {
                name: "notes",
                has_resources: false,
                instructions: Some("Write to the inbox note only."),
            },
        ],
        suggestion: Some("Check the calendar before \"booking\" anything."),
        user_name: Some("Ada"),
        extras: Some("Answer in French.\nKeep replies under ten lines."),
    }
};

/// `fn $name(c) -> $m::Prompt`: manifest `$m`'s prompt for `c`, its items built from the
/// host's on the stack.
macro_rules! extensions_prompt {
    ($name:ident, $m:ident) => {
        fn $name(c: &extensions_jinja::Context<'_>) -> $m::Prompt {
            let mut items = [$m::ExtensionsItem {
                name: "",
                has_resources: false,
                instructions: None,
            }; 3];
            for (item, e) in items.iter_mut().zip(c.extensions) {
                *item = $m::ExtensionsItem {
                    name: e.name,
                    has_resources: e.has_resources,
                    instructions: e.instructions,
                };
            }
            $m::compose($m::Facts {
                extensions: &items[..c.extensions.len()],
                suggestion: c.suggestion,
                user_name: c.user_name,
                extras: c.extras,
            })
            .finish()
        }
    };
}
extensions_prompt!(extensions_prompt, extensions);
extensions_prompt!(unsanitized_prompt, extensions_unsanitized);

/// Allocations made by one call of `f`.
fn allocations<T>(f: impl FnOnce() -> T) -> usize {
    let before = ALLOCS.load(Relaxed);
    let out = f();
    let n = ALLOCS.load(Relaxed) - before;
    drop(out);
    n
}

/// Doctrine's prompt and minijinja's render of the same session, byte-identical (asserted
/// before timing); minijinja with the context built beforehand and built per render.
fn bench_extensions(c: &mut Criterion) {
    let env = extensions_jinja::environment();
    let value = extensions_jinja::value(&SESSION);
    let ours = extensions_prompt(&SESSION);
    assert_eq!(
        ours.as_str(),
        extensions_jinja::render(&env, &value),
        "doctrine and minijinja must print the same prompt"
    );
    assert_eq!(unsanitized_prompt(&SESSION).as_str(), ours.as_str());
    println!(
        "extensions: {} bytes; allocations: doctrine {}, minijinja render {}, context {}",
        ours.as_str().len(),
        allocations(|| extensions_prompt(&SESSION)),
        allocations(|| extensions_jinja::render(&env, &value)),
        allocations(|| extensions_jinja::value(&SESSION)),
    );
    let mut group = c.benchmark_group("extensions");
    group.bench_function("doctrine", |b| {
        b.iter(|| extensions_prompt(black_box(&SESSION)))
    });
    group.bench_function("doctrine_unsanitized", |b| {
        b.iter(|| unsanitized_prompt(black_box(&SESSION)))
    });
    group.bench_function("minijinja_render", |b| {
        b.iter(|| extensions_jinja::render(&env, black_box(&value)))
    });
    group.bench_function("minijinja_context_and_render", |b| {
        b.iter(|| extensions_jinja::render(&env, &extensions_jinja::value(black_box(&SESSION))))
    });
    group.finish();
}

/// The requests example's seat: a request of four messages with wrappers and joins, a
/// rules file forwarded in a code fence beside a locked rule.
fn requests_seat() -> requests::Compose<'static, requests::stage::Ready> {
    use requests::{Approval, Base, Facts, Sandbox};
    let facts = Facts {
        sandbox: Sandbox::Workspace,
        approval: Approval::OnFailure,
        roots: &["/work/app"],
        cwd: "/work/app",
        date: Some("2026-12-01"),
    };
    requests::compose(facts, Base::Plain)
        .model("orca-2")
        .command_rules(Some("# Commands I allow\n\n- `make check`: always\n"))
        .user_notes(Some("Prefer small commits."))
        .project_docs(&[])
}

/// A manifest with messages and `join_before`: composed whole, and from its seat prepared
/// once (a message's fixed layers copied as a run, the joins and wrappers written per
/// prompt).
fn bench_requests(c: &mut Criterion) {
    let prepared = requests_seat().prepare();
    assert_eq!(
        requests_seat().finish_prepared(&prepared),
        requests_seat().finish()
    );
    let mut group = c.benchmark_group("requests");
    group.bench_function("finish", |b| b.iter(|| black_box(requests_seat()).finish()));
    group.bench_function("finish_prepared", |b| {
        b.iter(|| black_box(requests_seat()).finish_prepared(black_box(&prepared)))
    });
    group.finish();
}

criterion_group!(benches, bench, bench_extensions, bench_requests);
criterion_main!(benches);
