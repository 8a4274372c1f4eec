//! The template grammar, read with the code generator's name check: a name must become a
//! Rust identifier. The grammar itself is the loader's (`doctrine_load::template`), so a
//! user's overlay template is read as a shipped text is.

use doctrine_load::__internals::template as grammar;
pub use doctrine_load::__internals::template::{
    Count, Piece, TemplateError, MAX_LOOPS, MAX_SECTION_DEPTH,
};

use crate::names::snake_ident_problem;

/// Splits `text {name} more {{literal}}` into literal and placeholder pieces.
pub fn placeholders(text: &str) -> Result<Vec<Piece>, TemplateError> {
    grammar::placeholders(text, snake_ident_problem)
}

/// As [`placeholders`], for a list's item template, where `{0}` is a plain list's item.
pub fn item_placeholders(text: &str) -> Result<Vec<Piece>, TemplateError> {
    grammar::item_placeholders(text, snake_ident_problem)
}

/// A text read with double braces (`placeholders = "mustache"`).
pub fn mustache(text: &str, is_list: &dyn Fn(&str) -> bool) -> Result<Vec<Piece>, TemplateError> {
    grammar::mustache(text, is_list, snake_ident_problem)
}

/// A `.hbs` text (`placeholders = "handlebars"`), whitespace taken as handlebars takes it.
pub(super) fn handlebars(
    text: &str,
    is_list: &dyn Fn(&str) -> bool,
) -> Result<Vec<Piece>, Vec<TemplateError>> {
    grammar::handlebars(text, is_list, snake_ident_problem)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::Lines;

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
        assert_eq!(placeholders("x\n{ro").unwrap_err().at, 2);
        let at = |text: &str, origin, offset| {
            let (file, start) = in_file(text, origin);
            Lines::new(&file).at(start + offset)
        };
        assert_eq!(at("ab\ncd{x}", (3, 1), 5), (4, 3));
        assert_eq!(at("ab{x}", (3, 5), 2), (3, 7));
    }

    /// A file whose text has `body` from line and column `at` on, and where `body` starts.
    fn in_file(body: &str, at: (usize, usize)) -> (String, usize) {
        let before = format!("{}{}", "\n".repeat(at.0 - 1), "x".repeat(at.1 - 1));
        (format!("{before}{body}"), before.len())
    }

    use proptest::prelude::*;

    /// Text rich in what positions care about: line breaks, multibyte and combining
    /// characters (the template grammar's own strategy is the loader's).
    fn text() -> impl Strategy<Value = String> {
        prop_oneof!["[a\n é😀\u{301}{}]{0,64}", any::<String>()]
    }

    /// The byte offset that `line:col` names, walking the body from `at`.
    fn offset_of(body: &str, (line, col): (usize, usize), at: (usize, usize)) -> usize {
        let mut offset = 0;
        for _ in at.0..line {
            offset += body[offset..].find('\n').expect("line past the end") + 1;
        }
        let first = if line == at.0 { at.1 } else { 1 };
        let chars = col - first;
        match body[offset..].char_indices().nth(chars) {
            Some((i, _)) => offset + i,
            None => {
                assert_eq!(body[offset..].chars().count(), chars, "column past the end");
                body.len()
            }
        }
    }

    proptest! {
        #[test]
        fn positions_are_inside_the_text_in_any_order(
            text in text(),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 0..16),
            at in (1usize..5, 1usize..5),
        ) {
            let boundaries: Vec<usize> = text
                .char_indices()
                .map(|(i, _)| i)
                .chain([text.len()])
                .collect();
            let (file, start) = in_file(&text, at);
            let lines = Lines::new(&file);
            let mut offsets: Vec<usize> = picks.iter().map(|i| *i.get(&boundaries)).collect();
            // Increasing, as the validator asks, then in any order.
            let shuffled = offsets.clone();
            offsets.sort_unstable();
            for offset in offsets.into_iter().chain(shuffled) {
                let found = lines.at(start + offset);
                prop_assert_eq!(offset_of(&text, found, at), offset);
            }
        }
    }

    #[test]
    fn positions_clamp_past_the_end_or_inside_a_character() {
        let p = Lines::new("é\n");
        assert_eq!(p.at(1), (1, 1));
        assert_eq!(p.at(99), (2, 1));
    }
}
