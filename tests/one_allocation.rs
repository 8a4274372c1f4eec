//! `compose(..)…finish()` does one heap allocation, of exactly the prompt's length, with
//! or without a list fact: an unsorted list is walked where its placeholder stands. A
//! sorted list adds one when the builder is made (the order of its kept items). So does
//! `finish_prepared`, a turn composed from a seat's prepared plan. So does a prompt whose
//! templates leave sections out (the Jinja corpus): each condition is decided once, by the
//! walk that measures the prompt, and the walk that writes it reads the verdict.
//!
//! Counting needs a global allocator, and implementing `GlobalAlloc` is `unsafe` by
//! definition; this one only forwards to `System` and counts. It lives in its own test
//! binary, with a single test, so no other thread allocates while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to `System` with the caller's arguments unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

mod crew {
    doctrine::doctrine!("../examples/crew/doctrine.toml");
}

mod lists {
    doctrine::doctrine!("fixtures/lists.toml");
}

mod jinja {
    doctrine::doctrine!("../benches/jinja_corpus/doctrine.toml");
}

#[test]
fn finish_allocates_once_with_exact_capacity() {
    use crew::{Identity, Intensity, Role, Team};
    let ambient = String::from("Follow the repository's architecture decision records.");
    let tools = ["the repository", "the task board"];
    for &role in Role::ALL {
        for (fable, listed) in [(false, false), (true, false), (true, true)] {
            for ambient in [None, Some(ambient.as_str())] {
                let start = ALLOCATIONS.load(Ordering::SeqCst);
                let facts = crew::Facts::from(role).with_tools(if listed { &tools } else { &[] });
                let builder = crew::compose(facts, Team::Backend, Identity::BeDev1)
                    .flag(crew::Flag::Fable, fable)
                    .knobs(crew::Knobs {
                        intensity: Intensity::Ultra,
                    })
                    .ambient(ambient);
                let before = ALLOCATIONS.load(Ordering::SeqCst);
                let prompt = builder.finish();
                let after = ALLOCATIONS.load(Ordering::SeqCst);
                let at = format!("role {role}, fable {fable}, tools {listed}");
                assert_eq!(after - before, 1, "finish(): {at}");
                assert_eq!(after - start, 1, "compose(..)..finish(): {at}");
                let text = prompt.into_string();
                assert_eq!(text.capacity(), text.len(), "role {role}, fable {fable}");
                // A turn composed from the seat's prepared plan: one allocation too.
                let seat = || {
                    let facts =
                        crew::Facts::from(role).with_tools(if listed { &tools } else { &[] });
                    crew::compose(facts, Team::Backend, Identity::BeDev1)
                        .flag(crew::Flag::Fable, fable)
                        .knobs(crew::Knobs {
                            intensity: Intensity::Ultra,
                        })
                        .ambient(ambient)
                };
                let prepared = seat().prepare();
                let start = ALLOCATIONS.load(Ordering::SeqCst);
                let text = seat().finish_prepared(&prepared).into_string();
                let after = ALLOCATIONS.load(Ordering::SeqCst);
                assert_eq!(after - start, 1, "compose(..)..finish_prepared(): {at}");
                assert_eq!(text.capacity(), text.len(), "{at}");
            }
        }
    }
    // `skills` is sorted: its order is the one allocation it adds, made by `compose(..)`.
    let (tools, skills) = (["read", "write"], ["testing", "deploy", "review"]);
    for (skills, expected) in [(&skills[..], 2), (&[], 1)] {
        let start = ALLOCATIONS.load(Ordering::SeqCst);
        let facts = lists::OpsFacts {
            tools: &tools,
            skills,
        };
        let prompt = lists::compose(facts).finish();
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        assert_eq!(after - start, expected, "{}", prompt.as_str());
        assert!(prompt.as_str().starts_with("Tools: read, write."));
    }
    templates_allocate_once_with_exact_capacity();
}

/// The Jinja corpus prompt, its sections on and off (conditions of several tests, a list
/// searched for an item): one allocation, of exactly its length, whatever is left out.
fn templates_allocate_once_with_exact_capacity() {
    let tools = ["edit", "shell", "read"];
    let given = |on: bool| on.then_some("true");
    for mask in 0..64u32 {
        let on = |bit: u32| mask & (1 << bit) != 0;
        let facts = jinja::Facts {
            branch: on(0).then_some("main"),
            ci: given(on(1)),
            detached: given(!on(0)),
            dirty: given(on(2)),
            has_rules: given(on(3)),
            mode: Some(if on(4) { "plan" } else { "build" }),
            note: on(5).then_some("Keep it small & safe."),
            project: "ledger",
            rules_file: on(3).then_some("RULES.md"),
            sandboxed: None,
            tools: if on(1) { &tools } else { &[] },
            user_rules: None,
        };
        let start = ALLOCATIONS.load(Ordering::SeqCst);
        let text = jinja::compose(facts).finish().into_string();
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        assert_eq!(after - start, 1, "facts {mask:06b}");
        assert_eq!(text.capacity(), text.len(), "facts {mask:06b}");
    }
}
