//! Templates as doctrine reads them, at compile time (the code generator's shipped texts)
//! and at run time (a user's overlay file with `overlay_interpolate`), so both read one
//! grammar: `{name}` placeholders, `{?name}…{/name}` sections: text printed only when a
//! fact is given or a flag is on (`{?!name}`: only when it is not; `{?name:one}`,
//! `{?name:many}`: by a list's count), and `{#list}…{/list}` loops: the body printed once
//! per item of a list fact, `{.}` a plain list's item. [`mustache`] reads the same tags in
//! double braces; [`standalone`] and [`jinja`] are the two whitespace rules.

mod condition;
mod handlebars;
mod jinja;
mod mustache;
mod standalone;
mod ungated;
mod user;

pub use condition::{condition, is_condition, Cond, MAX_TESTS};
pub use handlebars::handlebars;
pub use jinja::jinja;
pub use mustache::mustache;
pub use standalone::standalone;
pub use ungated::{ungated_loops, UngatedLoop};
pub(crate) use user::user_checked;
pub use user::{
    overlay_template, user_template, Dialect, NameKind, TemplateName, TemplateSpec, UserRejected,
};

use crate::text::shown;

/// What a counted section (`{?list:one}`, `{?list:many}`) asks of a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Exactly one item.
    One,
    /// Two items or more.
    Many,
}

impl Count {
    /// As written after the name's `:`.
    pub fn word(self) -> &'static str {
        match self {
            Count::One => "one",
            Count::Many => "many",
        }
    }
}

/// Why a name cannot stand in a tag, if it cannot: the code generator's check (a
/// lowercase Rust identifier that is no keyword), or [`shaped`] at run time.
pub type NameCheck = fn(&str) -> Option<&'static str>;

/// A name's shape: lowercase letters, digits and `_`, starting with a letter. What a
/// user's template is read with: the names it may use are then looked up.
pub fn shaped(name: &str) -> Option<&'static str> {
    let mut chars = name.chars();
    let ok = matches!(chars.next(), Some('a'..='z'))
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'));
    (!ok).then_some(
        "is not a lowercase name: use lowercase letters, digits and `_`, starting with a letter",
    )
}

/// `check` over a name, or over each part of a dotted path `outer.field`: one level, a
/// nested field of a loop's item, which the item's fields resolve (elsewhere it names
/// nothing, and the code generator says what to write).
pub(crate) fn checked(check: NameCheck, name: &str) -> Option<&'static str> {
    match name.split_once('.') {
        Some((outer, field)) if !field.contains('.') => check(outer).or_else(|| check(field)),
        _ => check(name),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Lit(String),
    /// A placeholder's name and the byte offset of its `{`.
    Name(String, usize),
    /// A handlebars `{{name}}`: the value printed escaped as handlebars escapes HTML
    /// (`{{{name}}}` is a [`Piece::Name`]).
    Html(String, usize),
    /// `{?name}` (or `{?!name}`, negated): a section opens.
    Open(String, bool, usize),
    /// `{?name:one}` / `{?name:many}` (or negated): a section on a list's item count.
    Count(String, Count, bool, usize),
    /// `{#name}`: a loop over a list fact opens; its body runs to the matching `Close`.
    Loop(String, usize),
    /// `{/name}`: the innermost section closes.
    Close(String, usize),
    /// `{?a and not b}`, `{?mode = plan}`: a section on a condition ([`Cond`]), its words
    /// as written after `?` (spaced one way); it closes with them, less a leading `!`
    /// (`{/a and not b}`).
    When(Cond, String, usize),
}

impl Piece {
    /// Whether it is a block tag: a section, a loop or a close (what the whitespace rules
    /// and the loop bodies' nesting look at).
    pub fn is_block(&self) -> bool {
        !matches!(self, Piece::Lit(_) | Piece::Name(..) | Piece::Html(..))
    }

    /// Whether it opens a section or loop.
    pub fn opens(&self) -> bool {
        matches!(
            self,
            Piece::Open(..) | Piece::Count(..) | Piece::Loop(..) | Piece::When(..)
        )
    }
}

/// How deep `{?name}` sections may nest. Deeper is an error at the section that goes past
/// it: no real template nests more than a few levels, and a template of 100,000 nested
/// sections (a few hundred KB of manifest) made 11 MB of generated code, 580 MB to check.
pub const MAX_SECTION_DEPTH: usize = 16;

/// The most loops a manifest holds (and so one text): each is a list measured per
/// composition and a field of generated code's lists, and no real prompt needs more than
/// a handful; a text of 10,000 loops is refused at the first past the limit.
pub const MAX_LOOPS: usize = 256;

/// Why a text's placeholders do not parse: the byte offset where, what, and a help of its
/// own when the caller's (how to write a placeholder there) would not answer it.
#[derive(Debug, PartialEq, Eq)]
pub struct TemplateError {
    pub at: usize,
    pub message: String,
    pub help: Option<String>,
}

impl TemplateError {
    pub fn new(at: usize, message: String) -> Self {
        TemplateError {
            at,
            message,
            help: None,
        }
    }

    /// The error's own help, else `generic` (the caller's word on placeholders there).
    pub fn help_or(&self, generic: &str) -> String {
        self.help.clone().unwrap_or_else(|| generic.to_string())
    }
}

/// Splits `text {name} more {{literal}}` into literal and placeholder pieces.
pub fn placeholders(text: &str, check: NameCheck) -> Result<Vec<Piece>, TemplateError> {
    scan(text, false, check)
}

/// As [`placeholders`], for a list's item template, where `{0}` is a plain list's item.
pub fn item_placeholders(text: &str, check: NameCheck) -> Result<Vec<Piece>, TemplateError> {
    scan(text, true, check)
}

fn scan(text: &str, index: bool, check: NameCheck) -> Result<Vec<Piece>, TemplateError> {
    let mut reader = Reader::new(index, check);
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|p| p.1) == Some('{') => {
                chars.next();
                reader.lit.push('{');
            }
            '}' if chars.peek().map(|p| p.1) == Some('}') => {
                chars.next();
                reader.lit.push('}');
            }
            '{' => {
                let mut name = String::new();
                loop {
                    match chars.next() {
                        Some((_, '}')) => break,
                        Some((_, '\n')) | None => {
                            let name = shown(&name);
                            return Err(TemplateError::new(
                                at,
                                format!("placeholder `{{{name}` is never closed"),
                            ));
                        }
                        Some((_, c)) => name.push(c),
                    }
                }
                reader.tag(&name, at)?;
            }
            '}' => {
                return Err(TemplateError::new(
                    at,
                    "a lone `}` in text with placeholders (write `}}`)".into(),
                ))
            }
            c => reader.lit.push(c),
        }
    }
    reader.finish()
}

/// What a front end (braces, [`super::mustache`]) hands over as it reads a text: literal
/// characters into `lit`, each tag's inside (in braces form: `?name`, `#list`, `/name`,
/// `name`) to [`Reader::tag`]; the pieces, nested and counted, come out of `finish`.
pub(crate) struct Reader {
    out: Vec<Piece>,
    /// Open sections and loops, innermost last.
    open: Vec<Opened>,
    pub(crate) lit: String,
    loops: usize,
    /// A list's item template, where `{0}` is a plain list's item and a loop cannot stand.
    index: bool,
    check: NameCheck,
}

impl Reader {
    pub(crate) fn new(index: bool, check: NameCheck) -> Self {
        Reader {
            out: Vec::new(),
            open: Vec::new(),
            lit: String::new(),
            loops: 0,
            index,
            check,
        }
    }

    /// One tag whose inside is `name`, at byte `at`.
    pub(crate) fn tag(&mut self, name: &str, at: usize) -> Result<(), TemplateError> {
        let tag = tag(name, at, self.index, self.check)?;
        if let Tag::Loop(n) = &tag {
            self.loops += 1;
            if self.loops > MAX_LOOPS {
                return Err(TemplateError {
                    at,
                    message: format!("loop `{{#{}}}` is this text's loop number {}; a manifest holds at most {MAX_LOOPS}", shown(n), self.loops),
                    help: Some("print a list in one loop, or with `{list}` and its `item` template".into()),
                });
            }
        }
        if !self.lit.is_empty() {
            self.out.push(Piece::Lit(std::mem::take(&mut self.lit)));
        }
        let piece = nest(tag, at, &mut self.open)?;
        self.out.push(piece);
        Ok(())
    }

    /// A placeholder printed escaped for HTML (handlebars' `{{name}}`), at byte `at`.
    pub(crate) fn html(&mut self, name: &str, at: usize) -> Result<(), TemplateError> {
        match tag(name, at, self.index, self.check)? {
            Tag::Name(n) => {
                if !self.lit.is_empty() {
                    self.out.push(Piece::Lit(std::mem::take(&mut self.lit)));
                }
                self.out.push(Piece::Html(n, at));
                Ok(())
            }
            _ => Err(TemplateError::new(
                at,
                format!("`{}` is not a value's name", shown(name)),
            )),
        }
    }

    /// The pieces, once every section and loop is closed.
    pub(crate) fn finish(mut self) -> Result<Vec<Piece>, TemplateError> {
        if let Some(o) = self.open.pop() {
            let (what, help) = match o.is_loop {
                true => (
                    "loop",
                    Some(format!("end the item's body with `{{/{}}}`", o.name)),
                ),
                false => ("section", None),
            };
            return Err(TemplateError {
                at: o.at,
                message: format!(
                    "{what} `{{{}}}` is never closed (add `{{/{}}}`)",
                    shown(&o.written),
                    shown(&o.name)
                ),
                help,
            });
        }
        if !self.lit.is_empty() {
            self.out.push(Piece::Lit(self.lit));
        }
        Ok(self.out)
    }
}

/// A section or loop still open: its name, its tag as written, and where.
struct Opened {
    name: String,
    written: String,
    at: usize,
    is_loop: bool,
}

/// What one `{…}` holds, before sections are matched.
enum Tag {
    Name(String),
    Open(String, Option<Count>, bool),
    Loop(String),
    Close(String),
    /// A condition, its words after `?`, and what closes it.
    When(Cond, String, String),
}

/// Reads the inside of one `{…}` at `at`: a placeholder, a section or loop tag, or a
/// close; `index`: a list's item template, where `{0}` is a plain list's item and a loop
/// cannot stand.
fn tag(name: &str, at: usize, index: bool, check: NameCheck) -> Result<Tag, TemplateError> {
    // A condition. `{?!…}` negates the whole of it, as `{?!name}` does one name, and
    // closes with the words after the `!` (`{?!a and b}…{/a and b}`).
    if let Some(inside) = name
        .strip_prefix('?')
        .filter(|i| condition::is_condition(i))
    {
        let (negated, inside) = match inside.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, inside),
        };
        let cond = condition::condition(inside, at, check)?;
        let cond = match negated {
            true => Cond::Not(Box::new(cond)),
            false => cond,
        };
        let words = condition::words(inside);
        let written = format!("{}{words}", if negated { "!" } else { "" });
        return Ok(Tag::When(cond, written, words));
    }
    if let Some(inside) = name
        .strip_prefix('/')
        .filter(|i| condition::is_condition(i))
    {
        return Ok(Tag::Close(condition::words(inside)));
    }
    let (kind, bare) = if let Some(rest) = name.strip_prefix('?') {
        match rest.strip_prefix('!') {
            Some(rest) => (Some(true), rest),
            None => (Some(false), rest),
        }
    } else {
        (None, name.strip_prefix(['/', '#']).unwrap_or(name))
    };
    // `{?list:one}`: a count qualifies a section's name.
    let (bare, count) = match (kind, bare.split_once(':')) {
        (Some(_), Some((b, "one"))) => (b, Some(Count::One)),
        (Some(_), Some((b, "many"))) => (b, Some(Count::Many)),
        (Some(_), Some((b, word))) if checked(check, b).is_none() => {
            return Err(TemplateError {
                at,
                message: format!(
                    "`{{{}}}` counts by `{}`, which is not `one` or `many`",
                    shown(name),
                    shown(word)
                ),
                help: Some({
                    let b = shown(b);
                    format!("write `{{?{b}:one}}` (exactly one item), `{{?{b}:many}}` (two or more), or `{{?{b}}}` (any)")
                }),
            })
        }
        _ => (bare, None),
    };
    let item =
        kind.is_none() && !name.starts_with(['/', '#']) && (name == "." || (index && name == "0"));
    if let Some(problem) = checked(check, bare).filter(|_| !item) {
        let name = shown(name);
        let message = match problem.starts_with("is a Rust keyword") {
            true => format!(
                "`{{{name}}}` cannot be a placeholder or section: `{}` is a Rust keyword",
                shown(bare)
            ),
            false => format!("`{{{name}}}` is not a placeholder or section name"),
        };
        return Err(TemplateError::new(at, message));
    }
    let bare = bare.to_string();
    Ok(match kind {
        Some(negated) => Tag::Open(bare, count, negated),
        None if name.starts_with('/') => Tag::Close(bare),
        None if name.starts_with('#') && index => {
            return Err(TemplateError {
                at,
                message: format!(
                    "a list's item template cannot loop (`{{#{}}}`)",
                    shown(&bare)
                ),
                help: Some(
                    "an item template prints one item: its fields and `{?field}` sections".into(),
                ),
            })
        }
        None if name.starts_with('#') => Tag::Loop(bare),
        None => Tag::Name(bare),
    })
}

/// The piece a tag at `at` makes, matching closes against what is `open`.
fn nest(tag: Tag, at: usize, open: &mut Vec<Opened>) -> Result<Piece, TemplateError> {
    // The piece, its tag as written, and what closes it.
    let (piece, written, name) = match tag {
        Tag::Name(n) => return Ok(Piece::Name(n, at)),
        Tag::Close(bare) => return close(&bare, at, open),
        Tag::Open(n, count, negated) => {
            let bang = if negated { "!" } else { "" };
            let suffix = count.map(|c| format!(":{}", c.word())).unwrap_or_default();
            let written = format!("?{bang}{n}{suffix}");
            match count {
                None => (Piece::Open(n.clone(), negated, at), written, n),
                Some(count) => (Piece::Count(n.clone(), count, negated, at), written, n),
            }
        }
        Tag::When(cond, written, words) => (
            Piece::When(cond, written.clone(), at),
            format!("?{written}"),
            words,
        ),
        Tag::Loop(n) => {
            if let Some(outer) = open.iter().find(|o| o.is_loop) {
                return Err(TemplateError {
                    at,
                    message: format!("loop `{{#{n}}}` is inside loop `{{#{}}}`: loops do not nest", outer.name),
                    help: Some(format!("close `{{/{}}}` before opening another loop; an item's fields are text or bool, not lists", shown(&outer.name))),
                });
            }
            let written = format!("#{n}");
            (Piece::Loop(n.clone(), at), written, n)
        }
    };
    if open.len() == MAX_SECTION_DEPTH {
        return Err(TemplateError {
            at,
            message: format!("section `{{{}}}` is nested {} deep; sections nest at most {MAX_SECTION_DEPTH} deep", shown(&written), open.len() + 1),
            help: Some("close some sections before opening more, or split the text into layers or list items".into()),
        });
    }
    open.push(Opened {
        name,
        written,
        at,
        is_loop: matches!(piece, Piece::Loop(..)),
    });
    Ok(piece)
}

/// `{/bare}` at `at`: it must close the innermost open section or loop.
fn close(bare: &str, at: usize, open: &mut Vec<Opened>) -> Result<Piece, TemplateError> {
    match open.pop() {
        Some(o) if o.name == bare => Ok(Piece::Close(bare.to_string(), at)),
        // Words are shown cut short: a condition's may run on (a message stays short).
        Some(o) => {
            let what = if o.is_loop { "loop" } else { "section" };
            let (bare, name) = (shown(bare), shown(&o.name));
            Err(TemplateError::new(
                at,
                format!("`{{/{bare}}}` closes {what} `{name}`, which is still open (close it with `{{/{name}}}` first)"),
            ))
        }
        None => Err(TemplateError::new(
            at,
            format!("`{{/{}}}` closes no open section", shown(bare)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    fn placeholders(text: &str) -> Result<Vec<Piece>, TemplateError> {
        super::placeholders(text, shaped)
    }

    /// Text rich in what the scanner cares about: braces, doubled braces, newlines,
    /// multibyte characters right next to braces, names good and bad.
    fn text() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("{"),
            Just("}"),
            Just("{{"),
            Just("}}"),
            Just("{root}"),
            Just("{?root}"),
            Just("{?!root}"),
            Just("{/root}"),
            Just("{#root}"),
            Just("{#list}"),
            Just("{/list}"),
            Just("{.}"),
            Just("{?root:one}"),
            Just("{?!root:many}"),
            Just("{?root:few}"),
            Just("{?}"),
            Just("{x y}"),
            Just("{é}"),
            Just("a"),
            Just("_"),
            Just(" "),
            Just("\n"),
            Just("é"),
            Just("😀"),
            Just("\u{301}"),
        ];
        prop_oneof![
            prop::collection::vec(piece, 0..64).prop_map(|p| p.concat()),
            any::<String>(),
        ]
    }

    /// Undoes [`placeholders`]: literal braces doubled again, names in braces.
    fn rebuild(pieces: &[Piece]) -> String {
        pieces
            .iter()
            .map(|p| match p {
                Piece::Lit(s) => s.replace('{', "{{").replace('}', "}}"),
                Piece::Name(n, _) | Piece::Html(n, _) => format!("{{{n}}}"),
                Piece::Open(n, false, _) => format!("{{?{n}}}"),
                Piece::Open(n, true, _) => format!("{{?!{n}}}"),
                Piece::Close(n, _) => format!("{{/{n}}}"),
                Piece::Count(n, c, false, _) => format!("{{?{n}:{}}}", c.word()),
                Piece::Count(n, c, true, _) => format!("{{?!{n}:{}}}", c.word()),
                Piece::Loop(n, _) => format!("{{#{n}}}"),
                Piece::When(_, written, _) => format!("{{?{written}}}"),
            })
            .collect()
    }

    proptest! {
        #[test]
        fn splits_any_text_without_losing_or_misplacing_anything(text in text()) {
            match placeholders(&text) {
                Ok(pieces) => {
                    prop_assert_eq!(rebuild(&pieces), text.clone());
                    for p in &pieces {
                        if let Piece::Name(n, at) = p {
                            let placeholder = format!("{{{n}}}");
                            prop_assert!(text[*at..].starts_with(&placeholder));
                        }
                    }
                }
                Err(TemplateError { at, message, .. }) => {
                    prop_assert!(text.is_char_boundary(at));
                    let brace = text[at..].chars().next();
                    prop_assert!(matches!(brace, Some('{' | '}')), "at {:?}", brace);
                    // `shown` keeps a message short whatever the text.
                    prop_assert!(message.chars().count() < 120, "{}", message);
                }
            }
        }
    }

    #[test]
    fn thousands_of_braces_and_long_names() {
        let n = 20_000;
        // Where the error is, without printing a huge value should it not be one.
        let error_at = |text: &str| placeholders(text).err().map(|e| e.at);
        // Pairs are literal braces; the odd one out is the error.
        assert_eq!(error_at(&"{".repeat(n + 1)), Some(n));
        assert_eq!(error_at(&"}".repeat(n + 1)), Some(n));
        assert_eq!(error_at(&"{é".repeat(n)), Some(0));
        let literal = placeholders(&"{{".repeat(n)).unwrap();
        assert!(literal == vec![Piece::Lit("{".repeat(n))]);
        let names = placeholders(&"é{a}".repeat(n)).unwrap();
        assert_eq!(names.len(), 2 * n);
        // `é` is two bytes: the last `{` sits at 5 bytes per repeat, 2 into the last.
        assert_eq!(
            names.last(),
            Some(&Piece::Name("a".into(), 5 * (n - 1) + 2))
        );
        let long = format!("{{{}}}", "a".repeat(4 * n));
        assert!(
            matches!(&placeholders(&long).unwrap()[..], [Piece::Name(name, 0)] if name.len() == 4 * n)
        );
        let TemplateError { at, message, .. } =
            placeholders(&format!("x{{{}", "é".repeat(n))).unwrap_err();
        assert_eq!(at, 1);
        assert_eq!(
            message,
            format!("placeholder `{{{}…` is never closed", "é".repeat(40))
        );
    }
}

#[cfg(test)]
mod section_tests {
    use super::*;

    fn placeholders(text: &str) -> Result<Vec<Piece>, TemplateError> {
        super::placeholders(text, shaped)
    }

    fn item_placeholders(text: &str) -> Result<Vec<Piece>, TemplateError> {
        super::item_placeholders(text, shaped)
    }

    #[test]
    fn sections_open_and_close_in_order() {
        let p = placeholders("Today.{?branch} On {branch}.{/branch}{?!ci} Local.{/ci}").unwrap();
        assert_eq!(
            p,
            vec![
                Piece::Lit("Today.".into()),
                Piece::Open("branch".into(), false, 6),
                Piece::Lit(" On ".into()),
                Piece::Name("branch".into(), 19),
                Piece::Lit(".".into()),
                Piece::Close("branch".into(), 28),
                Piece::Open("ci".into(), true, 37),
                Piece::Lit(" Local.".into()),
                Piece::Close("ci".into(), 50),
            ]
        );
        // Literal braces stay possible inside and around sections.
        let p = placeholders("{{?x}} {?x}{{y}}{/x}").unwrap();
        assert_eq!(p[0], Piece::Lit("{?x} ".into()));
    }

    #[test]
    fn unbalanced_sections_are_located() {
        let e = placeholders("a {?x} b").unwrap_err();
        assert_eq!(e.at, 2);
        assert!(
            e.message.contains("section `{?x}` is never closed"),
            "{}",
            e.message
        );
        let e = placeholders("a {/x}").unwrap_err();
        assert_eq!(
            (e.at, e.message.as_str()),
            (2, "`{/x}` closes no open section")
        );
        let e = placeholders("{?a}{?b}{/a}{/b}").unwrap_err();
        assert_eq!(e.at, 8);
        assert!(
            e.message
                .contains("closes section `b`, which is still open"),
            "{}",
            e.message
        );
        let e = placeholders("{?}").unwrap_err();
        assert!(
            e.message.contains("not a placeholder or section name"),
            "{}",
            e.message
        );
    }

    #[test]
    fn conditions_open_and_close_with_their_words() {
        let p = placeholders("{?a  and (b or !c)}X{/a and (b or !c)}{?!a or b}Y{/a or b}").unwrap();
        let Piece::When(cond, written, 0) = &p[0] else {
            panic!("{p:?}")
        };
        assert_eq!(written, "a and (b or !c)");
        assert_eq!(cond.names(), vec!["a", "b", "c"]);
        assert_eq!(p[2], Piece::Close("a and (b or !c)".into(), 20));
        // `{?!…}` negates the whole condition and closes without its `!`.
        let Piece::When(Cond::Not(inner), written, _) = &p[3] else {
            panic!("{p:?}")
        };
        assert_eq!(
            (written.as_str(), inner.names()),
            ("!a or b", vec!["a", "b"])
        );
        // A close that does not repeat the condition says which close it needs.
        let e = placeholders("{?a or b}X{/a}").unwrap_err();
        assert_eq!(e.at, 10);
        assert!(
            e.message.contains(
                "closes section `a or b`, which is still open (close it with `{/a or b}` first)"
            ),
            "{}",
            e.message
        );
        let e = placeholders("x {?a or b}").unwrap_err();
        assert_eq!(
            (e.at, e.message.as_str()),
            (2, "section `{?a or b}` is never closed (add `{/a or b}`)")
        );
        let e = placeholders("{?a or}{/a or}").unwrap_err();
        assert!(
            e.message
                .starts_with("`{?a or}`: a name to test is missing"),
            "{}",
            e.message
        );
        // One name stays a section of its own kind.
        assert!(matches!(
            &placeholders("{?a}{/a}").unwrap()[0],
            Piece::Open(..)
        ));
    }

    #[test]
    fn sections_nest_at_most_max_section_depth() {
        let nested =
            |depth: usize| format!("x{}{{a}}{}", "{?a}".repeat(depth), "{/a}".repeat(depth));
        let deepest = placeholders(&nested(MAX_SECTION_DEPTH)).unwrap();
        assert_eq!(deepest.len(), 2 * MAX_SECTION_DEPTH + 2);
        // The error sits at the first section past the limit, however deep the text goes.
        for depth in [MAX_SECTION_DEPTH + 1, 100_000] {
            let TemplateError { at, message, help } = placeholders(&nested(depth)).unwrap_err();
            assert_eq!(at, 1 + 4 * MAX_SECTION_DEPTH);
            // The help is about nesting, not the caller's word on placeholder syntax.
            let help = help.expect("a help of its own");
            assert!(
                help.starts_with("close some sections before opening more"),
                "{help}"
            );
            assert_eq!(
                message,
                format!(
                    "section `{{?a}}` is nested {} deep; sections nest at most {MAX_SECTION_DEPTH} deep",
                    MAX_SECTION_DEPTH + 1
                )
            );
        }
        // As many sections side by side as wanted.
        let siblings = "{?a}{a}{/a}".repeat(1000);
        assert_eq!(placeholders(&siblings).unwrap().len(), 3000);
    }

    #[test]
    fn loops_open_close_and_stop_at_the_limit() {
        let p = placeholders("A{#xs}\n- {.}{?!n} ({n}){/n}\n{/xs}{?xs:many}s{/xs}").unwrap();
        assert_eq!(p[1], Piece::Loop("xs".into(), 1));
        assert_eq!(p[3], Piece::Name(".".into(), 9));
        assert_eq!(p.last(), Some(&Piece::Close("xs".into(), 44)));
        assert!(p.contains(&Piece::Count("xs".into(), Count::Many, false, 33)));
        let e = placeholders("{#a}{#b}{/b}{/a}").unwrap_err();
        assert_eq!(e.at, 4);
        assert!(e.message.contains("loops do not nest"), "{}", e.message);
        let e = placeholders("x{#a}{?b}{/a}{/b}").unwrap_err();
        assert_eq!(e.at, 9);
        let e = placeholders("x\n{#a}").unwrap_err();
        assert_eq!(
            (e.at, e.message.as_str()),
            (2, "loop `{#a}` is never closed (add `{/a}`)")
        );
        // An item template cannot loop.
        assert!(item_placeholders("{#a}{/a}").is_err());
        // 10,000 loops: an error at the first past the limit, found in one pass.
        let many = "{#a}{.}{/a}".repeat(10_000);
        let e = placeholders(&many).unwrap_err();
        assert_eq!(e.at, 11 * MAX_LOOPS);
        assert!(placeholders(&"{#a}{.}{/a}".repeat(MAX_LOOPS)).is_ok());
    }
}
