//! `[layer.suffix]`: a line with knob placeholders, appended for some roles.

use super::hint::hint;
use super::literal::DEFAULT_JOIN;
use super::names::Names;
use super::placeholder::{placeholders, Piece};
use crate::diag::Sink;
use crate::model::{KnobId, RoleId, Segment, Suffix};
use crate::names::shown;
use crate::raw;
use crate::text::normalise;

/// Suffix texts are precomputed for every combination of the knobs they name.
const MAX_SUFFIX_COMBINATIONS: usize = 1024;

pub(super) fn suffix(
    raw: &raw::Suffix,
    names: &Names<'_>,
    in_scope: &[RoleId],
    sink: &mut Sink<'_>,
) -> Option<Suffix> {
    let roles = match &raw.roles {
        Some(list) if list.is_empty() => {
            sink.error(
                Some(raw.text.span()),
                "the suffix's `roles` is empty, so it is never appended",
                Some(
                    "list the roles it is for, or remove `roles` to append it for every role"
                        .into(),
                ),
            );
            return None;
        }
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
    let segments = match placeholders(&normalise(raw.text.get_ref())) {
        Ok(s) => s,
        Err(e) => {
            let help =
                e.help_or("write `{knob}` for a knob's value and `{{` / `}}` for literal braces");
            sink.error(Some(raw.text.span()), e.message, Some(help));
            return None;
        }
    };
    let mut out = Vec::new();
    let mut used: Vec<KnobId> = Vec::new();
    for seg in segments {
        match seg {
            Piece::Lit(s) => out.push(Segment::Lit(s)),
            Piece::Name(n, _) | Piece::Html(n, _) => {
                match names.knobs.iter().position(|k| k.name == n).map(KnobId) {
                    Some(k) => {
                        if !used.contains(&k) {
                            used.push(k);
                        }
                        out.push(Segment::Knob(k));
                    }
                    // A knob whose declaration failed was reported already.
                    None if names.broken.contains(&n) => return None,
                    None if names.facts.iter().any(|f| f.name == n) => {
                        sink.error(
                            Some(raw.text.span()),
                            format!("`{{{n}}}` is a fact, and a suffix takes knobs only"),
                            Some(
                                "put the fact in the layer's own text with `interpolate = true`"
                                    .into(),
                            ),
                        );
                        return None;
                    }
                    None => {
                        sink.error(
                            Some(raw.text.span()),
                            format!("placeholder `{{{}}}` names no declared knob", shown(&n)),
                            Some(hint(
                                &n,
                                names.knobs.iter().map(|k| k.name.as_str()),
                                "declared knobs",
                            )),
                        );
                        return None;
                    }
                }
            }
            Piece::Open(..)
            | Piece::Count(..)
            | Piece::Loop(..)
            | Piece::Close(..)
            | Piece::When(..) => {
                sink.error(
                    Some(raw.text.span()),
                    "a suffix has no `{?name}` sections: its knobs always have a value",
                    Some(
                        "put the optional text in the layer's own text, with `interpolate = true`"
                            .into(),
                    ),
                );
                return None;
            }
        }
    }
    let combinations = used.iter().fold(1usize, |n, &k| {
        n.saturating_mul(names.knobs[k].values.len())
    });
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
            .as_deref()
            .map_or_else(|| DEFAULT_JOIN.to_string(), normalise),
        segments: out,
    })
}
