//! `[[message]]`: the layers grouped into a request's messages. Each layer of a manifest
//! that declares messages is in exactly one; a message's layers are consecutive and of
//! one tier unless sent in parts (a message sent as one text is cached whole, so a tier
//! boundary inside one would have nowhere to put its breakpoint; in parts, each layer is a
//! part and the boundary falls between two); messages sent after the history come last; a wrapper is two
//! non-empty texts, each holding a tag the guard then escapes in run-time text, and no
//! placeholder (wrappers are printed as written).

use toml::Spanned;

use super::hint::hint;
use super::literal::{check, Printed};
use super::names::Names;
use crate::diag::Sink;
use crate::model::Layer;
use crate::raw::{Manifest, MessageTable};
use doctrine_core::__internals::boundary::tag_names;
use doctrine_core::cache::MessageInfo;

/// Checks the messages and records each layer's in its `info`.
pub(super) fn assign(
    raw: &Manifest,
    names: &Names<'_>,
    layers: &mut [(Spanned<()>, Layer)],
    sink: &mut Sink<'_>,
) {
    if raw.messages.is_empty() {
        return;
    }
    let mut of_layer: Vec<Option<usize>> = vec![None; layers.len()];
    let mut infos: Vec<&'static MessageInfo> = Vec::new();
    for (m, table) in raw.messages.iter().enumerate() {
        let t = table.get_ref();
        infos.push(crate::plan::shared(info(m, t, names, sink)));
        if t.layers.get_ref().is_empty() {
            sink.error(
                Some(t.layers.span()),
                format!("message `{}` (#{}) has no layer", t.role.get_ref(), m + 1),
                Some("list the layers it sends, or remove the `[[message]]`".to_string()),
            );
        }
        for name in t.layers.get_ref() {
            member(m, name, layers, &mut of_layer, raw, sink);
        }
    }
    for ((_, l), m) in layers.iter().zip(&of_layer) {
        if m.is_none() {
            sink.error(
                Some(l.at.name.clone()),
                format!("layer `{}` is in no message", l.name),
                Some("a manifest with `[[message]]` sends every layer in one: add it to the `layers` of the message it belongs to".to_string()),
            );
        }
    }
    if sink.has_errors() {
        return;
    }
    order(raw, layers, &of_layer, sink);
    for ((_, l), m) in layers.iter_mut().zip(of_layer) {
        if let Some(m) = m {
            l.info.message = Some(infos[m]);
        }
    }
}

/// Message `m`'s description, its wrapper checked.
fn info(m: usize, t: &MessageTable, names: &Names<'_>, sink: &mut Sink<'_>) -> MessageInfo {
    let role = t.role.get_ref();
    if role.trim().is_empty() {
        sink.error(
            Some(t.role.span()),
            "a message's role is empty",
            Some(
                "name it: `system`, `developer`, `user`, or the role your provider takes"
                    .to_string(),
            ),
        );
    }
    let (open, close) = match &t.wrap {
        Some(w) => wrapper(role, w, names, sink),
        None => (String::new(), String::new()),
    };
    let after = t.after_history.as_ref().is_some_and(|a| *a.get_ref());
    let text = crate::plan::interned;
    let container = super::wrap::container(&open, &close);
    let (open, close) = (text(&open), text(&close));
    MessageInfo::rebuild(m, text(role), open, close, after, container, in_parts(t))
}

/// `parts = true`: each layer with text is a content part of its own.
fn in_parts(t: &MessageTable) -> bool {
    t.parts.as_ref().is_some_and(|p| *p.get_ref())
}

/// `wrap = [open, close]`: two texts, neither empty, each with a tag, no placeholder.
fn wrapper(
    role: &str,
    w: &Spanned<Vec<Spanned<String>>>,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) -> (String, String) {
    let [open, close] = &w.get_ref()[..] else {
        sink.error(
            Some(w.span()),
            format!("the wrapper of message `{role}` is not two texts"),
            Some("write `wrap = [\"<name>\\n\", \"\\n</name>\"]`: the opening text, then the closing one".to_string()),
        );
        return Default::default();
    };
    for (text, which) in [(open, "opening"), (close, "closing")] {
        let printed = Printed {
            key: "wrapper",
            layer: None,
        };
        check(printed, text, names, sink);
        let fold = doctrine_load::__internals::text::fold;
        if text.get_ref().is_empty() {
            sink.error(
                Some(text.span()),
                format!("the {which} text of message `{role}`'s wrapper is empty"),
                Some(
                    "give both texts, or leave `wrap` out for a message without a wrapper"
                        .to_string(),
                ),
            );
        } else if tag_names(text.get_ref(), fold).next().is_none() {
            sink.error(
                Some(text.span()),
                format!("the {which} text of message `{role}`'s wrapper holds no tag"),
                Some("a wrapper is a tag (`<name>`, `</name>`), which run-time text is kept from writing; without one a slot or a user's file could close the message".to_string()),
            );
        }
    }
    (open.get_ref().clone(), close.get_ref().clone())
}

/// Layer `name` is in message `m`: it exists and is in no other.
fn member(
    m: usize,
    name: &Spanned<String>,
    layers: &[(Spanned<()>, Layer)],
    of_layer: &mut [Option<usize>],
    raw: &Manifest,
    sink: &mut Sink<'_>,
) {
    let Some(i) = layers.iter().position(|(_, l)| &l.name == name.get_ref()) else {
        // A layer the manifest declares whose own mistakes were reported: nothing more
        // to say of it here.
        let declared = |n: &str| n == name.get_ref();
        if raw
            .layers
            .iter()
            .any(|l| declared(l.get_ref().name.get_ref()))
            || sink.reported().layers.iter().any(|n| declared(n))
        {
            return;
        }
        let all = layers.iter().map(|(_, l)| l.name.as_str());
        sink.error(
            Some(name.span()),
            format!(
                "message lists layer `{}`, which does not exist",
                name.get_ref()
            ),
            Some(hint(name.get_ref(), all, "layers")),
        );
        return;
    };
    match of_layer[i] {
        Some(other) => sink.error(
            Some(name.span()),
            format!(
                "layer `{}` is in two messages: `{}` (#{}) and `{}` (#{})",
                name.get_ref(),
                raw.messages[other].get_ref().role.get_ref(),
                other + 1,
                raw.messages[m].get_ref().role.get_ref(),
                m + 1
            ),
            Some("a layer is sent once: keep it in one message".to_string()),
        ),
        None => of_layer[i] = Some(m),
    }
}

/// In manifest order, the layers' messages never go back, each message is of one tier,
/// and the messages sent after the history come last.
fn order(
    raw: &Manifest,
    layers: &[(Spanned<()>, Layer)],
    of_layer: &[Option<usize>],
    sink: &mut Sink<'_>,
) {
    let role = |m: usize| raw.messages[m].get_ref().role.get_ref().as_str();
    let after = |m: usize| {
        let t = raw.messages[m].get_ref();
        t.after_history.as_ref().is_some_and(|a| *a.get_ref())
    };
    let mut prev: Option<(usize, &Layer)> = None;
    let mut seen_after: Option<usize> = None;
    for ((_, l), m) in layers.iter().zip(of_layer) {
        let Some(m) = *m else { continue };
        if let Some((p, pl)) = prev {
            if p > m {
                sink.error(
                    Some(l.at.name.clone()),
                    format!(
                        "layer `{}` of message `{}` (#{}) comes after layer `{}` of message `{}` (#{})",
                        l.name, role(m), m + 1, pl.name, role(p), p + 1
                    ),
                    Some("a message's layers are consecutive and messages follow the order of their `[[message]]` tables: move the layer, or list it in another message".to_string()),
                );
                return;
            }
            // In parts, a tier ends between two parts, where its breakpoint goes.
            if p == m && pl.tier_index != l.tier_index && !in_parts(raw.messages[m].get_ref()) {
                sink.error(
                    Some(l.at.name.clone()),
                    format!(
                        "message `{}` (#{}) holds layers of two tiers: `{}` and `{}`",
                        role(m),
                        m + 1,
                        pl.name,
                        l.name
                    ),
                    Some(
                        "a message sent as one text is cached whole: split it into one message per tier, or send it in parts (`parts = true`), where a tier ends between two parts".to_string(),
                    ),
                );
            }
        }
        if after(m) {
            seen_after = Some(m);
        } else if let Some(a) = seen_after {
            sink.error(
                Some(l.at.name.clone()),
                format!(
                    "message `{}` (#{}) comes after message `{}` (#{}), which is sent after the history",
                    role(m), m + 1, role(a), a + 1
                ),
                Some("messages with `after_history = true` come last: move them after the others".to_string()),
            );
            return;
        }
        prev = Some((m, l));
    }
}
