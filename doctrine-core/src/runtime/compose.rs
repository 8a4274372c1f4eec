//! The one composition routine every generated `finish()` calls.

use super::layer::{LayerInfo, Origin, Skip};
use super::prompt::{Prompt, Section, SectionState};

/// One layer's contribution, as resolved by generated code for a given role, choices,
/// flags, knobs, overlay and slots.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    pub info: &'static LayerInfo,
    pub origin: Origin,
    pub body: Body<'a>,
}

/// A layer's text as up to four pieces written back to back (shipped text, knob suffix,
/// overlay separator, overlay text), or the reason it contributes nothing.
#[derive(Clone, Copy, Debug)]
pub enum Body<'a> {
    Skip(Skip),
    Text([&'a str; 4]),
}

impl Body<'_> {
    fn len(&self) -> usize {
        match self {
            Body::Skip(_) => 0,
            Body::Text(pieces) => pieces.iter().map(|p| p.len()).sum(),
        }
    }
}

/// Joins the non-empty parts with `separator`, in order, into one allocation of exactly
/// the composed length.
///
/// `parts` must list every stable layer before every volatile one; manifest validation
/// guarantees this for generated code.
pub fn compose<const N: usize>(separator: &str, parts: [Part<'_>; N]) -> Prompt<N> {
    let mut total = 0;
    let mut count = 0usize;
    for part in &parts {
        let len = part.body.len();
        if len > 0 {
            total += len;
            count += 1;
        }
    }
    total += separator.len() * count.saturating_sub(1);

    let mut text = String::with_capacity(total);
    let mut stable_end = 0;
    let mut volatile_start = None;
    let sections = parts.map(|part| {
        let state = match part.body {
            Body::Skip(skip) => SectionState::Skipped(skip),
            Body::Text(_) if part.body.len() == 0 => SectionState::Skipped(Skip::Empty),
            Body::Text(pieces) => {
                if !text.is_empty() {
                    text.push_str(separator);
                }
                let start = text.len();
                for piece in pieces {
                    text.push_str(piece);
                }
                match part.info.tier {
                    super::layer::Tier::Stable => {
                        debug_assert!(volatile_start.is_none(), "stable layer after volatile");
                        stable_end = text.len();
                    }
                    super::layer::Tier::Volatile => {
                        volatile_start.get_or_insert(start);
                    }
                }
                SectionState::Included {
                    start,
                    end: text.len(),
                }
            }
        };
        Section {
            info: part.info,
            origin: part.origin,
            state,
        }
    });
    debug_assert_eq!(text.len(), total);
    debug_assert_eq!(text.capacity(), total);
    let volatile_start = volatile_start.unwrap_or(text.len());
    Prompt::from_parts(text, stable_end, volatile_start, sections)
}
