//! Locked means locked: a locked layer's bytes are the shipped bytes plus the calling
//! code's own facts, and nothing a user's file supplied decides them. Overlays and selectors
//! cannot reach a locked layer (it has no `Overlay` field and takes no selector); what is
//! checked here is the rest: a layer whose text comes at run time (a slot, instructions),
//! printing or testing the skill index, whose user skills' lines come from user files, and
//! gating on an overlay field, which a user's file fills.

use super::at::{report, At};
use super::kind::Kind;
use super::names::Names;
use crate::diag::Sink;
use crate::model::{Cond, FactId, Layer, Test};
use crate::raw;

/// `locked = true` on a layer whose text the caller passes at run time: nothing shipped
/// would be locked, and `explain()` would label run-time text `locked`.
pub(super) fn runtime(raw: &raw::Layer, kind: Kind<'_>, sink: &mut Sink<'_>) {
    let Some(locked) = raw.locked.as_ref().filter(|l| *l.get_ref()) else {
        return;
    };
    let name = raw.name.get_ref();
    let (message, what, aside) = match kind {
        Kind::Slot { .. } => (
            format!("slot layer `{name}` cannot be locked: its text is what the calling code passes at run time"),
            "text",
            "",
        ),
        Kind::Instructions => (
            format!("instructions layer `{name}` cannot be locked: its instructions come at run time, from files such as AGENTS.md that a user may write"),
            "rules",
            " (an administrator's instruction reaches the top rank with its own `locked: true`)",
        ),
        _ => return,
    };
    sink.error(
        Some(locked.span()),
        message,
        Some(format!("remove `locked = true`; a locked layer's bytes are its shipped text plus the calling code's facts, so put {what} that must not change in a layer with `text` or `file` and lock that one{aside}")),
    );
}

/// `{name}` (or `{?name}`, written `?name`) of fact `f` in layer `layer`.
pub(super) fn prints(
    layer: &Layer,
    f: FactId,
    written: &str,
    at: &At,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) {
    if !layer.locked || !names.facts[f].skill_index {
        return;
    }
    let index = &names.facts[f].name;
    let (what, effect) = match written.strip_prefix('?') {
        Some(_) => ("tests", "a user's skill would decide what it prints"),
        None => ("prints", "a user's skill file would write inside it"),
    };
    report(
        sink,
        at,
        format!(
            "locked layer `{}` {what} the skill index (`{{{written}}}`): {effect}",
            layer.name
        ),
        &format!(
            "print `{{{index}}}` in a layer of its own that is not locked (before or after `{}`, as you choose: `explain()` and the layer table mark it as user-file text)",
            layer.name
        ),
    );
}

/// A condition of a locked layer that a user's file decides: the skill index, or an
/// overlay field.
pub(super) fn gate(layer: &Layer, c: &Cond, names: &Names<'_>, sink: &mut Sink<'_>) {
    if !layer.locked {
        return;
    }
    let what = match &c.test {
        Test::Overlay(field) => {
            format!("overlay field `{field}`, which a user's overlay file fills")
        }
        Test::Fact(f) | Test::FactIs(f, _) if names.facts[*f].skill_index => {
            "the skill index, whose lines a user's skill files add".to_string()
        }
        Test::Filled(other) if names.selector_layers.contains(other) => format!(
            "selector layer `{other}`, which is in only when a user's file for it is usable"
        ),
        _ => return,
    };
    sink.error(
        Some(c.at.clone()),
        format!(
            "locked layer `{}` is gated on {what}: a user's file would decide whether the locked text is there",
            layer.name
        ),
        Some("gate a locked layer only on what the calling code decides (flags, facts, slots), or unlock it".into()),
    );
}
