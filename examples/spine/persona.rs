//! How a persona meets the host's base prompt and the spine. The manifest says everything
//! about the spine's source (its selectors) and the persona's mode (`unless` on `base`, a
//! trimmed persona slot); this file only maps a persona onto the builder.
//!
//! - No persona, or an empty body: `base → spine`.
//! - `Append`: `base → spine → body`.
//! - `Replace` with a non-empty body: `spine → body` (the host's base prompt is dropped).
//! - A persona may opt out of the spine (`spine: false`), and a supervisor's opt-out also
//!   holds for the legs it spawns.
//! - A delegated leg gets the worker spine, never the supervisor's.

pub mod spine {
    doctrine::doctrine!("doctrine.toml");
}

pub use spine::{Role, Selection, Selectors};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Append,
    Replace,
}

/// A persona definition, as its frontmatter and body give it.
#[derive(Clone, Copy, Debug)]
pub struct Persona<'a> {
    pub body: &'a str,
    pub mode: Mode,
    /// `false` (`spine: false`) opts this persona, and the legs it spawns, out of the spine.
    pub spine: bool,
}

fn opted_out(persona: Option<Persona<'_>>) -> bool {
    persona.is_some_and(|p| !p.spine)
}

/// The supervisor's prompt.
pub fn supervisor(
    base: &str,
    persona: Option<Persona<'_>>,
    selection: &Selection,
) -> spine::Prompt {
    compose(
        Role::Supervisor,
        base,
        persona,
        opted_out(persona),
        selection,
    )
}

/// A delegated leg's prompt: its own persona, spawned by a supervisor running
/// `supervisor` (whose opt-out holds for the leg too).
pub fn leg(
    base: &str,
    persona: Option<Persona<'_>>,
    supervisor: Option<Persona<'_>>,
    selection: &Selection,
) -> spine::Prompt {
    let opt_out = opted_out(persona) || opted_out(supervisor);
    compose(Role::Leg, base, persona, opt_out, selection)
}

fn compose(
    role: Role,
    base: &str,
    persona: Option<Persona<'_>>,
    opt_out: bool,
    selection: &Selection,
) -> spine::Prompt {
    let replace = persona.is_some_and(|p| p.mode == Mode::Replace);
    spine::compose(role)
        .selection(selection)
        // `spine: false` opts out of the spine family (the legs' selector follows it).
        .opt_out_spine(opt_out)
        .flag(spine::Flag::PersonaReplace, replace)
        .base(Some(base))
        .persona(persona.map(|p| p.body))
        .finish()
}
