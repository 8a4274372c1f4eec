//! `[formulation]`: how titled sections are delimited per model family, and whether
//! section boundaries in run-time text are escaped.

use crate::diag::Sink;
use crate::model::{Formulations, Guarding};
use crate::raw::{Escape, FamilyMatch, FormulationTable, Manifest, Name};

/// Without a `[formulation]` table: Markdown for every family, boundaries escaped.
pub(super) fn absent() -> Formulations {
    Formulations {
        default: doctrine_core::input::Formulation::Markdown,
        families: Vec::new(),
        exact: false,
        guard: Guarding::Locked,
    }
}

/// The manifest's formulation table. Keys are compared with a trimmed family name,
/// ignoring ASCII case, so a key with capitals or spaces could never match.
pub(super) fn formulation(
    raw: &Manifest,
    table: &FormulationTable,
    sink: &mut Sink<'_>,
) -> Formulations {
    for key in table.families.keys() {
        lowercase_key(
            key,
            ["family", "families"],
            "a model family, e.g. `claude`",
            sink,
        );
    }
    Formulations {
        default: table.default.map_or(
            doctrine_core::input::Formulation::Markdown,
            doctrine_core::input::Formulation::from,
        ),
        families: table
            .families
            .iter()
            .map(|(k, v)| (k.get_ref().clone(), (*v).into()))
            .collect(),
        exact: table
            .match_
            .as_ref()
            .is_some_and(|m| *m.get_ref() == FamilyMatch::Exact),
        guard: escape(raw, table, sink),
    }
}

/// A key of `[formulation] families` or `[models] rules`, which model names are trimmed and
/// compared with in lowercase: one with capitals or spaces could never match.
pub(super) fn lowercase_key(
    key: &Name,
    [what, plural]: [&str; 2],
    example: &str,
    sink: &mut Sink<'_>,
) {
    let k = key.get_ref();
    let fixed = k.trim().to_ascii_lowercase();
    if *k != fixed || k.is_empty() {
        sink.error(
            Some(key.span()),
            format!("{what} `{k}` can never match: {plural} are trimmed and compared in lowercase"),
            Some(match fixed.is_empty() {
                true => format!("name {example}"),
                false => format!("write `{fixed}`"),
            }),
        );
    }
}

/// `escape`: where locked layers can be reached unless `boundaries` (everywhere) or
/// `none`, which a manifest with a locked layer may not say (a locked layer's section must
/// not be one that run-time text can write).
fn escape(raw: &Manifest, table: &FormulationTable, sink: &mut Sink<'_>) -> Guarding {
    let none = match table.escape.as_ref() {
        None => return Guarding::Locked,
        Some(e) => match e.get_ref() {
            Escape::Locked => return Guarding::Locked,
            Escape::Boundaries => return Guarding::Everywhere,
            Escape::None => e,
        },
    };
    let locked = raw.layers.iter().find(|l| {
        let l = l.get_ref();
        l.locked.as_ref().is_some_and(|b| *b.get_ref())
    });
    if let Some(layer) = locked {
        let name = layer.get_ref().name.get_ref();
        sink.error(
            Some(none.span()),
            format!(
                "`escape = \"none\"` would let run-time text write a heading or a tag that reads as locked layer `{name}`'s section"
            ),
            Some("remove `escape` (section boundaries in run-time text are then escaped where the locked layer can be reached, with a notice; wrap a layer in a tag or a code fence to forward its text as written), or unlock every layer".into()),
        );
    }
    Guarding::Off
}
