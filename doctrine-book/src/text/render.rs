//! The book as text: a header, the matrix (one line per prompt), then each shown text.
//!
//! Nothing that a change to one text alters is written beside another text: a text's
//! heading names its layer and the prompts it reaches, never its size, so editing one line
//! of it changes that line of the book and the matrix lines of the prompts it reaches.

use std::fmt;

use super::shown::View;
use super::{is_gap, Book, Page, BETWEEN};

impl fmt::Display for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let view = self.view();
        self.header(f, &view)?;
        self.matrix(f, &view)?;
        let mut order: Vec<usize> = (0..view.shown.len()).collect();
        order.sort_by_key(|&s| view.ids[s]);
        // The message whose frame is open: its texts are listed together.
        let mut open = None;
        for s in order {
            let text = &view.shown[s];
            if text.message != open {
                if let Some(m) = open {
                    self.frame_end(f, m, view.messages[m])?;
                }
                if let Some(m) = text.message {
                    self.frame_start(f, m, view.messages[m])?;
                }
                open = text.message;
            }
            writeln!(
                f,
                "== {} {}, {}",
                view.ids[s],
                text.layer,
                self.reach(&text.pages)
            )?;
            // The text, then a newline and a blank line: a text that ends in a newline
            // shows one more blank line, so the bytes can be read back exactly.
            writeln!(f, "{}\n", text.body)?;
        }
        if let Some(m) = open {
            self.frame_end(f, m, view.messages[m])?;
        }
        writeln!(f, "== end of book")
    }
}

impl Book {
    fn header(&self, f: &mut fmt::Formatter<'_>, view: &View<'_>) -> fmt::Result {
        let distinct = self.pages.iter().filter(|p| p.same_as.is_none()).count();
        writeln!(f, "prompt book: {}", self.title)?;
        write!(
            f,
            "{} prompts ({distinct} distinct) made of {} texts",
            self.pages.len(),
            view.shown.len()
        )?;
        if !self.messages.is_empty() {
            write!(f, " in {} messages", self.messages.len())?;
        }
        match &self.joint {
            Some(joint) => writeln!(f, "; a prompt's texts are joined by {joint:?}.")?,
            None => writeln!(f, ".")?,
        }
        writeln!(
            f,
            "Per prompt: bytes, the stable prefix's bytes and fingerprint, then its texts in \
             order (`|` before the volatile ones) or `=` the earlier prompt it equals."
        )?;
        if view.parts.iter().any(|p| p.len() > 1) {
            writeln!(
                f,
                "`1+2` is text 1, a blank line, then text 2: a layer's texts that differ only \
                 in their last paragraph share the rest."
            )?;
        }
        if !self.messages.is_empty() {
            writeln!(
                f,
                "`M2[…]` is message M2 around the texts in the brackets: its frame, listed \
                 under `== M2 begins`, gives its role, its place and the opening and closing \
                 texts written around them; a prompt's messages are joined by that joint too."
            )?;
        }
        if self
            .texts
            .iter()
            .any(|t| is_gap(&t.layer) && t.layer != BETWEEN)
        {
            // A message's wrapper is its frame, unless the book could not place it.
            let wrapper = if self.messages.is_empty() {
                " a message's wrapper,"
            } else {
                ""
            };
            writeln!(
                f,
                "A text `(before L)` stands where a prompt has something other than that \
                 joint before layer L's text (a `join_before` text,{wrapper} another \
                 manifest's separator); `(after L)` is text after the last layer's."
            )?;
        }
        if self.texts.iter().any(|t| t.layer == BETWEEN) {
            writeln!(
                f,
                "A text `{BETWEEN}` is a whole prompt whose layers' records are out of order."
            )?;
        }
        writeln!(f)
    }

    fn matrix(&self, f: &mut fmt::Formatter<'_>, view: &View<'_>) -> fmt::Result {
        let width = |cells: &mut dyn Iterator<Item = usize>| cells.chain([6]).max().unwrap_or(6);
        let name = width(&mut self.pages.iter().map(|p| p.name.chars().count()));
        let bytes = width(&mut self.pages.iter().map(|p| p.bytes.to_string().len()));
        writeln!(
            f,
            "{:name$}  {:>bytes$}  {:>bytes$}  {:16}  texts",
            "prompt", "bytes", "stable", "fingerprint"
        )?;
        for page in &self.pages {
            writeln!(
                f,
                "{:name$}  {:>bytes$}  {:>bytes$}  {:016x}  {}",
                page.name,
                page.bytes,
                page.stable,
                page.fingerprint,
                self.made_of(page, view)
            )?;
        }
        writeln!(f)
    }

    /// A matrix line's last column: `= <earlier prompt>`, or the texts' numbers.
    fn made_of(&self, page: &Page, view: &View<'_>) -> String {
        if let Some(first) = page.same_as {
            return format!("= {}", self.pages[first].name);
        }
        let mut cells = Vec::with_capacity(page.pieces.len() + 1);
        let mut open = None;
        for (i, &t) in page.pieces.iter().enumerate() {
            let message = self.texts[t].message;
            if message != open && open.is_some() {
                close_frame(&mut cells);
            }
            if page.volatile == Some(i) {
                cells.push("|".to_string());
            }
            let parts: Vec<String> = view.parts[t]
                .iter()
                .map(|&s| view.ids[s].to_string())
                .collect();
            let mut cell = parts.join("+");
            if let Some(m) = message.filter(|_| message != open) {
                cell = format!("M{}[{cell}", view.messages[m]);
            }
            open = message;
            cells.push(cell);
        }
        if open.is_some() {
            close_frame(&mut cells);
        }
        cells.join(" ")
    }

    /// The heading of message `m`'s frame (`M{n}`): its role, its place, its reach, then
    /// its opening text, shown as a text is.
    fn frame_start(&self, f: &mut fmt::Formatter<'_>, m: usize, n: usize) -> fmt::Result {
        let message = &self.messages[m];
        let info = message.info;
        let place = if info.after_history {
            "after"
        } else {
            "before"
        };
        write!(
            f,
            "== M{n} begins: {} message, sent {place} the history, {}",
            info.role,
            self.reach(&message.pages)
        )?;
        if info.open.is_empty() {
            return writeln!(f);
        }
        writeln!(f, "; it opens with\n{}\n", info.open)
    }

    /// The foot of message `m`'s frame: its closing text, shown as a text is.
    fn frame_end(&self, f: &mut fmt::Formatter<'_>, m: usize, n: usize) -> fmt::Result {
        let close = self.messages[m].info.close;
        if close.is_empty() {
            return writeln!(f, "== M{n} ends\n");
        }
        writeln!(f, "== M{n} ends; it closes with\n{close}\n")
    }

    /// A text's reach: `in every prompt`, or how many and the distinct ones by name (the
    /// others equal one of them, as the matrix says).
    fn reach(&self, pages: &[usize]) -> String {
        if pages.len() == self.pages.len() {
            return "in every prompt".to_string();
        }
        let distinct: Vec<&str> = pages
            .iter()
            .map(|&p| &self.pages[p])
            .filter(|p| p.same_as.is_none())
            .map(|p| p.name.as_str())
            .collect();
        let count = match (pages.len(), distinct.len()) {
            (1, _) => "in 1 prompt".to_string(),
            (n, d) if n == d => format!("in {n} prompts"),
            (n, d) => format!("in {n} prompts ({d} distinct)"),
        };
        format!("{count}: {}", distinct.join(", "))
    }
}

/// Ends the frame the last cell is in: `M2[6 7` → `M2[6 7]`.
fn close_frame(cells: &mut [String]) {
    if let Some(last) = cells.last_mut() {
        last.push(']');
    }
}
