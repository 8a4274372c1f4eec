//! Composition does one heap allocation, of exactly the prompt's length.
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

#[test]
fn finish_allocates_once_with_exact_capacity() {
    use crew::{Identity, Intensity, Role, Team};
    let ambient = String::from("Follow the repository's architecture decision records.");
    for &role in Role::ALL {
        for fable in [false, true] {
            for ambient in [None, Some(ambient.as_str())] {
                let builder = crew::compose(role, Team::Backend, Identity::BeDev1)
                    .flag(crew::Flag::Fable, fable)
                    .knobs(crew::Knobs {
                        intensity: Intensity::Ultra,
                    })
                    .ambient(ambient);
                let before = ALLOCATIONS.load(Ordering::SeqCst);
                let prompt = builder.finish();
                let after = ALLOCATIONS.load(Ordering::SeqCst);
                assert_eq!(after - before, 1, "role {role}, fable {fable}");
                let text = prompt.into_string();
                assert_eq!(text.capacity(), text.len(), "role {role}, fable {fable}");
            }
        }
    }
}
