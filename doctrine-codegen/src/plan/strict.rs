//! Where each layer's run-time text is guarded against every section boundary: in the
//! roles in which its message holds a locked layer, printed or not (a locked layer gated
//! off this time may print next time, and a message's guard must not depend on it). A
//! message boundary counts only where the request keeps it: the request shapers merge the
//! `system` messages sent before the history into one field (`instructions`, `system`),
//! and which of them lead depends on which messages print, so all of them count as one.
//! A manifest without messages is one message.

use crate::model::{Doctrine, Guarding, Layer};

/// The roles in which layer `i`'s uncontained run-time text is guarded against every
/// boundary: `None` for every role (the runtime's default), else the roles by index
/// (none at all: in no role).
pub(super) fn roles(d: &Doctrine, i: usize) -> Option<Vec<u32>> {
    if d.formulation.guard != Guarding::Locked {
        return None;
    }
    let own = request_message(&d.layers[i]);
    let roles = d.roles.len().max(1);
    let locked_in = |r: usize| {
        d.layers.iter().any(|l| {
            l.locked
                && request_message(l) == own
                && l.scope
                    .as_ref()
                    .is_none_or(|s| s.iter().any(|id| id.0 == r))
        })
    };
    let strict: Vec<u32> = (0..roles)
        .filter(|&r| locked_in(r))
        .map(|r| r as u32)
        .collect();
    (strict.len() < roles).then_some(strict)
}

/// The message a layer is sent in, as the request keeps it apart: every `system` message
/// sent before the history is one (`None`), as is a manifest without messages.
pub fn request_message(l: &Layer) -> Option<usize> {
    let m = l.info.message?;
    let merged = m.role == "system" && !m.after_history;
    (!merged).then_some(m.index)
}
