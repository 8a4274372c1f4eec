//! Composing the crew's developer prompt through the generated API, against a plain copy of
//! the same bytes and against a runtime composer that reads the markdown from disk on every
//! call, the way hand-written composers do.
//!
//! cargo bench --bench compose

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use criterion::{criterion_group, criterion_main, Criterion};

mod crew {
    doctrine::doctrine!("../examples/crew/doctrine.toml");
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

fn generated() -> crew::Prompt {
    crew::compose(
        black_box(crew::Role::Developer),
        black_box(crew::Team::Backend),
        black_box(crew::Identity::BeDev1),
    )
    .flag(crew::Flag::Fable, black_box(true))
    .knobs(crew::Knobs {
        intensity: black_box(crew::Intensity::Full),
    })
    .ambient(black_box(None::<&str>))
    .finish()
}

/// Everything after a leading `---` frontmatter block (fence lines of their own), as the
/// manifest's `frontmatter = "strip"` does.
fn strip_frontmatter(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("---\n") else {
        return text;
    };
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches('\n') == "---" {
            return &rest[offset + line.len()..];
        }
        offset += line.len();
    }
    text
}

/// A runtime composer as the seed composers write it: every call reads the files.
struct Runtime {
    dir: PathBuf,
}

impl Runtime {
    fn read(&self, rel: &str, frontmatter: bool) -> String {
        let raw = std::fs::read_to_string(self.dir.join(rel)).expect("crew file");
        let raw = raw
            .strip_prefix('\u{feff}')
            .unwrap_or(&raw)
            .replace("\r\n", "\n");
        let body = if frontmatter {
            strip_frontmatter(&raw)
        } else {
            &raw
        };
        body.trim().to_string()
    }

    fn compose(
        &self,
        role: &str,
        team: &str,
        identity: &str,
        fable: bool,
        intensity: &str,
    ) -> String {
        let developer = role == "developer";
        let mut layers: Vec<String> = Vec::new();
        layers.push(
            match role {
                "developer" => "Your tools are loaded: the repository, the test runner and the task board. Use them before asking.",
                "architect" => "Your tools are loaded: the repository (read-only) and the design-notes board.",
                "pm" => "Your tools are loaded: the task board and the roadmap. You cannot touch the repository.",
                _ => "Your tools are loaded: the repository (read-only) and the task board.",
            }
            .to_string(),
        );
        layers.push(self.read(
            if developer {
                "lifecycle/developer.md"
            } else {
                "lifecycle/default.md"
            },
            false,
        ));
        layers.push(self.read("base.md", false));
        if fable {
            layers.push(self.read("doctrine/fable.md", true));
            let mut ponytail = self.read(
                if developer {
                    "doctrine/ponytail.md"
                } else {
                    "doctrine/ponytail-ethos.md"
                },
                true,
            );
            if developer {
                ponytail.push_str(&format!("\n\n**Operative intensity: {intensity}.**"));
            }
            layers.push(ponytail);
        }
        let role_file = match role {
            "reviewer" | "qa" => "verifier",
            other => other,
        };
        layers.push(self.read(&format!("roles/{role_file}.md"), false));
        layers.push(self.read(&format!("teams/{team}.md"), false));
        layers.push(self.read(&format!("identities/{identity}.md"), false));
        layers.retain(|l| !l.is_empty());
        layers.join("\n\n---\n\n")
    }
}

fn crew_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/crew")
}

fn bench(c: &mut Criterion) {
    let composed = generated();
    let runtime = Runtime { dir: crew_dir() };
    let from_disk = runtime.compose("developer", "backend", "be-dev-1", true, "full");
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
    let parts = pieces(&composed);
    assert_eq!(join(&parts, false), composed.as_str());
    assert_eq!(join(&parts, true), composed.as_str());

    let s: &str = composed.as_str();
    let mut group = c.benchmark_group("compose");
    group.bench_function("generated", |b| b.iter(generated));
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
        b.iter(|| runtime.compose(black_box("developer"), "backend", "be-dev-1", true, "full"))
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

criterion_group!(benches, bench);
criterion_main!(benches);
