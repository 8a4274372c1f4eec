//! Line and column of a byte offset, counted the one way every diagnostic counts them:
//! lines end at `\n` (a lone `\r` is text, as normalisation keeps it), columns count
//! characters, both from 1.

use std::cell::Cell;

use doctrine_load::__internals::text::floor_char_boundary;

/// A text with the byte offset of each line's start, so a lookup costs a binary search and
/// a walk along part of one line. The last answer is kept, and a later offset on the same
/// line walks on from it, so offsets asked in increasing order cost one pass over the text
/// in all, even on one very long line (200,000 placeholders on one line once took seconds
/// when each was counted from the line's start).
pub(crate) struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
    /// The last offset answered, with its line and column.
    last: Cell<(usize, usize, usize)>,
}

impl<'t> Lines<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines {
            text,
            starts,
            last: Cell::new((0, 1, 1)),
        }
    }

    /// The 1-based line and column of byte `offset`; an offset past the end counts as the
    /// end, one inside a character as that character's start.
    pub(crate) fn at(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(self.text, offset);
        let line = self.starts.partition_point(|&s| s <= offset);
        let (last, last_line, last_col) = self.last.get();
        let (from, col) = if last_line == line && last <= offset {
            (last, last_col)
        } else {
            (self.starts[line - 1], 1)
        };
        let col = col + self.text[from..offset].chars().count();
        self.last.set((offset, line, col));
        (line, col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns() {
        let lines = Lines::new("ab\ncé\r\nd");
        assert_eq!(lines.at(0), (1, 1));
        assert_eq!(lines.at(2), (1, 3));
        assert_eq!(lines.at(3), (2, 1));
        // Inside `é`: its start; after it, one column on.
        assert_eq!(lines.at(5), (2, 2));
        assert_eq!(lines.at(6), (2, 3));
        assert_eq!(lines.at(8), (3, 1));
        assert_eq!(lines.at(9), (3, 2));
        // Out of order: counted afresh, not on from the last answer.
        assert_eq!(lines.at(4), (2, 2));
        assert_eq!(lines.at(99), (3, 2));
    }
}
