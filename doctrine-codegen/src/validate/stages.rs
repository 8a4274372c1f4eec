//! The builder stages slot and instructions layers name.

use std::collections::HashMap;

use toml::Spanned;

use crate::diag::Sink;
use crate::model::{Content, Layer};
use crate::names::camel;

/// Each slot (and instructions layer) names a builder stage `Need<Name>`; two layers may
/// not name the same one (`step_1` and `step1`).
pub(super) fn check(layers: &[(Spanned<()>, Layer)], sink: &mut Sink<'_>) {
    let mut seen: HashMap<String, &str> = HashMap::new();
    for (_, l) in layers {
        if !matches!(l.content, Content::Slot { .. } | Content::Instructions) {
            continue;
        }
        let stage = camel(&l.name);
        if let Some(prev) = seen.insert(stage.clone(), &l.name) {
            sink.error(
                Some(l.at.name.clone()),
                format!(
                    "slot layers `{prev}` and `{}` name the same builder stage `Need{stage}`",
                    l.name
                ),
                Some("rename one of them".into()),
            );
        }
    }
}
