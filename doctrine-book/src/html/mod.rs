//! The book as one self-contained web page ([`Book::html`]): inline style and a small
//! script of our own, no network (a content security policy refuses any, and runs no
//! style or script but these two, named by their hashes), no font, no framework; it opens from `file://`. Navigation needs no script: each prompt is a
//! `<section>` shown when the address targets it (`#p3`); the script filters and pages
//! the index and copies a prompt.

mod bytes;
mod escape;
mod frame;
mod index;
mod policy;
mod prompt;
mod review;

use crate::count::UNIT;
use crate::Book;

use policy::{policy, SCRIPT, STYLE};

impl Book {
    /// The book as one self-contained HTML page (see the crate's documentation).
    pub fn html(&self) -> String {
        let size: usize = self.details.iter().flatten().map(|d| d.text.len()).sum();
        let mut out = String::with_capacity(size * 2 + 64 * 1024);
        self.head(&mut out);
        out.push_str("<body>\n<header><h1>Prompt book: ");
        escape::text(&mut out, self.title());
        out.push_str("</h1><p class=\"unit\">Counts in ");
        out.push_str(UNIT);
        out.push_str(". <a href=\"#index\">Index</a>");
        if self.review.is_some() {
            out.push_str(" · <a href=\"#review\">Review</a>");
        }
        out.push_str("</p></header>\n<main>\n");
        if let Some(review) = &self.review {
            self.write_review(&mut out, review);
        }
        self.write_index(&mut out);
        let groups = self.groups();
        for (group, members) in groups.iter().enumerate() {
            if let Some(Some(detail)) = self.details.get(members[0]) {
                self.write_prompt(&mut out, group, members, detail);
            }
        }
        out.push_str("</main>\n<script>");
        out.push_str(SCRIPT);
        out.push_str("</script>\n</body>\n</html>\n");
        out
    }

    fn head(&self, out: &mut String) {
        out.push_str(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"color-scheme\" content=\"light dark\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"",
        );
        out.push_str(&policy());
        out.push_str("\">\n<title>Prompt book: ");
        escape::text(out, self.title());
        out.push_str("</title>\n<style>");
        out.push_str(STYLE);
        out.push_str("</style>\n</head>\n");
    }

    /// The element id of a group's section: `p1` for the first distinct prompt.
    pub(crate) fn anchor(group: usize) -> String {
        format!("p{}", group + 1)
    }

    /// The pages grouped by their whole text, each group's pages in order, the groups in
    /// order of their first page.
    pub(crate) fn groups(&self) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut of_page = vec![0; self.pages.len()];
        for (i, page) in self.pages.iter().enumerate() {
            match page.same_as {
                Some(first) => {
                    of_page[i] = of_page[first];
                    groups[of_page[first]].push(i);
                }
                None => {
                    of_page[i] = groups.len();
                    groups.push(vec![i]);
                }
            }
        }
        groups
    }

    /// The role a prompt's name starts with, if the book knows its roles, and the rest of
    /// its name's parts (`developer+fable+intensity=ultra`: `developer`; `fable`,
    /// `intensity=ultra`).
    pub(crate) fn parts<'n>(&self, name: &'n str) -> (Option<&'n str>, Vec<&'n str>) {
        let mut parts = name.split('+');
        let first = parts.next().unwrap_or("");
        if self.roles.iter().any(|r| r == first) {
            return (Some(first), parts.collect());
        }
        (None, name.split('+').filter(|p| !p.is_empty()).collect())
    }
}
