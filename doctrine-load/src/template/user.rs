//! A user's overlay file read as a template (`overlay_interpolate = true`): the grammar a
//! shipped text is read with, and the names its layer may use, looked up here rather than
//! checked by the compiler. Anything else is refused with where and why, and the shipped
//! text is kept.

use doctrine_core::__private::{
    measure_user, render_user, Escaping, Rendered, UserCheck, UserSeg, UserTemplate, Value,
    MAX_REPEATED_BYTES,
};
use doctrine_core::introspect::{Notice, NoticeKind};
use std::cell::RefCell;
use std::rc::Rc;

use super::{
    handlebars, jinja, mustache, placeholders, shaped, standalone, Cond, Piece, TemplateError,
};
use crate::text::{shown, Lead};

/// What a user's template for one layer may use, as the code generator wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TemplateSpec {
    pub layer: &'static str,
    /// The layer's overlay file.
    pub file: &'static str,
    pub names: &'static [TemplateName],
    /// How its tags are written: the layer's `placeholders`.
    pub dialect: Dialect,
    /// Block tags take whitespace as Jinja does (`whitespace = "jinja"`).
    pub jinja: bool,
}

/// How a user's template writes its tags: as the layer's shipped text does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `{name}`, `{?name}…{/name}` (`placeholders = "braces"`, the default).
    Braces,
    /// `{{name}}`, `{{#name}}…{{/name}}` (`placeholders = "mustache"`).
    Mustache,
    /// `{{name}}` escaped for HTML, `{{{name}}}` as given, `{{#if …}}…{{else}}…{{/if}}`
    /// (`placeholders = "handlebars"`).
    Handlebars,
}

/// A name a user's template may use, and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TemplateName {
    pub name: &'static str,
    /// Its index among the composition's values.
    pub value: u32,
    pub kind: NameKind,
    /// A fact of a later cache tier than the layer's (a per-turn fact, say): one that
    /// changes more often than the layer may.
    pub later: bool,
    /// A fact with a closed set: each value, and the text it prints (what `name = value`
    /// compares); empty for any other name.
    pub values: &'static [(&'static str, &'static str)],
}

/// What a name names, which says where it may stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// A text fact: printed, or tested by a section.
    Text,
    /// A list fact: printed (its items, as its layer's `item` says), or tested, also by count.
    List,
    /// A knob: printed.
    Knob,
    /// A flag: tested by a section.
    Flag,
}

/// Why a user's template was refused: where (a byte offset into its text), what, and how
/// to write it instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRejected {
    pub at: usize,
    pub message: String,
    pub help: String,
}

impl UserRejected {
    /// Its position in `text` as `(line, column)`, both from 1, the column in characters.
    pub fn line_col(&self, text: &str) -> (usize, usize) {
        let before = &text[..crate::text::floor_char_boundary(text, self.at)];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        (line, col)
    }
}

/// `text` read as layer `spec.layer`'s template, every name looked up.
pub fn user_template(text: &str, spec: &TemplateSpec) -> Result<UserTemplate, UserRejected> {
    let help = |e: TemplateError| {
        let help = e.help_or(syntax_help(spec));
        UserRejected {
            at: e.at,
            message: e.message,
            help,
        }
    };
    // No loops here: `{{#list}}` is a section on the list, as on anything else.
    let pieces = match spec.dialect {
        Dialect::Braces => placeholders(text, shaped),
        Dialect::Mustache => mustache(text, &|_| false, shaped),
        // A user's file is refused at its first mistake.
        Dialect::Handlebars => handlebars(text, &|_| false, shaped).map_err(first),
    }
    .map_err(help)?;
    let pieces = match (spec.dialect, spec.jinja) {
        // Handlebars' own standalone rule is applied as the text is read.
        (Dialect::Handlebars, _) => pieces,
        (_, true) => jinja(pieces),
        (_, false) => standalone(pieces),
    };
    let mut out = UserTemplate::default();
    // Open sections: the index of each one's segment, innermost last.
    let mut open: Vec<usize> = Vec::new();
    for piece in pieces {
        let seg = match piece {
            Piece::Lit(s) => {
                let from = out.lits.len();
                out.lits.push_str(&s);
                UserSeg::Lit(from..out.lits.len())
            }
            Piece::Name(n, at) => UserSeg::Value(printed(spec, &n, at)?),
            Piece::Open(n, negated, at) => UserSeg::If(tested(spec, &n, at, false)?, negated, 0),
            Piece::Count(n, count, negated, at) => {
                let many = matches!(count, super::Count::Many);
                UserSeg::Count(tested(spec, &n, at, true)?, many, negated, 0)
            }
            Piece::Loop(n, at) => return Err(no_loop(spec, &n, at)),
            Piece::When(cond, written, at) => {
                let mut steps = Vec::new();
                condition(spec, &cond, &written, at, &mut steps)?;
                UserSeg::When(steps, 0)
            }
            Piece::Html(n, at) => UserSeg::Escaped(escaped(spec, &n, at)?, Escaping::Html),
            Piece::Close(..) => {
                // Balanced by the reader: every close has its open.
                if let Some(o) = open.pop() {
                    let len = out.segs.len() - o - 1;
                    if let UserSeg::If(_, _, l) | UserSeg::Count(_, _, _, l) | UserSeg::When(_, l) =
                        &mut out.segs[o]
                    {
                        *l = len;
                    }
                }
                continue;
            }
        };
        if matches!(
            seg,
            UserSeg::If(..) | UserSeg::Count(..) | UserSeg::When(..)
        ) {
            open.push(out.segs.len());
        }
        out.segs.push(seg);
    }
    Ok(out)
}

/// The first of a text's mistakes (there is one at least).
fn first(errors: Vec<TemplateError>) -> TemplateError {
    let first = errors.into_iter().min_by_key(|e| e.at);
    first.unwrap_or_else(|| TemplateError::new(0, "the text does not read".to_string()))
}

/// The loader's check of a file's `text`, which starts `lead` into the file: `Err` says
/// where (the file's line and column) and why, in a sentence of a notice.
pub(crate) fn user_checked(text: &str, lead: Lead, spec: &TemplateSpec) -> Result<(), String> {
    let e = match user_template(text, spec) {
        Ok(_) => return Ok(()),
        Err(e) => e,
    };
    let (line, col) = e.line_col(text);
    let col = if line == 1 { col + lead.cols } else { col };
    Err(format!(
        "The file is read as a template with layer `{}`'s facts (`overlay_interpolate`), \
         and at line {}, column {col}: {} ({})",
        spec.layer,
        line + lead.lines,
        e.message,
        e.help
    ))
}

/// What generated code calls per composition for a layer whose overlay is a template:
/// the overlay's `text` checked against `spec` and rendered with the composition's
/// `values`. A text that does not read (one set in code: a file is checked when loaded)
/// renders to nothing, so the shipped text stays, and the notice says why.
pub fn overlay_template(
    text: &str,
    spec: &TemplateSpec,
    values: &[Value<'_>],
) -> (Rendered, Option<Notice>) {
    let text = text.trim();
    if text.is_empty() {
        return (Rendered::default(), None);
    }
    match &*read_once(text, spec) {
        Ok(t) => {
            let measured = measure_user(t, values);
            if !measured.over() {
                return (render_user(t, values, spec.file), None);
            }
            let message = format!(
                "The overlay text for layer `{}` is read as a template with the layer's facts, \
                 and with this composition's values it would print {} bytes, over its bound \
                 of {} (its own text, each value once, and {} bytes of values printed again); \
                 the shipped text was kept. Print a large value once.",
                spec.layer, measured.printed, measured.bound, MAX_REPEATED_BYTES
            );
            let subject = format!("overlay {}", spec.file);
            let notice = Notice::new(subject, NoticeKind::TemplateRejected, message);
            (Rendered::default(), Some(notice))
        }
        Err(e) => {
            let (line, col) = e.line_col(text);
            let message = format!(
                "The overlay text for layer `{}` (set in code) is read as a template with the \
                 layer's facts, and at line {line}, column {col}: {} ({}); the shipped text \
                 was kept.",
                spec.layer, e.message, e.help
            );
            let subject = format!("overlay {}", spec.file);
            let notice = Notice::new(subject, NoticeKind::TemplateRejected, message);
            (Rendered::default(), Some(notice))
        }
    }
}

/// Templates read on this thread: the layer's spec, the text, its reading. A user's
/// template is the same text turn after turn, and reading it costs some forty times what
/// rendering it does (`benches/overlay_template.rs`), so each is read once per thread and
/// found again by comparing the whole text. A few layers at most have one.
type Read = Rc<Result<UserTemplate, UserRejected>>;

thread_local! {
    static READ: RefCell<Vec<(TemplateSpec, Box<str>, Read)>> = const { RefCell::new(Vec::new()) };
}

/// The most readings kept per thread (the oldest goes first).
const KEPT_READINGS: usize = 8;

/// [`user_template`], read once per thread for each layer and text.
fn read_once(text: &str, spec: &TemplateSpec) -> Read {
    READ.with(|read| {
        let mut read = read.borrow_mut();
        if let Some((.., t)) = read.iter().find(|(s, t, _)| s == spec && **t == *text) {
            return t.clone();
        }
        let t = Rc::new(user_template(text, spec));
        if read.len() == KEPT_READINGS {
            read.remove(0);
        }
        // A layer keeps the reading of its latest text only.
        read.retain(|(s, ..)| s != spec);
        read.push((*spec, text.into(), t.clone()));
        t
    })
}

fn find<'s>(spec: &'s TemplateSpec, name: &str) -> Option<&'s TemplateName> {
    spec.names.iter().find(|n| n.name == name)
}

/// The value `{name}` at `at` prints.
fn printed(spec: &TemplateSpec, name: &str, at: usize) -> Result<usize, UserRejected> {
    if name == "." {
        return Err(UserRejected {
            at,
            message: format!(
                "`{}` prints a loop's item, and a user's template has no loops",
                tag(spec, "", ".")
            ),
            help: "loops are read in shipped texts only; print the list whole by its name"
                .to_string(),
        });
    }
    let found = known(spec, name, at, "{NAME}")?;
    if found.kind == NameKind::Flag {
        return Err(UserRejected {
            at,
            message: format!("`{name}` is a flag: it is tested, not printed"),
            help: format!(
                "write `{}` for text printed when it is on",
                tag(spec, "?", name)
            ),
        });
    }
    Ok(found.value as usize)
}

/// The value a section on `name` at `at` tests; `count`: a `:one`/`:many` section.
fn tested(spec: &TemplateSpec, name: &str, at: usize, count: bool) -> Result<usize, UserRejected> {
    let found = known(spec, name, at, "{?NAME}")?;
    if found.kind == NameKind::Knob || (count && found.kind != NameKind::List) {
        let what = match found.kind {
            NameKind::Knob => "a knob, which always has a value",
            _ => "not a list, so it has no count",
        };
        return Err(UserRejected {
            at,
            message: format!("a section on `{name}`, which is {what}"),
            help: format!("print it with `{}`", tag(spec, "", name)),
        });
    }
    Ok(found.value as usize)
}

/// `name` as the layer may use it at `at`: declared, and not per-turn in a cached layer.
fn known<'s>(
    spec: &'s TemplateSpec,
    name: &str,
    at: usize,
    form: &str,
) -> Result<&'s TemplateName, UserRejected> {
    let Some(found) = find(spec, name) else {
        let usable = spec.names.iter().filter(|n| !n.later);
        let names: Vec<&str> = usable.map(|n| n.name).take(12).collect();
        let help = match names.is_empty() {
            true => "this layer's template may use no name: remove the tag".to_string(),
            false => format!(
                "the names this layer's template may use: {}",
                names.join(", ")
            ),
        };
        return Err(UserRejected {
            at,
            message: format!(
                "`{}` names nothing layer `{}` may use",
                form.replace("NAME", &shown(name)),
                spec.layer
            ),
            help,
        });
    };
    if found.later {
        return Err(UserRejected {
            at,
            message: format!(
                "`{name}` belongs to a later cache tier than layer `{}`, so it changes more often than the layer may",
                spec.layer
            ),
            help: "leave it out of this file: a value that changes every turn here would make every turn pay for the cached prompt again".to_string(),
        });
    }
    Ok(found)
}

fn no_loop(spec: &TemplateSpec, name: &str, at: usize) -> UserRejected {
    UserRejected {
        at,
        message: format!(
            "a loop (`{}`) in a user's template",
            tag(spec, "#", &shown(name))
        ),
        help: format!(
            "loops are read in shipped texts only; print the list whole with `{}`",
            tag(spec, "", &shown(name))
        ),
    }
}

/// The value `{{name}}` at `at` prints escaped: a text or a knob (a list prints its own
/// way, item by item, and is printed as given).
fn escaped(spec: &TemplateSpec, name: &str, at: usize) -> Result<usize, UserRejected> {
    let v = printed(spec, name, at)?;
    match find(spec, name).map(|n| n.kind) {
        Some(NameKind::List) => Err(UserRejected {
            at,
            message: format!("`{{{{{name}}}}}` prints list `{name}` escaped for HTML, and a list prints item by item"),
            help: format!("print it as given: `{{{{{{{name}}}}}}}`"),
        }),
        _ => Ok(v),
    }
}

/// Appends the steps of condition `cond` (written `written`, at `at`) in postfix order,
/// each name looked up as a one-name section's is, each value checked.
fn condition(
    spec: &TemplateSpec,
    cond: &Cond,
    written: &str,
    at: usize,
    out: &mut Vec<UserCheck>,
) -> Result<(), UserRejected> {
    let fail = |message: String, help: String| UserRejected { at, message, help };
    match cond {
        Cond::Given(n) => out.push(UserCheck::Given(tested(spec, n, at, false)?)),
        Cond::Count(n, count) => {
            let many = matches!(count, super::Count::Many);
            out.push(UserCheck::Count(tested(spec, n, at, true)?, many));
        }
        Cond::Has(n, value) => {
            let v = tested(spec, n, at, false)?;
            if find(spec, n).map(|f| f.kind) != Some(NameKind::List) {
                return Err(fail(
                    format!(
                        "`{written}` tests whether `{n}` has `{value}`, and `{n}` is not a list"
                    ),
                    format!("compare it: `{n} = {value}`"),
                ));
            }
            out.push(UserCheck::Has(v, value.clone()));
        }
        Cond::Is(n, value) => {
            let v = tested(spec, n, at, false)?;
            let found = find(spec, n).expect("looked up");
            let what = match found.kind {
                NameKind::List => Some(format!("list `{n}`, which has no single value")),
                NameKind::Flag => Some(format!("flag `{n}`, which is on or off")),
                _ => None,
            };
            if let Some(what) = what {
                return Err(fail(
                    format!("`{written}` compares {what}"),
                    match found.kind {
                        NameKind::List => {
                            format!("test whether it holds the value: `{n} has {value}`")
                        }
                        _ => format!("test the flag alone: `{n}` or `not {n}`"),
                    },
                ));
            }
            // A closed set: the value is one of its own, and what is compared is the text
            // it prints.
            let printed = match found.values {
                [] => value.clone(),
                values => match values.iter().find(|(k, _)| k == value) {
                    Some((_, text)) => text.to_string(),
                    None => {
                        let keys: Vec<&str> = values.iter().map(|(k, _)| *k).collect();
                        return Err(fail(
                            format!("`{written}`: `{value}` is not a value of fact `{n}`"),
                            format!("its values: {}", keys.join(", ")),
                        ));
                    }
                },
            };
            out.push(UserCheck::Is(v, printed));
        }
        Cond::Not(c) => {
            condition(spec, c, written, at, out)?;
            out.push(UserCheck::Not);
        }
        Cond::All(cs) | Cond::Any(cs) => {
            let join = match cond {
                Cond::All(_) => UserCheck::And,
                _ => UserCheck::Or,
            };
            for (i, c) in cs.iter().enumerate() {
                condition(spec, c, written, at, out)?;
                if i > 0 {
                    out.push(join.clone());
                }
            }
        }
    }
    Ok(())
}

/// A tag as the layer's syntax writes it: `sigil` `?`, `#` or none.
fn tag(spec: &TemplateSpec, sigil: &str, name: &str) -> String {
    match (spec.dialect, sigil) {
        (Dialect::Braces, _) => format!("{{{sigil}{name}}}"),
        (Dialect::Mustache, "?") => format!("{{{{#{name}}}}}…{{{{/{name}}}}}"),
        (Dialect::Handlebars, "?") => format!("{{{{#if {name}}}}}…{{{{/if}}}}"),
        (Dialect::Handlebars, "#") => format!("{{{{#each {name}}}}}"),
        (Dialect::Handlebars, _) => format!("{{{{{{{name}}}}}}}"),
        (Dialect::Mustache, _) => format!("{{{{{sigil}{name}}}}}"),
    }
}

fn syntax_help(spec: &TemplateSpec) -> &'static str {
    match spec.dialect {
        Dialect::Braces => "write `{name}` for a value, `{?name}…{/name}` for text printed only when it is given, and `{{` / `}}` for literal braces",
        Dialect::Mustache => "write `{{name}}` for a value, `{{#name}}…{{/name}}` for text printed only when it is given, `{{^name}}…{{/name}}` when it is not; single braces are literal",
        Dialect::Handlebars => "write `{{name}}` for a value escaped for HTML, `{{{name}}}` as given, `{{#if name}}…{{else}}…{{/if}}` for text printed only when it is given; single braces are literal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &[TemplateName] = &[
        TemplateName {
            name: "user",
            value: 0,
            kind: NameKind::Text,
            later: false,
            values: &[],
        },
        TemplateName {
            name: "roots",
            value: 1,
            kind: NameKind::List,
            later: false,
            values: &[],
        },
        TemplateName {
            name: "today",
            value: 2,
            kind: NameKind::Text,
            later: true,
            values: &[],
        },
        TemplateName {
            name: "terse",
            value: 3,
            kind: NameKind::Flag,
            later: false,
            values: &[],
        },
    ];

    const SPEC: TemplateSpec = TemplateSpec {
        layer: "style",
        file: "style.md",
        names: NAMES,
        dialect: Dialect::Braces,
        jinja: false,
    };

    fn err(text: &str) -> (usize, usize, String) {
        let e = user_template(text, &SPEC).unwrap_err();
        let (line, col) = e.line_col(text);
        (line, col, e.message)
    }

    #[test]
    fn names_become_values_and_sections_span_their_pieces() {
        let t = user_template("Hi {user}.\n{?terse}\nBe brief.\n{/terse}\n{{x}}", &SPEC).unwrap();
        assert_eq!(
            t.segs,
            [
                UserSeg::Lit(0..3),
                UserSeg::Value(0),
                UserSeg::Lit(3..5),
                UserSeg::If(3, false, 1),
                UserSeg::Lit(5..15),
                UserSeg::Lit(15..18),
            ]
        );
        assert_eq!(t.lits, "Hi .\nBe brief.\n{x}");
    }

    #[test]
    fn what_it_may_not_use_is_refused_where_it_stands() {
        let (l, c, m) = err("ok\n  {nobody}");
        assert_eq!((l, c), (2, 3));
        assert_eq!(m, "`{nobody}` names nothing layer `style` may use");
        let (l, c, m) = err("{today}");
        assert_eq!((l, c), (1, 1));
        assert!(m.contains("later cache tier"), "{m}");
        assert!(err("{terse}").2.contains("is a flag"));
        assert!(err("{?user:one}x{/user}").2.contains("no count"));
        assert!(err("é {#roots}{.}{/roots}").2.contains("a loop"));
        let (l, c, m) = err("a\nb {?user}never closed");
        assert_eq!((l, c), (2, 3));
        assert!(m.contains("never closed"), "{m}");
    }

    #[test]
    fn mustache_and_jinja_read_as_in_a_shipped_text() {
        let spec = TemplateSpec {
            dialect: Dialect::Mustache,
            jinja: true,
            ..SPEC
        };
        let t = user_template("{{#roots}}\nR: {{roots}}\n{{/roots}}\n{single}", &spec).unwrap();
        let e = user_template("{{#roots}}{{.}}{{/roots}}", &spec).unwrap_err();
        assert!(e.message.contains("has no loops"), "{}", e.message);
        assert_eq!(t.lits, "R: \n{single}");
        assert_eq!(t.segs[0], UserSeg::If(1, false, 3));
        let e = user_template("{{#user}}x", &spec).unwrap_err();
        assert!(e.message.contains("{{#user}}"), "{}", e.message);
    }

    #[test]
    fn conditions_become_postfix_steps_and_handlebars_escapes_its_double_stash() {
        let t = user_template("{?user and not (terse or roots has \"/a b\")}x{/user and not (terse or roots has \"/a b\")}", &SPEC).unwrap();
        use UserCheck::*;
        let steps = vec![Given(0), Given(3), Has(1, "/a b".into()), Or, Not, And];
        assert_eq!(t.segs[0], UserSeg::When(steps, 1));
        let spec = TemplateSpec {
            dialect: Dialect::Handlebars,
            ..SPEC
        };
        let t = user_template(
            "{{user}} {{{user}}}{{#if (and user (not terse))}}!{{else}}?{{/if}}",
            &spec,
        )
        .unwrap();
        assert_eq!(t.segs[0], UserSeg::Escaped(0, Escaping::Html));
        assert_eq!(t.segs[2], UserSeg::Value(0));
        assert!(matches!(t.segs[3], UserSeg::When(_, 1)), "{:?}", t.segs);
        // A flag compared, a list compared, `has` on a text: each refused.
        for (text, said) in [
            ("{?terse = on}x{/terse = on}", "compares flag `terse`"),
            ("{?roots = a}x{/roots = a}", "compares list `roots`"),
            ("{?user has a}x{/user has a}", "`user` is not a list"),
        ] {
            let e = user_template(text, &SPEC).unwrap_err();
            assert!(e.message.contains(said), "{text}: {}", e.message);
        }
    }

    #[test]
    fn thousands_of_tags_are_read_in_one_pass() {
        let many = "{user} ".repeat(10_000);
        assert_eq!(user_template(&many, &SPEC).unwrap().segs.len(), 20_000);
        let open = "{?user}".repeat(10_000);
        assert!(err(&open).2.contains("nested"));
        let closes = "{/user}".repeat(10_000);
        assert!(err(&closes).2.contains("closes no open section"));
        // A close's words, however long, are shown cut short.
        let long = format!("{{/{}}}", "a or b ".repeat(100));
        let m = err(&long).2;
        assert!(m.contains("closes no open section") && m.len() < 120, "{m}");
        let m = err(&format!("{{?user}}{long}")).2;
        assert!(m.contains("which is still open") && m.len() < 200, "{m}");
    }
}
