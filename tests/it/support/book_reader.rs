//! Reads a rendered prompt book back into its prompts, as a reviewer would: each matrix
//! line's texts, in order, joined by the book's joint (a `(before LAYER)` text stands in
//! for the joint where it is listed; `9+12` is text 9, a blank line, text 12). What this
//! gives back is what the book shows.

use std::collections::HashMap;

/// Every prompt of `book` by name, in matrix order, given the joint it names in its header.
pub fn prompts(book: &str, joint: &str) -> Vec<(String, String)> {
    let header = book.lines().nth(1).expect("a header");
    assert!(
        header.contains(&format!("joined by {joint:?}.")),
        "the header names the joint: {header}"
    );
    let (matrix, texts) = book.split_once("\n\n== ").expect("texts after the matrix");
    let texts = read_texts(&format!("== {texts}"));
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
    rows.iter()
        .map(|(name, _)| (name.clone(), build(name, &by_name, &texts, joint)))
        .collect()
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

fn build(
    name: &str,
    rows: &HashMap<&str, &[String]>,
    texts: &HashMap<usize, (String, String)>,
    joint: &str,
) -> String {
    let cells = rows[name];
    if cells[0] == "=" {
        return build(&cells[1], rows, texts, joint);
    }
    let mut out = String::new();
    let mut last_was_layer = false;
    for cell in cells.iter().filter(|c| *c != "|") {
        // `9+12`: text 9, a blank line, text 12 (a shared head and its last paragraph).
        let parts: Vec<&(String, String)> = cell
            .split('+')
            .map(|id| &texts[&id.parse::<usize>().unwrap()])
            .collect();
        // A gap's label (`(before notes)`) starts with a parenthesis; a layer's never does.
        let is_layer = !parts[0].0.starts_with('(');
        if is_layer && last_was_layer {
            out.push_str(joint);
        }
        let bodies: Vec<&str> = parts.iter().map(|(_, body)| body.as_str()).collect();
        out.push_str(&bodies.join("\n\n"));
        last_was_layer = is_layer;
    }
    out
}

/// `== <id> <layer>, <reach>` then the text, a newline and a blank line, up to `== end of
/// book`.
fn read_texts(mut rest: &str) -> HashMap<usize, (String, String)> {
    let mut texts = HashMap::new();
    while let Some(after) = rest.strip_prefix("== ") {
        if after.starts_with("end of book") {
            return texts;
        }
        let (head, body) = after.split_once('\n').unwrap();
        let (id, head) = head.split_once(' ').unwrap();
        let layer = head.split_once(", ").unwrap().0;
        let end = body.find("\n\n== ").unwrap();
        texts.insert(
            id.parse().unwrap(),
            (layer.to_string(), body[..end].to_string()),
        );
        rest = &body[end + 2..];
    }
    panic!("no `== end of book`");
}
