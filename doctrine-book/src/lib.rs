//! The prompt book of doctrine: every prompt a manifest makes, for review.
//!
//! A [`Book`] collects composed prompts by name ([`Book::of`], [`Book::add`]). Its
//! `Display` is the text book that `doctrine::testing::assert_book!` snapshots (each
//! distinct layer text once, a matrix line per prompt, each `[[message]]` once as a frame
//! around its texts); [`Book::html`] is the same book as one self-contained web page that
//! opens from `file://` with no network: an index of every prompt (identical prompts
//! grouped, bytes, tokens, stable prefix, filters by role and input) and a page per
//! distinct prompt holding its exact bytes as labelled layer blocks, with locked layers,
//! user-file bytes and run-time values marked by colour and by a text label, each message
//! a frame around its layers' blocks (its role, its place before or after the
//! conversation's history, its wrapper as the frame's top and bottom), and each cache
//! breakpoint drawn with the tokens up to it. A [`Review`] turns it into the review of a
//! change (`cargo doctrine book --diff`).
//!
//! Depend on `doctrine-prompt` (feature `testing`), which re-exports what is meant for
//! users; `cargo doctrine book` writes the page for a manifest.

mod count;
mod frames;
mod html;
mod page;
mod review;
mod text;

pub use review::{Change, DiffLine, PageReview, Review};
pub use text::{Book, LayerAbout};
