//! The index: what the book holds, the matrix of roles × the rest of each combination, and
//! one row per distinct prompt (its names, sizes, stable prefix), filtered by role and by
//! input and paged by the script (all rows show without it).

use std::fmt::Write as _;

use super::escape;
use crate::Book;

/// More prompts than this and the matrix is left out (the table still lists them all).
const MATRIX_MAX: usize = 2_000;

impl Book {
    pub(crate) fn write_index(&self, out: &mut String) {
        let groups = self.groups();
        let view = self.view();
        out.push_str("<section id=\"index\">\n<h2>Index</h2>\n<p class=\"stats\">");
        let _ = write!(
            out,
            "<span data-stat=\"prompts\">{}</span> prompts, \
             <span data-stat=\"distinct\">{}</span> distinct, made of \
             <span data-stat=\"texts\">{}</span> distinct layer texts.",
            self.pages.len(),
            groups.len(),
            view.shown.len()
        );
        out.push_str("</p>\n");
        self.write_filters(out);
        if self.roles.is_empty() || self.pages.len() > MATRIX_MAX {
            if self.pages.len() > MATRIX_MAX {
                let _ = writeln!(
                    out,
                    "<p>The matrix is left out above {MATRIX_MAX} prompts; the table lists them all.</p>"
                );
            }
        } else {
            self.write_matrix(out, &groups);
        }
        self.write_table(out, &groups);
        out.push_str("</section>\n");
    }

    fn write_filters(&self, out: &mut String) {
        out.push_str("<form class=\"filters\" onsubmit=\"return false\">");
        if !self.roles.is_empty() {
            out.push_str(
                "<label>Role <select id=\"f-role\"><option value=\"\">every role</option>",
            );
            for role in &self.roles {
                option(out, role);
            }
            out.push_str("</select></label> ");
        }
        let mut inputs: Vec<&str> = Vec::new();
        for page in &self.pages {
            for part in self.parts(&page.name).1 {
                if !inputs.contains(&part) {
                    inputs.push(part);
                }
            }
        }
        out.push_str("<label>Input <select id=\"f-input\"><option value=\"\">any input</option>");
        for input in inputs {
            option(out, input);
        }
        out.push_str(
            "</select></label> <span id=\"f-count\" aria-live=\"polite\"></span></form>\n",
        );
    }

    /// Roles down, the rest of each combination across; a cell is the prompt's group.
    fn write_matrix(&self, out: &mut String, groups: &[Vec<usize>]) {
        let mut group_of = vec![0; self.pages.len()];
        for (g, members) in groups.iter().enumerate() {
            for &p in members {
                group_of[p] = g;
            }
        }
        let mut columns: Vec<String> = Vec::new();
        let rest = |name: &str| {
            let rest = self.parts(name).1.join("+");
            if rest.is_empty() {
                "(defaults)".to_string()
            } else {
                rest
            }
        };
        for page in &self.pages {
            let r = rest(&page.name);
            if !columns.contains(&r) {
                columns.push(r);
            }
        }
        out.push_str(
            "<div class=\"scroll\"><table class=\"matrix\"><caption>Each combination's \
            prompt: equal numbers are identical prompts.</caption><tr><th>role</th>",
        );
        for c in &columns {
            out.push_str("<th>");
            escape::text(out, c);
            out.push_str("</th>");
        }
        out.push_str("</tr>\n");
        for role in &self.roles {
            out.push_str("<tr><th>");
            escape::text(out, role);
            out.push_str("</th>");
            for column in &columns {
                let found = self.pages.iter().position(|p| {
                    self.parts(&p.name).0 == Some(role.as_str()) && rest(&p.name) == *column
                });
                match found {
                    Some(p) => {
                        let g = group_of[p];
                        let _ = write!(
                            out,
                            "<td class=\"g{}\"><a href=\"#{}\">P{}</a></td>",
                            g % 8,
                            Self::anchor(g),
                            g + 1
                        );
                    }
                    None => out.push_str("<td>–</td>"),
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table></div>\n");
    }

    fn write_table(&self, out: &mut String, groups: &[Vec<usize>]) {
        out.push_str(
            "<div class=\"scroll\"><table class=\"prompts\" id=\"prompts\"><thead><tr>\
             <th>prompt</th><th>names (identical prompts together)</th><th>bytes</th>\
             <th>tokens</th><th>stable prefix bytes</th><th>stable prefix tokens</th>\
             <th>breakpoints</th></tr></thead>\n<tbody>\n",
        );
        for (g, members) in groups.iter().enumerate() {
            let Some(Some(detail)) = self.details.get(members[0]) else {
                continue;
            };
            out.push_str("<tr data-members=\"");
            let lines: Vec<String> = members
                .iter()
                .map(|&p| {
                    let (role, rest) = self.parts(&self.pages[p].name);
                    let mut cells = vec![role.unwrap_or("")];
                    cells.extend(rest);
                    cells.join("\t")
                })
                .collect();
            escape::attr(out, &lines.join("\n"));
            let _ = write!(
                out,
                "\"><td><a href=\"#{}\">P{}</a></td><td>",
                Self::anchor(g),
                g + 1
            );
            self.write_names(out, members);
            let _ = writeln!(
                out,
                "</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                detail.text.len(),
                detail.tokens,
                detail.stable,
                detail.stable_tokens,
                detail.breakpoints.len()
            );
        }
        out.push_str("</tbody></table></div>\n<p class=\"pager\" id=\"pager\"></p>\n");
    }

    /// A group's names, each with its review status when the book is a review.
    pub(crate) fn write_names(&self, out: &mut String, members: &[usize]) {
        for (i, &p) in members.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let name = &self.pages[p].name;
            out.push_str("<span class=\"name\">");
            escape::text(out, name);
            out.push_str("</span>");
            let status = self.review.as_ref().and_then(|r| r.pages.get(name));
            if let Some(status) = status {
                out.push_str(" <span class=\"tag changed\">");
                escape::text(out, &status.status);
                out.push_str("</span>");
            }
        }
    }
}

fn option(out: &mut String, value: &str) {
    out.push_str("<option value=\"");
    escape::attr(out, value);
    out.push_str("\">");
    escape::text(out, value);
    out.push_str("</option>");
}
