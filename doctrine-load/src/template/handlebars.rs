//! `placeholders = "handlebars"`: a `.hbs` file read as its authors wrote it. `{{x}}`
//! prints a value escaped as handlebars escapes HTML and `{{{x}}}` as given;
//! `{{#if …}}`, `{{#unless …}}`, `{{else}}`, `{{else if …}}` and `{{#each list}}` become
//! the braces reader's sections and loops (a condition's subexpressions, `(or a b)`,
//! `(and a b)`, `(not a)`, `(eq x "v")`, `(has list "v")`, its words); `{{! … }}` and
//! `{{!-- … --}}` are dropped; and a line holding one block tag or comment and blanks is
//! left out whole, as handlebars leaves it, so no other whitespace rule applies.

use super::{NameCheck, Piece, Reader, TemplateError};
use crate::text::shown;

/// The most mistakes reported in one text.
const MAX_ERRORS: usize = 16;

/// Splits `text` into pieces; `is_list` tells which names are list facts, so a
/// mustache-style `{{#name}}` loops over a list and is a section on anything else.
pub fn handlebars(
    text: &str,
    is_list: &dyn Fn(&str) -> bool,
    check: NameCheck,
) -> Result<Vec<Piece>, Vec<TemplateError>> {
    let mut reader = Reader::new(false, check);
    let mut blocks: Vec<Block> = Vec::new();
    // Every mistake is reported, not only the first: a tag that does not read is left
    // out, and a block whose opening tag did not read still takes its `else` and close.
    let mut errors: Vec<TemplateError> = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find("{{") {
        let at = from + found;
        reader.lit.push_str(&text[from..at]);
        // A tag with no end: nothing after it reads as tags.
        let (inner, end, kind) = match tag_at(text, at) {
            Ok(t) => t,
            Err(e) => {
                errors.push(e);
                from = text.len();
                break;
            }
        };
        let block = match kind {
            Kind::Comment => true,
            Kind::Raw => false,
            Kind::Value => {
                let t = inner.trim();
                t.starts_with(['#', '/', '^', '>']) || t == "else" || t.starts_with("else ")
            }
        };
        let standalone = block && alone_on_line(text, at, end);
        let mut next = end;
        if standalone {
            // The line goes: its blanks before the tag, and after it up to its line break.
            let keep = reader.lit.trim_end_matches([' ', '\t']).len();
            reader.lit.truncate(keep);
            next = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
        }
        let fail = |message: String, help: &str| TemplateError {
            at,
            message,
            help: Some(help.to_string()),
        };
        let read = (|| -> Result<(), TemplateError> {
            match kind {
                Kind::Comment => {}
                Kind::Raw => reader.tag(&path(inner, at, &blocks)?, at)?,
                Kind::Value => {
                    let inner = inner.trim();
                    match inner.chars().next() {
                        Some('#') => {
                            open(&mut reader, &mut blocks, inner[1..].trim(), at, is_list)?
                        }
                        Some('^') if inner.len() > 1 => {
                            let name = path(inner[1..].trim(), at, &blocks)?;
                            reader.tag(&format!("?!{name}"), at)?;
                            blocks.push(Block::new(Helper::Inverse(name.clone()), name));
                        }
                        Some('^') => otherwise(&mut reader, &mut blocks, None, at)?,
                        Some('/') => close(&mut reader, &mut blocks, inner[1..].trim(), at)?,
                        Some('>') => {
                            return Err(fail(
                                format!(
                                    "partial `{{{{{}}}}}`: another file is not read into this one",
                                    shown(inner)
                                ),
                                "put the other file in a layer of its own",
                            ))
                        }
                        Some('&') => reader.tag(&path(inner[1..].trim(), at, &blocks)?, at)?,
                        _ if inner == "else" => otherwise(&mut reader, &mut blocks, None, at)?,
                        _ if inner.starts_with("else ") => {
                            let rest = inner["else ".len()..].trim();
                            let Some(test) = rest.strip_prefix("if ") else {
                                return Err(fail(
                                    format!(
                                        "`{{{{{}}}}}`: only `{{{{else if …}}}}` chains here",
                                        shown(inner)
                                    ),
                                    "write `{{else}}`, or `{{else if condition}}`",
                                ));
                            };
                            let words = condition(test.trim(), at, &blocks)?;
                            otherwise(&mut reader, &mut blocks, Some(words), at)?;
                        }
                        _ => reader.html(&path(inner, at, &blocks)?, at)?,
                    }
                }
            }
            Ok(())
        })();
        if let Err(e) = read {
            // An opening tag that did not read stands for its block all the same.
            if let Some(b) = broken(kind, inner.trim(), at, &blocks) {
                blocks.push(b);
            }
            errors.push(e);
            // Enough to fix at once; a text of thousands of the same mistake is not
            // reported thousands of times.
            if errors.len() == MAX_ERRORS {
                return Err(errors);
            }
        }
        from = next;
    }
    reader.lit.push_str(&text[from..]);
    let unclosed = blocks.iter().rev().find(|b| !b.broken);
    if let Some(b) = unclosed.filter(|_| errors.len() < MAX_ERRORS) {
        errors.push(TemplateError {
            at: b.at,
            message: format!("`{{{{#{}}}}}` is never closed", b.helper.written()),
            help: Some(format!("add `{{{{/{}}}}}`", b.helper.closer())),
        });
    }
    match errors.is_empty() {
        true => reader.finish().map_err(|e| vec![e]),
        false => Err(errors),
    }
}

/// The block an opening tag that did not read (`{{#…}}`, `{{^name}}`) stands for, so its
/// `else` and close read without an error of their own; none for any other tag, or one
/// that read as far as opening its block.
fn broken(kind: Kind, inner: &str, at: usize, blocks: &[Block]) -> Option<Block> {
    if kind != Kind::Value || blocks.last().is_some_and(|b| b.at == at) {
        return None;
    }
    let rest = inner
        .strip_prefix('#')
        .or_else(|| inner.strip_prefix('^'))?
        .trim();
    let name = rest.split(char::is_whitespace).next().unwrap_or(rest);
    let helper = match name {
        "if" => Helper::If(String::new()),
        "unless" => Helper::Unless(String::new()),
        "each" => Helper::Each(String::new()),
        n => Helper::Section(n.to_string(), false),
    };
    Some(Block {
        broken: true,
        at,
        ..Block::new(helper, String::new())
    })
}

/// What a `{{…}}` is, by its delimiters.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `{{x}}` and every block tag: what is inside decides.
    Value,
    /// `{{{x}}}`.
    Raw,
    /// `{{! … }}`, `{{!-- … --}}`.
    Comment,
}

/// The tag at `at`: what is inside its delimiters, where it ends, and its kind.
fn tag_at(text: &str, at: usize) -> Result<(&str, usize, Kind), TemplateError> {
    let rest = &text[at..];
    let (open, close, kind) = if rest.starts_with("{{!--") {
        (5, "--}}", Kind::Comment)
    } else if rest.starts_with("{{!") {
        (3, "}}", Kind::Comment)
    } else if rest.starts_with("{{{") {
        (3, "}}}", Kind::Raw)
    } else {
        (2, "}}", Kind::Value)
    };
    let start = at + open;
    let Some(len) = text[start..].find(close) else {
        return Err(TemplateError::new(
            at,
            format!("`{}` is never closed (add `{close}`)", shown(&rest[..open])),
        ));
    };
    let inner = &text[start..start + len];
    if kind != Kind::Comment && inner.contains('\n') {
        let line = shown(rest.lines().next().unwrap_or_default());
        return Err(TemplateError::new(
            at,
            format!("tag `{line}` runs past its line (close it with `{close}` on its line)"),
        ));
    }
    if kind != Kind::Comment && (inner.starts_with('~') || inner.ends_with('~')) {
        return Err(TemplateError {
            at,
            message: format!("`~` in `{}`: whitespace control is not read here", shown(&rest[..open + len + close.len()])),
            help: Some("remove the `~` and the whitespace it would remove from the text around the tag; a tag alone on its line already takes the line".into()),
        });
    }
    Ok((inner, start + len + close.len(), kind))
}

/// Whether the tag from `at` to `end` is the only thing on its line but blanks.
fn alone_on_line(text: &str, at: usize, end: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let blank = |s: &str| s.bytes().all(|b| b == b' ' || b == b'\t' || b == b'\r');
    blank(&text[line_start..at]) && blank(&text[end..line_end])
}

/// A block helper left open.
struct Block {
    helper: Helper,
    /// What closes each section it opened, innermost last: its test's words, and one more
    /// for each `{{else if …}}`.
    closes: Vec<String>,
    /// Whether its `{{else}}` was met (a second one is an error).
    otherwise: bool,
    at: usize,
    /// Its opening tag did not read (reported): its `else` and close are taken quietly.
    broken: bool,
}

impl Block {
    fn new(helper: Helper, close: String) -> Self {
        Block {
            helper,
            closes: vec![close],
            otherwise: false,
            at: 0,
            broken: false,
        }
    }
}

enum Helper {
    If(String),
    Unless(String),
    Each(String),
    /// A mustache-style `{{#name}}`: a loop over a list, a section on anything else.
    Section(String, bool),
    Inverse(String),
}

impl Helper {
    /// The name its close names: `if`, `unless`, `each`, or the section's.
    fn closer(&self) -> &str {
        match self {
            Helper::If(_) => "if",
            Helper::Unless(_) => "unless",
            Helper::Each(_) => "each",
            Helper::Section(n, _) | Helper::Inverse(n) => n,
        }
    }

    fn written(&self) -> String {
        match self {
            Helper::If(t) => format!("if {t}"),
            Helper::Unless(t) => format!("unless {t}"),
            Helper::Each(l) => format!("each {l}"),
            Helper::Section(n, _) | Helper::Inverse(n) => n.clone(),
        }
    }
}

/// `{{#…}}`: `if`, `unless`, `each`, or a mustache-style section.
fn open(
    reader: &mut Reader,
    blocks: &mut Vec<Block>,
    inner: &str,
    at: usize,
    is_list: &dyn Fn(&str) -> bool,
) -> Result<(), TemplateError> {
    let (helper, rest) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    let rest = rest.trim();
    let (tag, block) = match helper {
        "if" | "unless" => {
            let words = condition(rest, at, blocks)?;
            let negate = if helper == "unless" { "!" } else { "" };
            let tag = format!("?{negate}{words}");
            let h = match helper {
                "if" => Helper::If(rest.to_string()),
                _ => Helper::Unless(rest.to_string()),
            };
            (tag, Block::new(h, words))
        }
        "each" => {
            if blocks.iter().any(|b| matches!(b.helper, Helper::Each(_)))
                || blocks.iter().any(|b| matches!(b.helper, Helper::Section(_, true)))
            {
                return Err(refuse(at, "an `{{#each}}` inside another: loops do not nest", "close the outer loop first, or give its items a text field that holds the inner list printed"));
            }
            if rest.is_empty() {
                return Err(refuse(at, "`{{#each}}` names no list", "write `{{#each list}}`"));
            }
            if rest.contains(char::is_whitespace) {
                return Err(refuse(at, &format!("`{{{{#each {}}}}}` takes one list here (no `as |x|`, no hash)", shown(rest)), "write `{{#each list}}` and name the fields inside it"));
            }
            let list = path(rest, at, blocks)?;
            (format!("#{list}"), Block::new(Helper::Each(list.clone()), list))
        }
        "with" | "lookup" | "log" => {
            return Err(refuse(at, &format!("`{{{{#{helper}}}}}` is not read here"), "print the fields by name (`{{field}}`), or flatten them into facts"))
        }
        name if rest.is_empty() && !name.contains(['(', '.', '@']) => {
            let list = is_list(name);
            let tag = if list { format!("#{name}") } else { format!("?{name}") };
            (tag, Block::new(Helper::Section(name.to_string(), list), name.to_string()))
        }
        name => {
            return Err(refuse(at, &format!("block helper `{}` is not read here", shown(name)), "use `{{#if …}}`, `{{#unless …}}` or `{{#each list}}`; a helper of your own is Rust's to compute: give its result as a fact or flag"))
        }
    };
    reader.tag(&tag, at)?;
    blocks.push(Block { at, ..block });
    Ok(())
}

/// `{{else}}` (`words`: `None`) or `{{else if words}}`: the innermost test's section closes
/// and its negation opens, the chained test's section inside it.
fn otherwise(
    reader: &mut Reader,
    blocks: &mut [Block],
    words: Option<String>,
    at: usize,
) -> Result<(), TemplateError> {
    let Some(block) = blocks.last_mut() else {
        return Err(refuse(
            at,
            "`{{else}}` outside a block",
            "an `{{else}}` stands inside `{{#if}}`, `{{#unless}}` or `{{#each}}`",
        ));
    };
    if block.broken {
        return Ok(());
    }
    if block.otherwise {
        return Err(refuse(
            at,
            &format!(
                "a second `{{{{else}}}}` in `{{{{#{}}}}}`",
                shown(&block.helper.written())
            ),
            "a block has one `{{else}}`; chain with `{{else if …}}` before it",
        ));
    }
    if words.is_some() && matches!(block.helper, Helper::Each(_) | Helper::Section(_, true)) {
        return Err(refuse(
            at,
            "`{{else if …}}` in a loop",
            "a loop's `{{else}}` prints when the list is empty; put the test inside it",
        ));
    }
    let last = block.closes.last().cloned().unwrap_or_default();
    // `unless` opened the negation; its `else` is the test itself.
    let negated_first =
        matches!(block.helper, Helper::Unless(_) | Helper::Inverse(_)) && block.closes.len() == 1;
    reader.tag(&format!("/{last}"), at)?;
    let bang = if negated_first { "" } else { "!" };
    reader.tag(&format!("?{bang}{last}"), at)?;
    match words {
        Some(w) => {
            reader.tag(&format!("?{w}"), at)?;
            block.closes.push(w);
        }
        None => block.otherwise = true,
    }
    Ok(())
}

/// `{{/name}}`: the innermost block, if `name` is its helper's, and every section its
/// chain opened.
fn close(
    reader: &mut Reader,
    blocks: &mut Vec<Block>,
    name: &str,
    at: usize,
) -> Result<(), TemplateError> {
    let Some(block) = blocks.pop() else {
        return Err(TemplateError::new(
            at,
            format!("`{{{{/{}}}}}` closes no open block", shown(name)),
        ));
    };
    if block.broken {
        return Ok(());
    }
    if block.helper.closer() != name {
        return Err(TemplateError {
            at,
            message: format!(
                "`{{{{/{}}}}}` closes `{{{{#{}}}}}`, which needs `{{{{/{}}}}}`",
                shown(name),
                shown(&block.helper.written()),
                block.helper.closer()
            ),
            help: Some("close the innermost block first".into()),
        });
    }
    // An `else` of a loop opened a section on the list, closed by the list's name too.
    for words in block.closes.iter().rev() {
        reader.tag(&format!("/{words}"), at)?;
    }
    Ok(())
}

/// A value's path as the braces reader names it: `this` and `.` the loop's item,
/// `this.field` a field; what cannot be read here is an error naming what to write.
fn path(path: &str, at: usize, blocks: &[Block]) -> Result<String, TemplateError> {
    let in_each = blocks
        .iter()
        .any(|b| matches!(b.helper, Helper::Each(_) | Helper::Section(_, true)));
    let p = path.trim();
    if p == "this" || p == "." {
        return Ok(".".into());
    }
    if let Some(field) = p.strip_prefix("this.").or_else(|| p.strip_prefix("./")) {
        return Ok(field.to_string());
    }
    let (message, help) = if p.starts_with('@') {
        (
            format!("`{}` is not read here", shown(p)),
            match p {
                "@index" | "@first" | "@last" | "@key" => "doctrine numbers and separates items by the list's `item` template and `join`: print the list with `{{list}}` and its `item`, or count with `{{#if list:one}}`",
                _ => "print a fact by its name",
            },
        )
    } else if p.starts_with("../") {
        (
            format!("`{}` reads outside the loop", shown(p)),
            if in_each {
                "inside a loop only the item's fields print: print the fact before or after the loop"
            } else {
                "print the fact by its name"
            },
        )
    } else if p.starts_with('(') {
        (
            format!("a subexpression `{}` where a value prints", shown(p)),
            "subexpressions stand in `{{#if …}}` and `{{#unless …}}`; print a value by its name",
        )
    } else if p.contains('.') || p.contains('/') {
        // `outer.field`: a nested field of the loop's item, which its fields resolve.
        let nested = p.split('.').count() == 2 && !p.contains('/');
        if nested && in_each {
            return Ok(p.to_string());
        }
        (
            format!("the path `{}` reads a field of a field", shown(p)),
            match in_each {
                true => "a nested struct's field is `outer.field`, one level deep: flatten a deeper value into a field of its own",
                false => "a path `outer.field` reads a nested field of a loop's item, inside `{{#each list}}`; outside a loop, print a fact by its name",
            },
        )
    } else if p.contains(char::is_whitespace) {
        (
            format!("`{}` calls a helper", shown(p)),
            "a helper of your own is Rust's to compute: give its result as a fact",
        )
    } else {
        return Ok(p.to_string());
    };
    Err(TemplateError {
        at,
        message,
        help: Some(help.into()),
    })
}

/// The words of a condition in the braces grammar, from an `if`'s test: a path or a
/// subexpression of `or`, `and`, `not`, `eq`, `ne` and `has`.
fn condition(test: &str, at: usize, blocks: &[Block]) -> Result<String, TemplateError> {
    if test.is_empty() {
        return Err(refuse(
            at,
            "an `{{#if}}` with nothing to test",
            "write `{{#if name}}` or `{{#if (or a b)}}`",
        ));
    }
    let tokens = sexp_tokens(test).map_err(|m| {
        refuse(
            at,
            &format!("`{}`: {m}", shown(test)),
            "close each `(` and quote",
        )
    })?;
    let mut i = 0;
    let words = term(&tokens, &mut i, at, blocks, 0)?;
    if i != tokens.len() {
        return Err(refuse(
            at,
            &format!("`{}` tests more than one value", shown(test)),
            "join them: `(and a b)`, `(or a b)`",
        ));
    }
    Ok(words)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok<'a> {
    Open,
    Close,
    Word(&'a str),
    Str(&'a str),
}

fn sexp_tokens(s: &str) -> Result<Vec<Tok<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = s;
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else {
            return Ok(out);
        };
        let len = match c {
            '(' => {
                out.push(Tok::Open);
                1
            }
            ')' => {
                out.push(Tok::Close);
                1
            }
            '"' | '\'' => {
                let end = rest[1..]
                    .find(c)
                    .ok_or_else(|| format!("a `{c}` is never closed"))?;
                out.push(Tok::Str(&rest[1..1 + end]));
                end + 2
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\''))
                    .unwrap_or(rest.len());
                out.push(Tok::Word(&rest[..end]));
                end
            }
        };
        rest = &rest[len..];
    }
}

/// One term of a test, as braces words (grouped in parentheses where it holds more than one).
fn term(
    toks: &[Tok<'_>],
    i: &mut usize,
    at: usize,
    blocks: &[Block],
    depth: usize,
) -> Result<String, TemplateError> {
    if depth > super::condition::MAX_DEPTH {
        return Err(refuse(
            at,
            "subexpressions nest too deep",
            "compute a flag in Rust",
        ));
    }
    match toks.get(*i) {
        Some(Tok::Word(w)) => {
            *i += 1;
            let name = path(w, at, blocks)?;
            if name == "." {
                return Err(refuse(
                    at,
                    "a test of `this`",
                    "test the list before the loop (`{{#if list}}`), or a field of the item",
                ));
            }
            if matches!(name.as_str(), "and" | "or" | "not" | "has") {
                return Err(refuse(
                    at,
                    &format!("`{name}` as a value's name"),
                    "rename the fact; `and`, `or`, `not` and `has` are a condition's words",
                ));
            }
            Ok(name)
        }
        Some(Tok::Open) => {
            *i += 1;
            let Some(Tok::Word(helper)) = toks.get(*i) else {
                return Err(refuse(at, "a subexpression without a helper", "write `(or a b)`, `(and a b)`, `(not a)`, `(eq x \"v\")` or `(has list \"v\")`"));
            };
            let helper = *helper;
            *i += 1;
            let mut args = Vec::new();
            let mut strings = Vec::new();
            loop {
                match toks.get(*i) {
                    Some(Tok::Close) => {
                        *i += 1;
                        break;
                    }
                    Some(Tok::Str(s)) => {
                        strings.push((args.len(), *s));
                        args.push(String::new());
                        *i += 1;
                    }
                    Some(_) => args.push(term(toks, i, at, blocks, depth + 1)?),
                    None => return Err(refuse(at, "a `(` is never closed", "close it with `)`")),
                }
            }
            let quoted = |s: &str| match s.contains('"') {
                true => format!("'{s}'"),
                false => format!("\"{s}\""),
            };
            let value_of = |k: usize| strings.iter().find(|(j, _)| *j == k).map(|(_, s)| *s);
            let arity = |n: usize| args.len() == n;
            let words = match helper {
                "or" | "and" if args.len() >= 2 && strings.is_empty() => format!("({})", args.join(&format!(" {helper} "))),
                "not" if arity(1) && strings.is_empty() => format!("not {}", args[0]),
                "eq" | "ne" if arity(2) && value_of(1).is_some_and(|v| !v.is_empty()) && value_of(0).is_none() => {
                    let test = format!("{} = {}", args[0], quoted(value_of(1).unwrap_or_default()));
                    match helper {
                        "eq" => format!("({test})"),
                        _ => format!("not ({test})"),
                    }
                }
                "has" if arity(2) && value_of(1).is_some_and(|v| !v.is_empty()) && value_of(0).is_none() => {
                    format!("({} has {})", args[0], quoted(value_of(1).unwrap_or_default()))
                }
                "or" | "and" | "not" | "eq" | "ne" | "has" => {
                    return Err(refuse(at, &format!("`({helper} …)` takes other arguments here"), "write `(or a b)`, `(and a b)`, `(not a)`, `(eq name \"value\")`, `(ne name \"value\")` or `(has list \"value\")`"))
                }
                other => {
                    return Err(refuse(at, &format!("helper `{}` in a test", shown(other)), "the tests read here are `or`, `and`, `not`, `eq`, `ne` and `has` (whether a list holds a value); a helper of your own is Rust's to compute: give its result as a flag"))
                }
            };
            Ok(words)
        }
        Some(Tok::Str(_)) => Err(refuse(
            at,
            "a quoted value where a name to test belongs",
            "test a name, or compare one: `(eq name \"value\")`",
        )),
        Some(Tok::Close) | None => Err(refuse(
            at,
            "a test is missing",
            "write a name or a subexpression",
        )),
    }
}

fn refuse(at: usize, message: &str, help: &str) -> TemplateError {
    TemplateError {
        at,
        message: message.to_string(),
        help: Some(help.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{placeholders, shaped, Cond};
    use super::*;

    fn lists(name: &str) -> bool {
        matches!(name, "tools" | "roots")
    }

    /// The pieces, or the first mistake.
    fn read(text: &str) -> Result<Vec<Piece>, TemplateError> {
        handlebars(text, &lists, shaped).map_err(|e| e.into_iter().next().unwrap())
    }

    /// The handlebars text reads as the braces text does, offsets aside (an escaped
    /// value as `Html`).
    fn same(hbs: &str, braces: &str) {
        let strip = |pieces: Vec<Piece>| -> Vec<Piece> {
            pieces
                .into_iter()
                .map(|p| match p {
                    Piece::Name(n, _) => Piece::Name(n, 0),
                    Piece::Html(n, _) => Piece::Name(format!("html:{n}"), 0),
                    Piece::Open(n, neg, _) => Piece::Open(n, neg, 0),
                    Piece::Count(n, c, neg, _) => Piece::Count(n, c, neg, 0),
                    Piece::Loop(n, _) => Piece::Loop(n, 0),
                    Piece::Close(n, _) => Piece::Close(n, 0),
                    Piece::When(c, w, _) => Piece::When(c, w, 0),
                    lit => lit,
                })
                .collect()
        };
        let braces = strip(placeholders(braces, shaped).unwrap());
        assert_eq!(strip(read(hbs).unwrap()), braces, "{hbs}");
    }

    #[test]
    fn blocks_read_as_sections_and_loops() {
        same("{{{a}}} {{& a}} {x}", "{a} {a} {{x}}");
        same("{{#if a}}A{{else}}B{{/if}}", "{?a}A{/a}{?!a}B{/a}");
        same("{{#unless a}}A{{else}}B{{/unless}}", "{?!a}A{/a}{?a}B{/a}");
        same(
            "{{#if a}}A{{else if b}}B{{else}}C{{/if}}",
            "{?a}A{/a}{?!a}{?b}B{/b}{?!b}C{/b}{/a}",
        );
        same(
            "{{#each tools}}{{{this}}}{{{name}}}{{else}}none{{/each}}",
            "{#tools}{.}{name}{/tools}{?!tools}none{/tools}",
        );
        same(
            "{{#tools}}{{{.}}}{{/tools}}{{#ci}}CI{{/ci}}{{^ci}}local{{/ci}}",
            "{#tools}{.}{/tools}{?ci}CI{/ci}{?!ci}local{/ci}",
        );
        same(
            "{{#if (or has_rules (and user (not ci)))}}R{{/if}}",
            "{?(has_rules or (user and not ci))}R{/(has_rules or (user and not ci))}",
        );
        same(
            "{{#if (eq mode \"plan\")}}P{{/if}}{{#unless (has tools 'grep')}}G{{/unless}}",
            "{?(mode = \"plan\")}P{/(mode = \"plan\")}{?!(tools has \"grep\")}G{/(tools has \"grep\")}",
        );
        same("{{! a note }}x{{!-- {{not}} a tag --}}y", "xy");
    }

    #[test]
    fn a_block_tag_or_comment_alone_on_its_line_takes_the_line() {
        same(
            "A\n  {{#if a}}\nB\n  {{else}}  \nC\n{{/if}}\n{{! note }}\nD {{#if a}}x{{/if}}\n",
            "A\n{?a}B\n{/a}{?!a}C\n{/a}D {?a}x{/a}\n",
        );
        // A value's tag is never standalone.
        same("{{{a}}}\n", "{a}\n");
    }

    #[test]
    fn a_double_stash_is_escaped_and_a_triple_one_is_not() {
        let p = read("{{a}} {{{a}}} {{ this.b }}").unwrap();
        assert_eq!(
            p,
            vec![
                Piece::Html("a".into(), 0),
                Piece::Lit(" ".into()),
                Piece::Name("a".into(), 6),
                Piece::Lit(" ".into()),
                Piece::Html("b".into(), 14),
            ]
        );
    }

    #[test]
    fn a_nested_field_reads_inside_a_loop() {
        same(
            "{{#each tools}}{{#if rules.kind}}{{{rules.path}}}{{{this.rules.kind}}}{{/if}}{{/each}}",
            "{#tools}{?rules.kind}{rules.path}{rules.kind}{/rules.kind}{/tools}",
        );
        same(
            "{{#each tools}}{{#if (eq rules.kind \"x\")}}X{{/if}}{{/each}}",
            "{#tools}{?(rules.kind = \"x\")}X{/(rules.kind = \"x\")}{/tools}",
        );
    }

    #[test]
    fn a_condition_is_one_section() {
        let p = read("{{#if (or a b)}}x{{/if}}").unwrap();
        assert!(matches!(&p[0], Piece::When(Cond::Any(_), _, 0)), "{p:?}");
    }

    #[test]
    fn what_is_not_read_is_an_error_naming_what_to_write() {
        for (text, says) in [
            ("{{> other}}", "partial"),
            ("{{#with a}}{{/with}}", "`{{#with}}` is not read here"),
            ("{{@index}}", "`@index` is not read here"),
            ("{{#each tools}}{{../x}}{{/each}}", "reads outside the loop"),
            ("{{a.b}}", "a field of a field"),
            ("{{#each tools}}{{a.b.c}}{{/each}}", "one level deep"),
            ("{{#if a.b}}{{/if}}", "inside `{{#each list}}`"),
            (
                "{{#if (has_tool 'grep')}}{{/if}}",
                "helper `has_tool` in a test",
            ),
            ("{{#if a}}{{/each}}", "needs `{{/if}}`"),
            ("{{else}}", "outside a block"),
            ("{{#if a}}{{else}}{{else}}{{/if}}", "a second `{{else}}`"),
            ("{{#if a}}", "never closed"),
            ("{{~a}}", "whitespace control"),
            (
                "{{#each tools}}{{#each roots}}{{/each}}{{/each}}",
                "loops do not nest",
            ),
            ("{{#if a b}}{{/if}}", "tests more than one value"),
            ("{{#if (eq a)}}{{/if}}", "takes other arguments"),
            ("{{a", "never closed"),
            ("{{format a}}", "calls a helper"),
        ] {
            let e = read(text).unwrap_err();
            let all = format!("{} {}", e.message, e.help.clone().unwrap_or_default());
            assert!(all.contains(says), "{text}: {all}");
        }
        // `{{else}}` is never a name, let alone a Rust keyword.
        let e = read("{{else}}").unwrap_err();
        assert!(!e.message.contains("keyword"), "{}", e.message);
        // Nested past the limit: a bounded number of errors, one pass.
        let deep = "{{#if a}}".repeat(100_000);
        let errors = handlebars(&deep, &lists, shaped).unwrap_err();
        assert_eq!(errors.len(), MAX_ERRORS);
        // Fifteen mistakes, a tag never closed, a block never closed: still the cap.
        let text = format!("{}{{{{#if a}}}}{{{{{{", "{{@index}}".repeat(15));
        let errors = handlebars(&text, &lists, shaped).unwrap_err();
        assert_eq!(errors.len(), MAX_ERRORS, "{errors:?}");
    }

    #[test]
    fn every_mistake_in_a_text_is_reported_once_where_it_stands() {
        let text = "{{#with a}}x{{else}}y{{/with}}\n{{@index}}\n\
                    {{#if (mine a)}}y{{else}}z{{/if}}\n{{#if ok}}{{> p}}{{/if}}\n{{#each}}";
        let errors = handlebars(text, &lists, shaped).unwrap_err();
        let at: Vec<(usize, &str)> = errors
            .iter()
            .map(|e| (e.at, &text[e.at..e.at + 4]))
            .collect();
        // `#with`, `@index`, the helper `mine`, the partial, the bare `#each`; the
        // `else` and close of the blocks that did not open say nothing more.
        assert_eq!(
            at,
            [
                (0, "{{#w"),
                (31, "{{@i"),
                (42, "{{#i"),
                (86, "{{> "),
                (101, "{{#e")
            ],
            "{errors:?}"
        );
        assert!(errors[4].message.contains("names no list"), "{errors:?}");
    }
}
