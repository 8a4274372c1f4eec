//! Plain text tables: columns padded to their widest cell, numbers right-aligned, two
//! spaces apart, no trailing spaces.

/// One column: its heading, and whether its cells are right-aligned (numbers).
pub(crate) struct Column {
    pub(crate) heading: &'static str,
    pub(crate) right: bool,
}

/// A column of text, left-aligned.
pub(crate) const fn text(heading: &'static str) -> Column {
    Column {
        heading,
        right: false,
    }
}

/// A column of numbers, right-aligned.
pub(crate) const fn number(heading: &'static str) -> Column {
    Column {
        heading,
        right: true,
    }
}

/// The table of `rows` under `columns`, each line ending in `\n`. A row shorter than the
/// columns leaves the rest blank.
pub(crate) fn render(columns: &[Column], rows: &[Vec<String>]) -> String {
    let width = |i: usize| {
        let cells = rows
            .iter()
            .filter_map(|r| r.get(i))
            .map(|c| c.chars().count());
        cells
            .chain([columns[i].heading.chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..columns.len()).map(width).collect();
    let headings: Vec<String> = columns.iter().map(|c| c.heading.to_string()).collect();
    let mut out = String::new();
    for row in std::iter::once(&headings).chain(rows) {
        let mut line = String::new();
        for (i, column) in columns.iter().enumerate() {
            let cell = row.get(i).map_or("", String::as_str);
            let pad = widths[i].saturating_sub(cell.chars().count());
            if i > 0 {
                line.push_str("  ");
            }
            if column.right {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_as_wide_as_their_widest_cell_and_numbers_align_right() {
        let rows = vec![
            vec!["developer".to_string(), "12".to_string(), "x".to_string()],
            vec!["qa".to_string(), "1234".to_string()],
        ];
        let table = render(&[text("prompt"), number("bytes"), text("note")], &rows);
        assert_eq!(
            table,
            "prompt     bytes  note\n\
             developer     12  x\n\
             qa          1234\n"
        );
    }
}
