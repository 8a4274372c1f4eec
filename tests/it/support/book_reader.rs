//! Reads a rendered prompt book back into its prompts, as a reviewer would: each matrix
//! line's texts, in order, joined by the book's joint (a `(before LAYER)` text stands in
//! for the joint where it is listed; `9+12` is text 9, a blank line, text 12; `M2[6 7]` is
//! message M2's opening text, texts 6 and 7, its closing text, as its frame lists them).
//! What this gives back is what the book shows.

use std::collections::HashMap;

/// Every prompt of `book` by name, in matrix order, given the joint it names in its header.
pub fn prompts(book: &str, joint: &str) -> Vec<(String, String)> {
    let header = book.lines().nth(1).expect("a header");
    assert!(
        header.contains(&format!("joined by {joint:?}.")),
        "the header names the joint: {header}"
    );
    let (matrix, texts) = book.split_once("\n\n== ").expect("texts after the matrix");
    let (texts, frames) = read_texts(&format!("== {texts}"));
    let rows: Vec<(String, Vec<String>)> = matrix
        .lines()
        .skip_while(|l| !is_matrix_head(l))
        .skip(1)
        .map(|line| {
            let mut cells = line.split_whitespace().map(str::to_string);
            let name = cells.next().unwrap();
            // bytes, stable bytes, fingerprint
            let rest: Vec<String> = cells.skip(3).collect();
            (name, rest)
        })
        .collect();
    let by_name: HashMap<&str, &[String]> = rows
        .iter()
        .map(|(n, r)| (n.as_str(), r.as_slice()))
        .collect();
    let book = Read {
        rows: by_name,
        texts,
        frames,
        joint,
    };
    rows.iter()
        .map(|(name, _)| (name.clone(), book.build(name)))
        .collect()
}

/// Pairs of strings by number: a text's layer and body, or a message's opening and closing
/// texts.
type Numbered = HashMap<usize, (String, String)>;

/// A book's matrix rows, texts and messages' frames.
struct Read<'b> {
    rows: HashMap<&'b str, &'b [String]>,
    /// id → (layer, body).
    texts: Numbered,
    /// A message's number → its opening and closing texts.
    frames: Numbered,
    joint: &'b str,
}

/// The matrix's byte count for every prompt, by name.
pub fn bytes(book: &str) -> HashMap<String, usize> {
    book.lines()
        .skip_while(|l| !is_matrix_head(l))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let mut cells = l.split_whitespace();
            let name = cells.next().unwrap().to_string();
            (name, cells.next().unwrap().parse().unwrap())
        })
        .collect()
}

/// The matrix's first line: `prompt  bytes  stable  fingerprint  texts`.
fn is_matrix_head(line: &str) -> bool {
    line.split_whitespace()
        .eq(["prompt", "bytes", "stable", "fingerprint", "texts"])
}

impl Read<'_> {
    fn build(&self, name: &str) -> String {
        let cells = self.rows[name];
        if cells[0] == "=" {
            return self.build(&cells[1]);
        }
        let mut out = String::new();
        // Whether a layer's text (or a message) was the last thing written where the next
        // one goes: the joint stands between two.
        let mut last_was_layer = false;
        let mut open = 0;
        for cell in cells.iter().filter(|c| *c != "|") {
            let mut cell = cell.as_str();
            // `M2[6`: message 2 opens, after the joint when a message or layer came before.
            if let Some((frame, rest)) = cell.strip_prefix('M').and_then(|c| c.split_once('[')) {
                if last_was_layer {
                    out.push_str(self.joint);
                }
                open = frame.parse::<usize>().unwrap();
                out.push_str(&self.frames[&open].0);
                last_was_layer = false;
                cell = rest;
            }
            let closing = cell.strip_suffix(']');
            // `9+12`: text 9, a blank line, text 12 (a shared head and its last paragraph).
            let parts: Vec<&(String, String)> = closing
                .unwrap_or(cell)
                .split('+')
                .map(|id| &self.texts[&id.parse::<usize>().unwrap()])
                .collect();
            // A gap's label (`(before notes)`) starts with a parenthesis; a layer's never does.
            let is_layer = !parts[0].0.starts_with('(');
            if is_layer && last_was_layer {
                out.push_str(self.joint);
            }
            let bodies: Vec<&str> = parts.iter().map(|(_, body)| body.as_str()).collect();
            out.push_str(&bodies.join("\n\n"));
            last_was_layer = is_layer;
            if closing.is_some() {
                out.push_str(&self.frames[&open].1);
                last_was_layer = true;
            }
        }
        out
    }
}

/// `== <id> <layer>, <reach>` then the text, a newline and a blank line, up to `== end of
/// book`; a message's frame around its texts: `== M<n> begins: …`, with `; it opens with`
/// and its opening text shown as a text is, and `== M<n> ends` then a blank line, or
/// `; it closes with` and its closing text.
fn read_texts(mut rest: &str) -> (Numbered, Numbered) {
    let mut texts = HashMap::new();
    let mut frames: Numbered = HashMap::new();
    while let Some(after) = rest.strip_prefix("== ") {
        if after.starts_with("end of book") {
            return (texts, frames);
        }
        let (head, body) = after.split_once('\n').unwrap();
        let end = || body.find("\n\n== ").unwrap();
        if let Some(frame) = head.strip_prefix('M') {
            let (n, what) = frame.split_once(' ').unwrap();
            let n: usize = n.parse().unwrap();
            let entry = frames.entry(n).or_default();
            let shown = head.ends_with("; it opens with") || head.ends_with("; it closes with");
            let text = if shown { &body[..end()] } else { "" };
            if what.starts_with("begins: ") {
                entry.0 = text.to_string();
            } else {
                assert!(what.starts_with("ends"), "{head}");
                entry.1 = text.to_string();
            }
            rest = match shown {
                true => &body[end() + 2..],
                // `== M3 begins: …` is followed by its first text, `== M3 ends` by a blank line.
                false => body.strip_prefix('\n').unwrap_or(body),
            };
            continue;
        }
        let (id, head) = head.split_once(' ').unwrap();
        let layer = head.split_once(", ").unwrap().0;
        let end = end();
        texts.insert(
            id.parse().unwrap(),
            (layer.to_string(), body[..end].to_string()),
        );
        rest = &body[end + 2..];
    }
    panic!("no `== end of book`");
}
