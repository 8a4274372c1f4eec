//! `[layer.suffix]`: a line with knob placeholders, appended for some roles.

use super::super::diag::Sink;
use super::super::model::{Segment, Suffix};
use super::super::names::is_snake_ident;
use super::super::raw;
use super::{hint, Names, DEFAULT_JOIN, MAX_SUFFIX_COMBINATIONS};

pub(super) fn suffix(
    raw: &raw::Suffix,
    names: &Names<'_>,
    in_scope: &[usize],
    sink: &mut Sink<'_>,
) -> Option<Suffix> {
    let roles = match &raw.roles {
        Some(list) => {
            let roles = names.roles(list, sink)?;
            for (r, n) in roles.iter().zip(list) {
                if !in_scope.contains(r) {
                    sink.error(
                        Some(n.span()),
                        format!(
                            "suffix role `{}` is outside the layer's `roles`",
                            n.get_ref()
                        ),
                        Some("remove it from the suffix's `roles`".into()),
                    );
                }
            }
            Some(roles)
        }
        None => None,
    };
    let segments = match placeholders(raw.text.get_ref()) {
        Ok(s) => s,
        Err(e) => {
            sink.error(
                Some(raw.text.span()),
                e,
                Some("write `{knob}` for a knob's value and `{{` / `}}` for literal braces".into()),
            );
            return None;
        }
    };
    let mut out = Vec::new();
    let mut combinations = 1usize;
    for seg in segments {
        match seg {
            Piece::Lit(s) => out.push(Segment::Lit(s)),
            Piece::Name(n) => match names.knobs.iter().position(|k| k.name == n) {
                Some(k) => {
                    combinations = combinations.saturating_mul(names.knobs[k].values.len());
                    out.push(Segment::Knob(k));
                }
                None => {
                    sink.error(
                        Some(raw.text.span()),
                        format!("placeholder `{{{n}}}` names no declared knob"),
                        Some(hint(
                            &n,
                            names.knobs.iter().map(|k| k.name.as_str()),
                            "declared knobs",
                        )),
                    );
                    return None;
                }
            },
        }
    }
    if combinations > MAX_SUFFIX_COMBINATIONS {
        sink.error(
            Some(raw.text.span()),
            format!("this suffix has {combinations} knob combinations; at most {MAX_SUFFIX_COMBINATIONS} are precomputed"),
            Some("name fewer knobs in one suffix".into()),
        );
        return None;
    }
    Some(Suffix {
        roles,
        separator: raw
            .separator
            .clone()
            .unwrap_or_else(|| DEFAULT_JOIN.to_string()),
        segments: out,
    })
}

#[derive(Debug, PartialEq, Eq)]
pub enum Piece {
    Lit(String),
    Name(String),
}

/// Splits `text {name} more {{literal}}` into literal and placeholder pieces.
pub fn placeholders(text: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                lit.push('}');
            }
            '{' => {
                let mut name = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => name.push(c),
                        None => return Err(format!("placeholder `{{{name}` is never closed")),
                    }
                }
                if !is_snake_ident(&name) {
                    return Err(format!("`{{{name}}}` is not a placeholder name"));
                }
                if !lit.is_empty() {
                    out.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                out.push(Piece::Name(name));
            }
            '}' => return Err("a lone `}` in text with placeholders".into()),
            c => lit.push(c),
        }
    }
    if !lit.is_empty() {
        out.push(Piece::Lit(lit));
    }
    Ok(out)
}
