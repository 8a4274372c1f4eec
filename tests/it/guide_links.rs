//! The guide's pages (`doctrine/docs/*.md`) are read in two places: rustdoc shows each as a
//! module of `doctrine::guide`, and people read the markdown in the repository's web view.
//! A link must work in both. Each page writes its links as references (`[text][label]`)
//! and ends with the definitions the web view uses (a page beside it, `page.md#section`,
//! or an item's page on docs.rs); `doctrine/docs/links.md`, which rustdoc reads before
//! every page (`doctrine/src/lib.rs`), defines the same labels as rustdoc paths, and
//! markdown takes a label's first definition.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use pulldown_cmark::{BrokenLink, Event, Options, Parser, Tag};

fn docs() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("doctrine/docs")
}

/// A link or image of a markdown text: where it stands and where it goes; `None` for a
/// reference with no definition (shown as bracketed text).
struct Found {
    at: Range<usize>,
    dest: Option<String>,
    image: bool,
    written: String,
}

fn links(text: &str) -> Vec<Found> {
    let mut broken = Vec::new();
    let callback = |link: BrokenLink<'_>| {
        broken.push((link.span.clone(), link.reference.to_string()));
        None
    };
    let parser = Parser::new_with_broken_link_callback(text, Options::all(), Some(callback));
    let mut found = Vec::new();
    for (event, at) in parser.into_offset_iter() {
        let (dest, image) = match event {
            Event::Start(Tag::Link { dest_url, .. }) => (dest_url, false),
            Event::Start(Tag::Image { dest_url, .. }) => (dest_url, true),
            _ => continue,
        };
        found.push(Found {
            written: text[at.clone()].to_string(),
            at,
            dest: Some(dest.to_string()),
            image,
        });
    }
    for (at, reference) in broken {
        found.push(Found {
            at,
            dest: None,
            image: false,
            written: format!("[{reference}]"),
        });
    }
    found
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// The ids a page's headings get (as `tests/it/docs.rs` computes them).
fn has_heading(page: &str, id: &str) -> bool {
    super::docs::heading_ids(page).iter().any(|h| h == id)
}

fn is_rust_path(dest: &str) -> bool {
    let path = dest.split('#').next().unwrap();
    !path.is_empty()
        && path
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
}

fn pages() -> BTreeMap<String, String> {
    let mut pages = BTreeMap::new();
    for entry in std::fs::read_dir(docs()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".md") && name != "links.md" {
            pages.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    assert!(pages.len() > 10, "only {} guide pages read", pages.len());
    pages
}

/// In the repository's web view each page stands alone: every link goes to a file beside
/// it that exists, to a heading there or on the page, or to a web address.
#[test]
fn every_guide_link_works_in_the_repository_view() {
    let pages = pages();
    let mut problems = Vec::new();
    for (name, text) in &pages {
        for link in links(text) {
            let line = line_of(text, link.at.start);
            let whose = format!("doctrine/docs/{name}:{line}: {}", link.written);
            let Some(dest) = link.dest else {
                problems.push(format!(
                    "{whose}: no definition on the page, so it shows as text"
                ));
                continue;
            };
            if dest.starts_with("https://") || dest.starts_with("http://") {
                continue;
            }
            let (file, id) = dest.split_once('#').unwrap_or((&dest, ""));
            let target = if file.is_empty() {
                Some(text.clone())
            } else if is_rust_path(&dest) {
                problems.push(format!(
                    "{whose}: a rustdoc path, which the repository view cannot follow"
                ));
                continue;
            } else if docs().join(file).is_file() {
                // An image is not text; a page is read for its headings.
                Some(std::fs::read_to_string(docs().join(file)).unwrap_or_default())
            } else {
                None
            };
            match target {
                None => problems.push(format!("{whose}: `{file}` does not exist beside the page")),
                Some(page) if !id.is_empty() && !link.image && !has_heading(&page, id) => {
                    problems.push(format!("{whose}: `{file}` has no heading `#{id}`"))
                }
                Some(_) => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// In rustdoc each page is read after `links.md`, whose definitions come first: every link
/// goes to a rustdoc path (which `cargo doc` checks), a heading or a web address, never to
/// a markdown file rustdoc does not publish.
#[test]
fn every_guide_link_is_a_rustdoc_link_after_links_md() {
    let first = std::fs::read_to_string(docs().join("links.md")).unwrap();
    let mut problems = Vec::new();
    for (name, text) in pages() {
        let both = format!("{first}\n{text}");
        for link in links(&both) {
            if link.at.start < first.len() || link.image {
                continue;
            }
            let line = line_of(&text, link.at.start - first.len() - 1);
            let whose = format!("doctrine/docs/{name}:{line}: {}", link.written);
            match link.dest {
                None => problems.push(format!("{whose}: no definition in links.md")),
                Some(dest) if dest.contains(".md") => {
                    problems.push(format!("{whose}: goes to `{dest}`, which rustdoc does not publish; define its label in links.md"))
                }
                Some(_) => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
