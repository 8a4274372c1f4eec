//! The whitespace Jinja (`trim_blocks` + `lstrip_blocks`, as minijinja applies them) takes
//! around the tags an import drops: comments, and the `{% raw %}` and `{% endraw %}` around
//! text printed as written. The layer's `whitespace = "jinja"` applies those rules to the
//! block tags it keeps (sections and loops); a dropped tag leaves nothing for it to see, so
//! the import applies them to the text beside it, reading the template as minijinja's
//! lexer reads it.

/// A tag next to a text, as the lexer marks its whitespace control at that end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tag {
    Comment(Ws),
    RawOpen(Ws),
    RawClose(Ws),
    /// Any other block tag (`{% if %}`, `{% endfor %}`, one outside the subset).
    Block(Ws),
    /// `{{ … }}`.
    Print,
}

/// A tag end's whitespace control: none, `-` (the lexer already removed the whitespace
/// there) or `+` (kept, and reported as outside the subset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ws {
    Default,
    Remove,
    Preserve,
}

impl Ws {
    fn of(marker: Option<char>) -> Ws {
        match marker {
            Some('-') => Ws::Remove,
            Some('+') => Ws::Preserve,
            _ => Ws::Default,
        }
    }
}

impl Tag {
    /// A tag the import drops, so whose whitespace it handles itself.
    pub(super) fn dropped(self) -> bool {
        matches!(self, Tag::Comment(_) | Tag::RawOpen(_) | Tag::RawClose(_))
    }
}

/// Whether `inner` (a block tag between `{%` and `%}`) is `raw` or `endraw`, with its
/// markers, as the lexer's `skip_basic_tag` reads them: the name between ASCII blanks.
fn raw_tag(inner: &str) -> Option<Tag> {
    let (start, rest) = match inner.strip_prefix(['-', '+']) {
        Some(rest) => (inner.chars().next(), rest),
        None => (None, inner),
    };
    let (rest, end) = match rest.strip_suffix(['-', '+']) {
        Some(body) => (body, rest.chars().last()),
        None => (rest, None),
    };
    let name = rest.trim_matches(|c: char| c.is_ascii_whitespace());
    let blanks_only = |s: &str| s.chars().all(|c| c.is_ascii_whitespace());
    let (before, after) = rest.split_at(rest.find(name)?);
    if !blanks_only(before) || !blanks_only(&after[name.len()..]) {
        return None;
    }
    match name {
        // The opening's end marker rules the text after it; the closing's start marker
        // the text before it.
        "raw" => Some(Tag::RawOpen(Ws::of(end))),
        "endraw" => Some(Tag::RawClose(Ws::of(start))),
        _ => None,
    }
}

/// The tag that ends where a text starts (`head` is the template up to the text): the
/// lexer's `-` on that tag removed the whitespace between, so it is looked past.
pub(super) fn before(head: &str) -> Option<Tag> {
    let trimmed = head.trim_end();
    let skipped = trimmed.len() < head.len();
    let marker = |tag: &str| tag.strip_suffix(['}']).and_then(|t| t.chars().nth_back(1));
    let end_ws = Ws::of(marker(trimmed));
    if skipped && end_ws != Ws::Remove {
        // Whitespace the lexer kept is part of the text itself: no tag ends here.
        return None;
    }
    if trimmed.ends_with("#}") {
        return Some(Tag::Comment(end_ws));
    }
    if trimmed.ends_with("}}") {
        return Some(Tag::Print);
    }
    let body = trimmed.strip_suffix("%}")?;
    // A raw tag holds no `{%` of its own, so the last one opens it (any other tag ending
    // here fails `raw_tag`, a string in it included).
    let open = body.rfind("{%")?;
    match raw_tag(&body[open + 2..]) {
        Some(Tag::RawOpen(_)) => Some(Tag::RawOpen(end_ws)),
        Some(Tag::RawClose(_)) => Some(Tag::RawClose(end_ws)),
        _ => Some(Tag::Block(end_ws)),
    }
}

/// The tag that starts where a text ends (`tail` is the template from the text's end),
/// looked past the whitespace a `-` on it removed.
pub(super) fn after(tail: &str) -> Option<Tag> {
    let trimmed = tail.trim_start();
    let skipped = trimmed.len() < tail.len();
    let start_ws = Ws::of(trimmed.get(2..).and_then(|t| t.chars().next()));
    if skipped && start_ws != Ws::Remove {
        return None;
    }
    if trimmed.starts_with("{#") {
        return Some(Tag::Comment(start_ws));
    }
    if trimmed.starts_with("{{") {
        return Some(Tag::Print);
    }
    let body = trimmed.strip_prefix("{%")?;
    let close = body.find("%}").unwrap_or(body.len());
    match raw_tag(&body[..close]) {
        Some(Tag::RawOpen(_)) => Some(Tag::RawOpen(start_ws)),
        Some(Tag::RawClose(_)) => Some(Tag::RawClose(start_ws)),
        _ => Some(Tag::Block(start_ws)),
    }
}

fn is_nl(c: char) -> bool {
    c == '\n' || c == '\r'
}

/// `trim_blocks` after a dropped tag: `\r`, then `\n`, as the lexer skips them.
pub(super) fn trim_block(text: &str) -> &str {
    let text = text.strip_prefix('\r').unwrap_or(text);
    text.strip_prefix('\n').unwrap_or(text)
}

/// `lstrip_blocks` before a tag: whether only whitespace stands between the tag, at the
/// end of `head`, and its line's start (or the template's).
pub(super) fn at_line_start(head: &str) -> bool {
    for c in head.chars().rev() {
        if is_nl(c) {
            return true;
        }
        if !c.is_whitespace() {
            return false;
        }
    }
    true
}

/// The lexer's `lstrip_block`: `text` without the blanks that end it when nothing but a
/// line break (`\n`) or its start stands before them.
pub(super) fn lstrip(text: &str) -> &str {
    let trimmed = text.trim_end_matches(|c: char| c.is_whitespace() && !is_nl(c));
    match trimmed.is_empty() || trimmed.ends_with('\n') {
        true => trimmed,
        false => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_read_as_the_lexer_reads_them() {
        assert_eq!(before("a{# c #}"), Some(Tag::Comment(Ws::Default)));
        assert_eq!(before("a{# c -#}  "), Some(Tag::Comment(Ws::Remove)));
        assert_eq!(before("a{# c #}  "), None);
        assert_eq!(before("{{ x }}"), Some(Tag::Print));
        assert_eq!(before("{% raw %}"), Some(Tag::RawOpen(Ws::Default)));
        assert_eq!(before("{%-  raw\t-%}\n"), Some(Tag::RawOpen(Ws::Remove)));
        assert_eq!(before("x{% endraw %}"), Some(Tag::RawClose(Ws::Default)));
        assert_eq!(before("{% if a %}"), Some(Tag::Block(Ws::Default)));
        assert_eq!(
            before("{% set r = \"{% raw %}\" %}"),
            Some(Tag::Block(Ws::Default))
        );
        assert_eq!(before("{% rawx %}"), Some(Tag::Block(Ws::Default)));
        assert_eq!(before("text"), None);
        assert_eq!(after("{# c #}"), Some(Tag::Comment(Ws::Default)));
        assert_eq!(after("  {#- c #}"), Some(Tag::Comment(Ws::Remove)));
        assert_eq!(after("  {# c #}"), None);
        assert_eq!(after("{% raw %}x"), Some(Tag::RawOpen(Ws::Default)));
        assert_eq!(after("{%+ raw %}x"), Some(Tag::RawOpen(Ws::Preserve)));
        assert_eq!(after("{% endraw %}"), Some(Tag::RawClose(Ws::Default)));
        assert_eq!(after(" {%- endraw %}"), Some(Tag::RawClose(Ws::Remove)));
        assert_eq!(after("{% endif %}"), Some(Tag::Block(Ws::Default)));
        assert_eq!(after("{{ x }}"), Some(Tag::Print));
        assert_eq!(after(""), None);
    }

    #[test]
    fn whitespace_rules_are_the_lexers() {
        assert_eq!(trim_block("\r\nx"), "x");
        assert_eq!(trim_block("\n\nx"), "\nx");
        assert_eq!(trim_block(" \nx"), " \nx");
        assert!(at_line_start("a\n \t"));
        assert!(at_line_start(""));
        assert!(at_line_start("a\r "));
        assert!(!at_line_start("a "));
        assert_eq!(lstrip("a\n  "), "a\n");
        assert_eq!(lstrip("  "), "");
        assert_eq!(lstrip("a  "), "a  ");
        // After a lone `\r` the lexer strips nothing (it looks for `\n`).
        assert_eq!(lstrip("a\r  "), "a\r  ");
    }
}
