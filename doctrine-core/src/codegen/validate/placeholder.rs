//! `{name}` placeholders in suffixes and in layers with `interpolate = true`.

use super::super::names::is_snake_ident;

#[derive(Debug, PartialEq, Eq)]
pub enum Piece {
    Lit(String),
    /// A placeholder's name and the byte offset of its `{`.
    Name(String, usize),
}

/// Splits `text {name} more {{literal}}` into literal and placeholder pieces; an error
/// carries the byte offset where it was found.
pub fn placeholders(text: &str) -> Result<Vec<Piece>, (usize, String)> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|p| p.1) == Some('{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek().map(|p| p.1) == Some('}') => {
                chars.next();
                lit.push('}');
            }
            '{' => {
                let mut name = String::new();
                loop {
                    match chars.next() {
                        Some((_, '}')) => break,
                        Some((_, '\n')) | None => {
                            return Err((at, format!("placeholder `{{{name}` is never closed")))
                        }
                        Some((_, c)) => name.push(c),
                    }
                }
                if !is_snake_ident(&name) {
                    return Err((at, format!("`{{{name}}}` is not a placeholder name")));
                }
                if !lit.is_empty() {
                    out.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                out.push(Piece::Name(name, at));
            }
            '}' => {
                return Err((
                    at,
                    "a lone `}` in text with placeholders (write `}}`)".into(),
                ))
            }
            c => lit.push(c),
        }
    }
    if !lit.is_empty() {
        out.push(Piece::Lit(lit));
    }
    Ok(out)
}

/// 1-based line and column of byte `offset` of `body`, whose first byte sits at `at`.
pub fn position(body: &str, offset: usize, at: (usize, usize)) -> (usize, usize) {
    let before = &body[..offset];
    match before.rfind('\n') {
        None => (at.0, at.1 + before.chars().count()),
        Some(nl) => (
            at.0 + before.matches('\n').count(),
            before[nl + 1..].chars().count() + 1,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_locates_placeholders() {
        let p = placeholders("a {root} {{x}}").unwrap();
        assert_eq!(
            p,
            vec![
                Piece::Lit("a ".into()),
                Piece::Name("root".into(), 2),
                Piece::Lit(" {x}".into())
            ]
        );
        assert_eq!(placeholders("x\n{ro").unwrap_err().0, 2);
        assert_eq!(position("ab\ncd{x}", 5, (3, 1)), (4, 3));
        assert_eq!(position("ab{x}", 2, (3, 5)), (3, 7));
    }
}
