//! The standalone-tag rule, the default `whitespace`: a block tag alone on its line
//! takes the line with it.

use std::ops::Range;

use super::Piece;

/// The standalone-tag rule: a line holding one section or loop tag (`{?name}`,
/// `{?!name}`, `{?name:one}`, `{#name}`, `{/name}`) and otherwise only spaces and tabs is left out whole, its line break
/// included, so a section leaves no blank line behind whether it prints or not. Decided on
/// the text as written, then applied.
pub fn standalone(pieces: Vec<Piece>) -> Vec<Piece> {
    let last = pieces.len().saturating_sub(1);
    // The part of each literal that is kept.
    let mut keep: Vec<Range<usize>> = pieces
        .iter()
        .map(|p| match p {
            Piece::Lit(s) => 0..s.len(),
            _ => 0..0,
        })
        .collect();
    for (i, p) in pieces.iter().enumerate() {
        if !p.is_block() {
            continue;
        }
        let before = match i.checked_sub(1) {
            None => Some(None),
            Some(j) => line_start(&pieces[j], j == 0).map(Some),
        };
        let after = match pieces.get(i + 1) {
            None => Some(None),
            Some(next) => line_end(next, i + 1 == last).map(Some),
        };
        let (Some(before), Some(after)) = (before, after) else {
            continue;
        };
        if let Some(end) = before {
            keep[i - 1].end = keep[i - 1].end.min(end);
        }
        if let Some(start) = after {
            keep[i + 1].start = keep[i + 1].start.max(start);
        }
    }
    pieces
        .into_iter()
        .zip(keep)
        .filter_map(|(p, keep)| match p {
            Piece::Lit(s) => {
                let kept = &s[keep.start.min(keep.end)..keep.end];
                (!kept.is_empty()).then(|| Piece::Lit(kept.to_string()))
            }
            other => Some(other),
        })
        .collect()
}

/// Where the tag's line starts in the literal before it, when only blanks stand between:
/// after its last line break, or (the text's first piece) at 0.
fn line_start(before: &Piece, first: bool) -> Option<usize> {
    let Piece::Lit(s) = before else { return None };
    let start = match s.rfind('\n') {
        Some(nl) => nl + 1,
        None if first => 0,
        None => return None,
    };
    blank(&s[start..]).then_some(start)
}

/// Where the tag's line ends in the literal after it, when only blanks stand between:
/// after its first line break, or (the text's last piece) at its end.
fn line_end(after: &Piece, last: bool) -> Option<usize> {
    let Piece::Lit(s) = after else { return None };
    let end = match s.find('\n') {
        Some(nl) => nl,
        None if last => s.len(),
        None => return None,
    };
    blank(&s[..end]).then_some((end + 1).min(s.len()))
}

fn blank(s: &str) -> bool {
    s.bytes().all(|b| b == b' ' || b == b'\t')
}

#[cfg(test)]
mod tests {
    fn placeholders(text: &str) -> Result<Vec<Piece>, super::super::TemplateError> {
        super::super::placeholders(text, super::super::shaped)
    }
    use super::*;

    /// What `text` renders to with every section printed (`on`) or none.
    fn render(text: &str, on: bool) -> String {
        let mut out = String::new();
        let mut off = 0;
        for p in standalone(placeholders(text).unwrap()) {
            match p {
                Piece::Lit(s) if off == 0 => out.push_str(&s),
                Piece::Name(n, _) if off == 0 => out.push_str(&n.to_uppercase()),
                Piece::Open(..) | Piece::Loop(..) | Piece::When(..) if off > 0 || !on => off += 1,
                Piece::Close(..) if off > 0 => off -= 1,
                _ => {}
            }
        }
        out
    }

    #[test]
    fn a_tag_alone_on_its_line_takes_the_line_with_it() {
        let text = "Hello.\n{?more}\nMore.{/more}";
        assert_eq!(render(text, false), "Hello.\n");
        assert_eq!(render(text, true), "Hello.\nMore.");
        let text = "A\n  {?x}\t\nX {x}\n{/x}\nB\n";
        assert_eq!(render(text, true), "A\nX X\nB\n");
        assert_eq!(render(text, false), "A\nB\n");
        // At the very start and end of the text.
        assert_eq!(render("{?x}\nX\n{/x}", true), "X\n");
        assert_eq!(render("{?x}\nX\n{/x}\n", false), "");
        assert_eq!(render("  {?x}\nX{/x}", true), "X");
    }

    #[test]
    fn a_tag_sharing_its_line_keeps_it() {
        // `{?x}X` shares its line: nothing goes but the standalone `{/x}` line.
        assert_eq!(render("A\n{?x}X\n{/x}\nB", true), "A\nX\nB");
        assert_eq!(render("A\n{?x}X\n{/x}\nB", false), "A\nB");
        assert_eq!(render("A\n{?x}{/x}\nB", false), "A\n\nB");
        assert_eq!(render("A {?x}X{/x}\nB", false), "A \nB");
        // A placeholder alone on its line is no tag: it prints.
        assert_eq!(render("A\n{x}\nB", false), "A\nX\nB");
    }

    use proptest::prelude::*;

    /// A line of a body: text, a placeholder, a section tag, blanks, in any mix.
    fn line() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("a"),
            Just(" "),
            Just("\t"),
            Just("{f}"),
            Just("{?f}"),
            Just("{?!g}"),
            Just("{/f}"),
            Just("{/g}"),
        ];
        prop::collection::vec(piece, 0..4).prop_map(|p| p.concat() + "\n")
    }

    proptest! {
        /// A loop's tags take their lines as a section's do, and the body's own tags are
        /// decided as at the top of a text: a loop over one item prints what a section that
        /// prints does, and a loop's body as a list's item template prints what it does.
        #[test]
        fn a_loop_body_follows_the_standalone_rule_as_a_section_does(
            lines in prop::collection::vec(line(), 0..6),
            before in "[a \n]{0,3}",
        ) {
            let body = lines.concat();
            let section = format!("{before}{{?x}}\n{body}{{/x}}\nend");
            let looped = format!("{before}{{#x}}\n{body}{{/x}}\nend");
            // Unbalanced tags in the body: both refused alike.
            let refused = placeholders(&section).is_err();
            prop_assert_eq!(refused, placeholders(&looped).is_err());
            prop_assume!(!refused);
            prop_assert_eq!(render(&section, true), render(&looped, true));
            prop_assert_eq!(render(&section, false), render(&looped, false));
        }
    }
}
