//! Snapshot review of every prompt a manifest makes (feature `testing`, for
//! `[dev-dependencies]`).
//!
//! [`assert_book!`](crate::testing::assert_book) composes one prompt per case (a generated
//! `Combination::all()` gives every role × flag × knob) and pins them all as one
//! [`Book`] with `insta`: each distinct layer text once, with the prompts it reaches, and a
//! matrix of one line per prompt (bytes, the stable prefix's bytes and fingerprint, the
//! texts it is made of, or the earlier prompt it equals). One snapshot per manifest: an
//! edited line in a file every prompt shares is one hunk plus a line per prompt in the
//! matrix, and a run writes the whole pending change, never only the first prompt that
//! differs. The guide's [testing page](crate::guide::testing) shows a test.

mod page;

pub use doctrine_book::{Book, LayerAbout};
#[doc(hidden)]
pub use page::write_page;
pub use page::VARIABLE;

// Defined at the crate root (`#[macro_export]` puts it there), shown here, where it belongs.
#[doc(inline)]
pub use crate::__assert_book as assert_book;

/// What [`assert_book!`](crate::testing::assert_book) calls: `insta`, so that a test needs no
/// dependency of its own on it.
#[doc(hidden)]
pub use insta as __insta;

/// Snapshots every prompt of a manifest as one [`Book`](crate::testing::Book) named
/// `$name`, with `insta` (feature `testing`): `assert_book!(name, cases, |case| prompt)`.
/// `cases` is any iterator whose items name themselves (`Display`), usually a generated
/// `Combination::all()`; the closure composes the prompt of one case, with the sample
/// facts, slot values and choices the test picks. The snapshot is a file in `snapshots/`
/// beside the test file, named after the test's module path and `$name`
/// (`tests/snapshots/prompts__desk.snap` for `tests/prompts.rs`), reviewed with
/// `cargo insta review`. With `DOCTRINE_BOOK_HTML=1` it also writes the book as a web page
/// beside it (`prompts__desk.html`; another value: a directory to write it into), for CI to
/// publish: see [`VARIABLE`](crate::testing::VARIABLE).
///
/// ```no_run
/// # mod desk {
/// #     doctrine::doctrine!("../../docs/examples/desk/doctrine.toml");
/// # }
/// // Every role × flag × knob, each with the same sample fact and slot.
/// doctrine::testing::assert_book!("desk", desk::Combination::all(), |c| {
///     let facts = desk::Facts::builder(c.role).with_product("Ledger").build().unwrap();
///     desk::compose(facts).flags(c.flags).knobs(c.knobs).ticket("#1").finish()
/// });
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __assert_book {
    ($name:expr, $cases:expr, $compose:expr $(,)?) => {{
        let name: &str = $name;
        let book = $crate::testing::Book::of(name, $cases, $compose);
        let at = (module_path!(), env!("CARGO_MANIFEST_DIR"), file!());
        let target = ::std::env::var_os($crate::testing::VARIABLE);
        if let Err(e) = $crate::testing::write_page(&book, name, at, target.as_deref()) {
            panic!("{e}");
        }
        $crate::testing::__insta::assert_snapshot!(name, book, "prompt book");
    }};
}
