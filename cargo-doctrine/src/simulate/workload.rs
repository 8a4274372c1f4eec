//! The requests a crew sends: for each session, each turn, each role, the role's prompt
//! composed as compiled code composes it, with per-session text (every stable fact the
//! role takes, every stable slot: the same on each turn of a session, different in the
//! next) and per-turn text (every volatile fact and slot, and the turn's message: different
//! every turn). With history (the default) each request resends the role's conversation so
//! far (every earlier message and reply) after the system text, with a breakpoint at the end
//! of the turn's message, as a multi-turn agent sends it; the prompt's volatile part goes at
//! the end of the system text or into the turn's own message, or each message where the
//! manifest sends it, before or after the history ([`Placement`]).

use doctrine_codegen::model::{Content, Need};
use doctrine_codegen::named::{self, InputError, Named, SlotText};
use doctrine_codegen::plan::Plan;
use doctrine_codegen::Doctrine;
use doctrine_core::introspect::Stability;

use super::cache::{Block, Request};
use super::layout::{blocks, Layout};

/// What the crew does, and the sizes of what it is given.
#[derive(Clone, Debug)]
pub(crate) struct Workload {
    /// Indices into the manifest's roles (`[0]` when it declares none).
    pub(crate) roles: Vec<usize>,
    pub(crate) sessions: usize,
    pub(crate) turns: usize,
    /// Bytes of each turn's message.
    pub(crate) turn_bytes: usize,
    /// Bytes of each per-session value.
    pub(crate) session_bytes: usize,
    /// Bytes of each per-turn value (volatile facts and slots).
    pub(crate) volatile_bytes: usize,
    /// Seconds between one turn and the next on the simulated clock.
    pub(crate) turn_seconds: u64,
    /// Flags, knobs and choices for every prompt (a required choice not named takes its
    /// first variant).
    pub(crate) fixed: Named,
    /// Each request resends the conversation so far (off: the prompt and the message only).
    pub(crate) history: bool,
    /// Bytes of each turn's reply, resent in later turns' history.
    pub(crate) reply_bytes: usize,
    /// Where the prompt's volatile part goes.
    pub(crate) placement: Placement,
}

/// Where a request carries the prompt's volatile part (its last tier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// At the end of the system text, as one composed prompt is sent: before the history.
    System,
    /// At the start of the turn's own message, after the history (as `messages()` gives a
    /// message marked `after_history`, and as reminders are sent).
    Message,
    /// Where the manifest's messages say: those marked `after_history` at the start of the
    /// turn's own message, after the history, and the rest before it, as a program sends
    /// `messages()`. Without such a message, [`Placement::System`].
    Declared,
}

impl Placement {
    /// What `d`'s requests are as a program sends them: [`Placement::Declared`], which is
    /// [`Placement::System`] unless a message of `d` goes after the history.
    pub(crate) fn declared(d: &Doctrine) -> Placement {
        let after =
            |l: &doctrine_codegen::model::Layer| l.info.message.is_some_and(|m| m.after_history);
        match d.layers.iter().any(after) {
            true => Placement::Declared,
            false => Placement::System,
        }
    }
}

impl Workload {
    /// `simulate`'s defaults, with no role yet: 3 sessions × 10 turns, a 2,000-byte
    /// message, 64-byte values, 30 s a turn, no flag, knobs at their defaults.
    pub(crate) fn defaults() -> Workload {
        Workload {
            roles: Vec::new(),
            sessions: 3,
            turns: 10,
            turn_bytes: 2000,
            session_bytes: 64,
            volatile_bytes: 64,
            turn_seconds: 30,
            fixed: Named::default(),
            history: true,
            reply_bytes: 2000,
            placement: Placement::System,
        }
    }
}

/// Every role of `d` (`[0]`, the one prompt, when it declares none).
pub(crate) fn every_role(d: &Doctrine) -> Vec<usize> {
    (0..d.roles.len().max(1)).collect()
}

/// Every request, session by session, turn by turn, role by role, cut by `layout`: made
/// one at a time, so a long workload holds one request's text at once.
pub(crate) fn requests<'a>(
    d: &'a Doctrine,
    plan: &'a Plan,
    w: &'a Workload,
    layout: &'a Layout,
) -> impl Iterator<Item = Result<Request, InputError>> + 'a {
    // Each role's conversation so far in the current session.
    let mut histories: Vec<Vec<String>> = vec![Vec::new(); w.roles.len()];
    let turns = (0..w.sessions).flat_map(move |session| (0..w.turns).map(move |t| (session, t)));
    turns.flat_map(move |(session, turn)| {
        let at = (session * w.turns + turn) as u64 * w.turn_seconds;
        let requests: Vec<_> = w
            .roles
            .iter()
            .enumerate()
            .map(|(k, &role)| {
                if turn == 0 {
                    histories[k].clear();
                }
                let named = inputs(d, w, role, session, turn);
                let prompt = named::resolve(d, plan, &named)?.compose(d, plan);
                let who = d.roles.get(role).map_or("agent", String::as_str);
                let label = format!("Session {session}, turn {turn}, {who}:");
                let message = filler(&label, w.turn_bytes);
                Ok(request(
                    &prompt,
                    layout,
                    w,
                    (&mut histories[k], message),
                    at,
                ))
            })
            .collect();
        requests
    })
}

/// One request: the system text's blocks (without the volatile part where it goes in the
/// message), then, with history, each earlier message and reply a block and the turn's
/// message a block ending with a breakpoint (what the next turn reads back, one message
/// back), else the message alone. The turn's message and a reply join `history`.
fn request(
    prompt: &doctrine_core::Prompt<Box<[doctrine_core::introspect::Section]>>,
    layout: &Layout,
    w: &Workload,
    (history, message): (&mut Vec<String>, String),
    at: u64,
) -> Request {
    let mut system = blocks(prompt, layout);
    let volatile = prompt.volatile();
    let turn = match w.placement {
        Placement::Message if !volatile.is_empty() => {
            cut_at(&mut system, prompt.stable().len());
            format!("{volatile}\n\n{message}")
        }
        Placement::Declared => match after_history(prompt) {
            Some((before_end, after)) => {
                cut_at(&mut system, before_end);
                format!("{after}\n\n{message}")
            }
            None => message,
        },
        _ => message,
    };
    if !w.history {
        return Request {
            blocks: system,
            tail: turn,
            at,
        };
    }
    history.push(turn);
    let last = history.len() - 1;
    system.extend(history.iter().enumerate().map(|(i, text)| Block {
        text: text.clone(),
        breakpoint: i == last,
    }));
    history.push(filler("Reply:", w.reply_bytes));
    Request {
        blocks: system,
        tail: String::new(),
        at,
    }
}

/// Where the prompt's messages sent before the history end, and the text of those sent
/// after it (validation puts them last): `None` when none goes after the history.
fn after_history(
    prompt: &doctrine_core::Prompt<Box<[doctrine_core::introspect::Section]>>,
) -> Option<(usize, &str)> {
    let messages = prompt.messages();
    let first = messages.iter().position(|m| m.after_history)?;
    let before_end = first.checked_sub(1).map_or(0, |i| messages[i].range.end);
    Some((before_end, &prompt.as_str()[messages[first].range.start..]))
}

/// `blocks` cut to their first `end` bytes (the stable prefix): a block across it keeps its
/// start, and its breakpoint where it had one at `end`.
fn cut_at(blocks: &mut Vec<Block>, end: usize) {
    let mut at = 0;
    let mut kept = Vec::new();
    for mut b in blocks.drain(..) {
        if at >= end {
            break;
        }
        if at + b.text.len() > end {
            b.text.truncate(end - at);
            b.breakpoint = false;
        }
        at += b.text.len();
        kept.push(b);
    }
    *blocks = kept;
}

/// The named inputs of `role`'s prompt on `turn` of `session`.
fn inputs(d: &Doctrine, w: &Workload, role: usize, session: usize, turn: usize) -> Named {
    let mut named = w.fixed.clone();
    named.role = d.roles.get(role).cloned();
    let per = |tier: Stability, name: &str| match tier {
        Stability::Stable => filler(&format!("session {session} {name}"), w.session_bytes),
        _ => filler(&format!("turn {turn} {name}"), w.volatile_bytes),
    };
    for l in &d.layers {
        match &l.content {
            Content::Choice {
                variants,
                optional: false,
                ..
            } if !named.choices.iter().any(|(c, _)| *c == l.name) => {
                if let Some(first) = variants.first() {
                    named.choices.push((l.name.clone(), first.stem.clone()));
                }
            }
            Content::Slot { .. } => {
                let text = per(l.tier, &l.name);
                named.slots.push((l.name.clone(), SlotText::Text(text)));
            }
            _ => {}
        }
    }
    for f in &d.facts {
        let need = f.need.get(role).copied().unwrap_or(Need::Absent);
        if need == Need::Absent || f.skill_index {
            continue;
        }
        let value = match &f.values {
            // A closed set: its first value when the fact is required, else not given.
            Some((_, values)) if need == Need::Required => values[0].clone(),
            Some(_) => continue,
            None => per(f.tier, &f.name),
        };
        let value = match f.list.as_ref().and_then(|l| l.fields.first()) {
            Some(field) => format!("{field}={value}"),
            None => value,
        };
        named.facts.push((f.name.clone(), value));
    }
    named
}

/// `label`, then filler words, cut to `bytes` bytes (ASCII); never shorter than the
/// label, which keeps values of different sessions and turns different, and empty (not
/// given) for 0.
pub(crate) fn filler(label: &str, bytes: usize) -> String {
    const WORDS: &str = " the agent reads this text once per request and it counts";
    if bytes == 0 {
        return String::new();
    }
    let mut text = label.to_string();
    while text.len() < bytes {
        text.push_str(WORDS);
    }
    text.truncate(bytes.max(label.len()));
    text
}

#[cfg(test)]
mod tests {
    use super::filler;

    #[test]
    fn filler_is_the_label_then_words_cut_to_size() {
        assert_eq!(filler("turn 1", 0), "");
        assert_eq!(filler("turn 1", 4), "turn 1");
        assert_eq!(filler("turn 1", 14), "turn 1 the age");
        assert_eq!(filler("turn 1", 500).len(), 500);
    }
}
