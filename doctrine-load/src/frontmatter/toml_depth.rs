//! A nesting limit for TOML, checked before the `toml` crate builds its tree.
//!
//! The crate caps arrays and inline tables at 80 levels and keys at 80 parts, but not
//! their product: 80 inline tables each under an 80-part dotted key nest 6,400 tables,
//! which overflowed a 2 MiB stack while the tree was built or dropped, and serde's walk
//! over an unknown key's value overflows far sooner. The crate has no setting for this,
//! so we run its own event parser (`toml_parser`, which `toml` uses underneath) once over
//! the input and count levels from its events; nothing here reads TOML syntax itself.

use toml_parser::parser::{parse_document, EventReceiver};
use toml_parser::{ErrorSink, Source, Span};

/// The deepest nesting accepted: each array, each inline table and each part of a dotted
/// key or table header opens one level. (A header part naming an array of tables opens
/// two, so the tree built afterwards is at most twice this deep.)
pub const MAX_DEPTH: usize = 64;

/// The byte span where `input` first nests past [`MAX_DEPTH`], if it does. Syntax errors
/// are left to the `toml` crate.
pub fn too_deep(input: &str) -> Option<std::ops::Range<usize>> {
    let tokens = Source::new(input).lex().into_vec();
    let mut depth = Depth {
        open: vec![(false, 0)],
        parts: 0,
        key_start: None,
        header: false,
        found: None,
    };
    parse_document(&tokens, &mut depth, &mut ());
    depth.found
}

struct Depth {
    /// The open containers, innermost last: whether each is an array, and its depth.
    /// The first is the table that `key = value` lines currently fill.
    open: Vec<(bool, usize)>,
    /// Parts of the key (or header) read so far, until its value is complete.
    parts: usize,
    /// Where that key starts.
    key_start: Option<Span>,
    /// Inside a `[table]` or `[[array]]` header.
    header: bool,
    /// The first place past the limit.
    found: Option<std::ops::Range<usize>>,
}

impl Depth {
    /// Records `span` if `depth` is past the limit; true when it is not.
    fn within(&mut self, depth: usize, span: Span) -> bool {
        if self.found.is_none() && depth > MAX_DEPTH {
            self.found = Some(span.start()..span.end());
        }
        self.found.is_none()
    }

    /// The depth of a value about to open: one under its array, or its key's depth.
    fn next_depth(&self) -> usize {
        match self.open.last() {
            Some(&(true, depth)) => depth + 1,
            Some(&(false, depth)) => depth + self.parts,
            None => self.parts,
        }
    }

    /// Opens an array or inline table; refusing stops the parser descending further.
    fn enter(&mut self, array: bool, span: Span) -> bool {
        let depth = self.next_depth();
        self.parts = 0;
        // Pushed even when refused: the parser still reports the matching close.
        self.open.push((array, depth));
        self.within(depth, span)
    }

    fn leave(&mut self) {
        if self.open.len() > 1 {
            self.open.pop();
        }
        self.parts = 0;
    }

    fn header_open(&mut self) {
        self.header = true;
        self.parts = 0;
    }

    /// A header sets the depth that following `key = value` lines start from.
    fn header_close(&mut self, span: Span) {
        self.header = false;
        let depth = self.parts;
        self.parts = 0;
        self.open.truncate(1);
        self.open[0] = (false, depth);
        self.within(depth, span);
    }
}

impl EventReceiver for Depth {
    fn std_table_open(&mut self, _: Span, _: &mut dyn ErrorSink) {
        self.header_open();
    }
    fn array_table_open(&mut self, _: Span, _: &mut dyn ErrorSink) {
        self.header_open();
    }
    fn std_table_close(&mut self, span: Span, _: &mut dyn ErrorSink) {
        self.header_close(span);
    }
    fn array_table_close(&mut self, span: Span, _: &mut dyn ErrorSink) {
        self.header_close(span);
    }
    fn inline_table_open(&mut self, span: Span, _: &mut dyn ErrorSink) -> bool {
        self.enter(false, span)
    }
    fn inline_table_close(&mut self, _: Span, _: &mut dyn ErrorSink) {
        self.leave();
    }
    fn array_open(&mut self, span: Span, _: &mut dyn ErrorSink) -> bool {
        self.enter(true, span)
    }
    fn array_close(&mut self, _: Span, _: &mut dyn ErrorSink) {
        self.leave();
    }
    fn simple_key(
        &mut self,
        span: Span,
        _: Option<toml_parser::decoder::Encoding>,
        _: &mut dyn ErrorSink,
    ) {
        if self.parts == 0 {
            self.key_start = Some(span);
        }
        self.parts += 1;
        // Checked as each part arrives, so a header is located too.
        let depth = if self.header {
            self.parts
        } else {
            self.next_depth()
        };
        let start = self.key_start.unwrap_or(span);
        self.within(depth, start);
    }
    fn scalar(
        &mut self,
        _: Span,
        _: Option<toml_parser::decoder::Encoding>,
        _: &mut dyn ErrorSink,
    ) {
        // The key's value is complete. (A key left without a value by a syntax error
        // only counts towards the next one: more levels, never fewer.)
        self.parts = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One past the byte offset where `input` first nests too deep: its column, for input
    /// on one line.
    fn col(input: &str) -> Option<usize> {
        too_deep(input).map(|span| span.start + 1)
    }

    #[test]
    fn counts_arrays_inline_tables_and_key_parts_up_to_the_limit() {
        let arrays = |n: usize| format!("a = {}{}", "[".repeat(n), "]".repeat(n));
        // `a` is at depth 1 and so is its array; the 64th array is depth 64.
        assert_eq!(col(&arrays(MAX_DEPTH)), None);
        // `a = ` takes columns 1-4.
        assert_eq!(col(&arrays(MAX_DEPTH + 1)), Some(4 + MAX_DEPTH + 1));
        let tables = |n: usize| format!("a = {}1{}", "{b = ".repeat(n), "}".repeat(n));
        // Tables at depths 1..=63, the last `b` at 64.
        assert_eq!(col(&tables(MAX_DEPTH - 1)), None);
        // The 64th table's `b` is level 65: five columns per table, after `a = {`.
        assert_eq!(col(&tables(MAX_DEPTH)), Some(4 + 5 * (MAX_DEPTH - 1) + 2));
        let key = |n: usize| vec!["k"; n].join(".");
        assert_eq!(col(&format!("{} = 1", key(MAX_DEPTH))), None);
        assert_eq!(col(&format!("{} = 1", key(MAX_DEPTH + 1))), Some(1));
        assert_eq!(col(&format!("[{}]", key(MAX_DEPTH))), None);
        assert_eq!(col(&format!("[{}]", key(MAX_DEPTH + 1))), Some(2));
        assert_eq!(col(&format!("[[{}]]", key(MAX_DEPTH + 1))), Some(3));
        // A header's depth carries into its keys, and the next header resets it.
        let deep_header = format!("[{}]\nx = 1\n", key(MAX_DEPTH - 1));
        assert_eq!(
            col(&format!("{deep_header}y.z = 1")),
            Some(deep_header.len() + 1)
        );
        assert_eq!(col(&format!("{deep_header}[top]\ny.z = [1]")), None);
    }

    #[test]
    fn levels_add_up_across_keys_and_containers() {
        // Eight inline tables under eight-part keys: 8 × 8 = 64, then one more level.
        let key = ["k"; 8].join(".");
        let nest = |n: usize| format!("{}1{}", format!("{{{key} = ").repeat(n), "}".repeat(n));
        assert_eq!(col(&format!("a = {}", nest(7))), None);
        assert!(col(&format!("a = {}", nest(8))).is_some());
        assert!(col(&format!("a = [{}]", nest(8))).is_some());
    }

    #[test]
    fn ignores_brackets_in_strings_and_comments_and_leaves_errors_to_toml() {
        let many = "[{".repeat(500);
        assert_eq!(
            col(&format!("a = \"{many}\"\nb = '{many}' # {many}\n")),
            None
        );
        assert_eq!(col(&format!("a = \"\"\"\n{many}\n\"\"\"\n")), None);
        // A manifest-shaped document.
        let doc = "roles = [\"dev\"]\n[facts.root]\nrequired = [\"*\"]\n[[layer]]\nname = \"a\"\nfiles = { dev = \"a.md\" }\n[layer.suffix]\nroles = [\"dev\"]\n";
        assert_eq!(col(doc), None);
        // Broken TOML is not this check's business, however it is broken.
        assert_eq!(col("a = = [ } ] {"), None);
        assert_eq!(col(&"]".repeat(100_000)), None);
    }
}
