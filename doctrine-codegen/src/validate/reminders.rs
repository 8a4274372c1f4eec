//! `[reminders]`: one constant text per kind, the state each kind reads, and the marker.
//! What a runtime reminder channel gets wrong is checked here: a kind reading state that
//! does not exist, a count or a path reaching the text where the manifest did not say so,
//! and a reminder text that also sits in the cached prefix.

use std::collections::{HashMap, HashSet};

use toml::Spanned;

use super::hint::hint;
use super::idents::{check_ident, check_variant};
use super::placeholder::{placeholders, Piece};
use crate::diag::Sink;
use crate::model::{Layer, ReminderBody, ReminderDef, ReminderPiece, Reminders, StateShape, Text};
use crate::names::{camel, shown, snake_ident_problem};
use crate::raw::{self, ReminderText, StateKind};
use crate::text::normalise;
use doctrine_core::introspect::Stability;

/// The state names a hint may offer: not one already refused as a field name.
fn usable(state: &[(String, StateShape)]) -> impl Iterator<Item = &str> + Clone {
    state
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| snake_ident_problem(n).is_none())
}

/// The default marker: what the base doctrine teaches the model to recognise.
const DEFAULT_MARKER: &str = "<system-reminder>\n{text}\n</system-reminder>";
/// The budget bands, as written in the manifest.
const BANDS: [&str; 3] = ["60", "80", "92"];

pub(super) fn reminders(raw: &Spanned<raw::Reminders>, sink: &mut Sink<'_>) -> Option<Reminders> {
    let r = raw.get_ref();
    let mut ok = true;
    let marker = match &r.marker {
        None => Some(split_marker(DEFAULT_MARKER).expect("the default marker has one `{text}`")),
        Some(m) => {
            let split = split_marker(&normalise(m.get_ref()));
            match &split {
                None => sink.error(
                    Some(m.span()),
                    "the reminder marker needs exactly one `{text}`",
                    Some("write where the reminder goes, e.g. `marker = \"<system-reminder>{text}</system-reminder>\"`".into()),
                ),
                // Text inside is kept from closing the marker by an escape written inside
                // each closing text it holds; one character has no inside.
                Some((_, after)) if after.trim().chars().count() == 1 => sink.error(
                    Some(m.span()),
                    format!(
                        "the reminder marker's closing text `{}` is one character, which text inside it could not be kept from writing",
                        shown(after.trim())
                    ),
                    Some("close the marker with two characters or more, e.g. `marker = \"<reminder>{text}</reminder>\"`".into()),
                ),
                Some(_) => {}
            }
            split
        }
    };
    ok &= marker.is_some();
    let mut state = Vec::new();
    for (name, kind) in &r.state {
        ok &= check_ident(
            sink,
            name.span(),
            "reminder state field",
            name.get_ref(),
            "fields of `SessionState`",
        );
        let shape = match kind.get_ref() {
            StateKind::Flag => StateShape::Flag,
            StateKind::List => StateShape::List,
            StateKind::Budget => StateShape::Budget,
        };
        state.push((name.get_ref().clone(), shape));
    }
    if r.kinds.is_empty() {
        sink.error(
            Some(raw.span()),
            "`[reminders]` declares no kind",
            Some("add a `[[reminders.kind]]` with a `name`, the state field it reads (`when`) and its `text`".into()),
        );
        return None;
    }
    let mut kinds: Vec<ReminderDef> = Vec::new();
    // The variants taken so far, which state some kind reads and each state's index: sets
    // and maps, not a scan per kind, which grew with the square of the kinds (21 s at 4,000).
    let mut variants: HashSet<String> = HashSet::new();
    let mut read = vec![false; state.len()];
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, (n, _)) in state.iter().enumerate() {
        by_name.entry(n.as_str()).or_insert(i);
    }
    for k in &r.kinds {
        let k = k.get_ref();
        let name = k.name.get_ref();
        if !check_ident(
            sink,
            k.name.span(),
            "reminder kind",
            name,
            "variants of `ReminderKind`",
        ) || !check_variant(
            sink,
            k.name.span(),
            &format!("reminder kind `{name}`"),
            &camel(name),
        ) {
            ok = false;
            continue;
        }
        if variants.contains(&camel(name)) {
            sink.error(
                Some(k.name.span()),
                format!("reminder kind `{name}` is declared twice"),
                Some("each `[[reminders.kind]]` needs a distinct `name`".into()),
            );
            ok = false;
            continue;
        }
        let Some(&when) = by_name.get(k.when.get_ref().as_str()) else {
            sink.error(
                Some(k.when.span()),
                format!("reminder kind `{name}` reads state `{}`, which `[reminders.state]` does not declare", shown(k.when.get_ref())),
                Some(hint(k.when.get_ref(), usable(&state), "declared state")),
            );
            ok = false;
            continue;
        };
        read[when] = true;
        match body(name, state[when].1, &k.text, &state, sink) {
            Some(body) => {
                variants.insert(camel(name));
                kinds.push(ReminderDef {
                    name: name.clone(),
                    when,
                    body,
                })
            }
            None => ok = false,
        }
    }
    if let Some((_, after)) = &marker {
        ok &= closes_no_text(after.trim(), r, &kinds, sink);
    }
    for (i, (name, _)) in state.iter().enumerate() {
        if ok && !read[i] {
            let span = r
                .state
                .keys()
                .find(|n| n.get_ref() == name)
                .map(Spanned::span);
            sink.error(
                span,
                format!("reminder state `{name}` is read by no kind"),
                Some("remove it, or name it in a kind's `when`".into()),
            );
            ok = false;
        }
    }
    ok.then(|| Reminders {
        marker: marker.unwrap_or_default(),
        state,
        kinds,
    })
}

/// Whether no kind's own text holds the marker's closing text: rendering would escape it
/// every time, with a notice, for a text the manifest could fix now.
fn closes_no_text(
    closer: &str,
    r: &raw::Reminders,
    kinds: &[ReminderDef],
    sink: &mut Sink<'_>,
) -> bool {
    if closer.chars().count() < 2 {
        return true;
    }
    let holds = |t: &str| {
        t.as_bytes()
            .windows(closer.len())
            .any(|w| w.eq_ignore_ascii_case(closer.as_bytes()))
    };
    let mut ok = true;
    for k in kinds {
        let texts: Vec<&str> = match &k.body {
            ReminderBody::Bands(texts) => texts.iter().map(String::as_str).collect(),
            ReminderBody::Text(pieces) => pieces
                .iter()
                .filter_map(|p| match p {
                    ReminderPiece::Text(t) => Some(t.as_str()),
                    ReminderPiece::List(_) => None,
                })
                .collect(),
        };
        if texts.into_iter().any(holds) {
            let span = r
                .kinds
                .iter()
                .find(|raw| raw.get_ref().name.get_ref() == &k.name)
                .map(|raw| raw.get_ref().text.span());
            sink.error(
                span,
                format!(
                    "the text of reminder kind `{}` holds the marker's closing text `{}`",
                    k.name,
                    shown(closer)
                ),
                Some("it would end the reminder early (at run time it is escaped, with a notice, every time): reword the text".into()),
            );
            ok = false;
        }
    }
    ok
}

fn split_marker(marker: &str) -> Option<(String, String)> {
    let (before, after) = marker.split_once("{text}")?;
    (!after.contains("{text}")).then(|| (before.to_string(), after.to_string()))
}

/// A kind's text: one text with list fields in it, or (read from a budget) one per band.
fn body(
    name: &str,
    shape: StateShape,
    text: &Spanned<ReminderText>,
    state: &[(String, StateShape)],
    sink: &mut Sink<'_>,
) -> Option<ReminderBody> {
    let span = text.span();
    match (text.get_ref(), shape) {
        (ReminderText::Bands(bands), StateShape::Budget) => {
            let mut texts: [String; 3] = Default::default();
            let mut ok = true;
            for (band, t) in bands {
                match BANDS.iter().position(|b| b == band.get_ref()) {
                    Some(i) => texts[i] = normalise(t.get_ref()),
                    None => {
                        sink.error(
                            Some(band.span()),
                            format!("`{}` is not a budget band", shown(band.get_ref())),
                            Some(
                                "the bands are `60`, `80` and `92` (percent of the context used)"
                                    .into(),
                            ),
                        );
                        ok = false;
                    }
                }
            }
            let missing: Vec<&str> = BANDS
                .iter()
                .zip(&texts)
                .filter(|(b, t)| t.is_empty() && !bands.keys().any(|k| k.get_ref() == *b))
                .map(|(b, _)| *b)
                .collect();
            if ok && !missing.is_empty() {
                sink.error(
                    Some(span),
                    format!("budget reminder `{name}` has no text for band {}", missing.join(", ")),
                    Some("give each band its text: `text = { 60 = \"...\", 80 = \"...\", 92 = \"...\" }`".into()),
                );
                ok = false;
            }
            if let Some(b) = bands
                .iter()
                .find(|(_, t)| normalise(t.get_ref()).trim().is_empty())
            {
                sink.error(
                    Some(b.1.span()),
                    format!(
                        "budget reminder `{name}` has an empty text for band {}",
                        b.0.get_ref()
                    ),
                    Some("an empty reminder tells the model nothing: write the text".into()),
                );
                ok = false;
            }
            ok.then_some(ReminderBody::Bands(texts))
        }
        (ReminderText::One(_), StateShape::Budget) => {
            sink.error(
                Some(span),
                format!(
                    "reminder kind `{name}` reads a budget, which announces one band at a time"
                ),
                Some(
                    "give a text per band: `text = { 60 = \"...\", 80 = \"...\", 92 = \"...\" }`"
                        .into(),
                ),
            );
            None
        }
        (ReminderText::Bands(_), _) => {
            sink.error(
                Some(span),
                format!("reminder kind `{name}` has texts per band, but its state is not a budget"),
                Some("write one text, or read a `budget` state field".into()),
            );
            None
        }
        (ReminderText::One(t), _) => one_text(name, &normalise(t), span, state, sink),
    }
}

/// A text whose `{field}` placeholders name list fields: the only state whose contents
/// may reach a reminder (a count or a flag would make otherwise identical turns differ).
fn one_text(
    name: &str,
    text: &str,
    span: std::ops::Range<usize>,
    state: &[(String, StateShape)],
    sink: &mut Sink<'_>,
) -> Option<ReminderBody> {
    if text.trim().is_empty() {
        sink.error(
            Some(span),
            format!("reminder kind `{name}` has an empty text"),
            Some("an empty reminder tells the model nothing: write the text".into()),
        );
        return None;
    }
    let pieces = match placeholders(text) {
        Ok(p) => p,
        Err(e) => {
            sink.error(
                Some(span),
                format!("the text of reminder kind `{name}`: {}", e.message),
                Some(e.help_or(
                    "`{field}` prints a list field of the state; `{{` and `}}` print braces",
                )),
            );
            return None;
        }
    };
    let mut out = Vec::new();
    for p in pieces {
        match p {
            Piece::Lit(t) => out.push(ReminderPiece::Text(t)),
            Piece::Name(n, _) | Piece::Html(n, _) => {
                match state.iter().position(|(s, _)| *s == n) {
                    Some(i) if state[i].1 == StateShape::List => out.push(ReminderPiece::List(i)),
                    Some(_) => {
                        sink.error(
                        Some(span.clone()),
                        format!("the text of reminder kind `{name}` prints `{{{n}}}`, which is not a list"),
                        Some("only a list's items may reach a reminder's text; a flag or a band fires the reminder and is not printed".into()),
                    );
                        return None;
                    }
                    None => {
                        sink.error(
                        Some(span.clone()),
                        format!("the text of reminder kind `{name}` prints `{{{n}}}`, which `[reminders.state]` does not declare"),
                        Some(hint(&n, usable(state), "declared state")),
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
                    Some(span.clone()),
                    format!("the text of reminder kind `{name}` has a section"),
                    Some(
                        "a reminder is one constant text: write a second kind for the other case"
                            .into(),
                    ),
                );
                return None;
            }
        }
    }
    Some(ReminderBody::Text(out))
}

/// A reminder text that also sits in a stable layer would reach the cached prefix, where
/// a reminder is exactly what must not be.
pub(super) fn check_not_in_prefix(
    raw: &Spanned<raw::Reminders>,
    reminders: &Reminders,
    layers: &[(Spanned<()>, Layer)],
    texts: &[Text],
    sink: &mut Sink<'_>,
) {
    for (k, spanned) in reminders.kinds.iter().zip(&raw.get_ref().kinds) {
        let constant: Vec<String> = match &k.body {
            ReminderBody::Bands(b) => b.iter().map(|t| t.trim().to_string()).collect(),
            ReminderBody::Text(pieces) => pieces
                .iter()
                .filter_map(|p| match p {
                    ReminderPiece::Text(t) => Some(t.trim().to_string()),
                    ReminderPiece::List(_) => None,
                })
                .collect(),
        };
        // Compared without case, spacing or a closing stop; short literal pieces ("." or
        // ", ") would match anything.
        let constant: Vec<String> = constant
            .iter()
            .map(|t| fold(t).trim_end_matches(['.', '!', '?']).to_string())
            .filter(|t| t.chars().count() >= 12)
            .collect();
        for (_, layer) in layers.iter().filter(|(_, l)| l.tier == Stability::Stable) {
            let inside = layer
                .content
                .text_ids()
                .into_iter()
                .map(|t| fold(&texts[t].body))
                .any(|body| constant.iter().any(|c| body.contains(c.as_str())));
            if inside {
                sink.error(
                    Some(spanned.get_ref().text.span()),
                    format!("the text of reminder kind `{}` is also in stable layer `{}`", k.name, layer.name),
                    Some("a reminder is appended to a turn, never part of the cached prefix: remove it from the layer, or make the layer volatile".into()),
                );
                break;
            }
        }
    }
}

/// Text as compared: case and invisible characters folded (as overlay file names are),
/// runs of whitespace made one space.
fn fold(text: &str) -> String {
    doctrine_load::__internals::text::fold(text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
