//! How a persona meets the host's base prompt and the spine: the rules a runtime composer
//! spreads over hooks and engines. The persona rules live in the manifest (`unless` on
//! `base`, a trimmed persona slot); this file picks the spine's source.
//!
//! - No persona, or an empty body: `base → spine`.
//! - `Append`: `base → spine → body`.
//! - `Replace` with a non-empty body: `spine → body` (the host's base prompt is dropped).
//! - The spine is off unless the selector turns it on, and a persona may opt out.
//! - A delegated leg gets the worker spine, never the supervisor's.

use std::path::{Path, PathBuf};

pub mod spine {
    doctrine::doctrine!("doctrine.toml");
}

pub use spine::Role;

/// Files larger than this are refused: a spine is a page of doctrine, not a dump.
pub const MAX_SPINE_BYTES: u64 = 64 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Append,
    Replace,
}

#[derive(Clone, Copy, Debug)]
pub struct Persona<'a> {
    pub body: &'a str,
    pub mode: Mode,
    /// `false` opts this persona (and the legs it spawns) out of the spine.
    pub spine: bool,
}

/// Where the spine comes from.
#[derive(Clone, Debug)]
pub enum Selector {
    /// No spine: byte-identical to a build without one.
    Off,
    /// The user's copy in this directory if present, else the bundled text.
    On { user_dir: PathBuf },
    /// This file.
    Path(PathBuf),
}

/// The prompt for `role`, and every warning about a spine source that was not used.
pub fn compose(
    role: Role,
    base: &str,
    persona: Option<Persona<'_>>,
    selector: &Selector,
) -> (spine::Prompt, Vec<String>) {
    let mut warnings = Vec::new();
    let opted_out = persona.is_some_and(|p| !p.spine);
    let (on, overlay) = match selector {
        Selector::Off => (false, spine::Overlay::default()),
        Selector::On { user_dir } => {
            let (overlay, notices) = spine::Overlay::load(user_dir);
            warnings.extend(notices.iter().map(ToString::to_string));
            (true, overlay)
        }
        Selector::Path(path) => match read_spine(path) {
            Ok(text) => {
                let mut overlay = spine::Overlay::default();
                match role {
                    Role::Supervisor => overlay.spine = text,
                    Role::Leg => overlay.spine_worker = text,
                }
                (true, overlay)
            }
            Err(why) => {
                warnings.push(format!("{}: {why}; no spine this time", path.display()));
                (false, spine::Overlay::default())
            }
        },
    };
    // The rest is the manifest's: the persona slot is trimmed and empty means absent, and
    // `base` has `unless = ["persona_replace", "layer:persona"]`.
    let replace = persona.is_some_and(|p| p.mode == Mode::Replace);
    let prompt = spine::compose(role)
        .flag(spine::Flag::Spine, on && !opted_out)
        .flag(spine::Flag::PersonaReplace, replace)
        .overlay(&overlay)
        .base(Some(base))
        .persona(persona.map(|p| p.body))
        .finish();
    (prompt, warnings)
}

/// A spine file named by path: unreadable, empty or oversized files are refused.
fn read_spine(path: &Path) -> Result<String, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("cannot read it ({e})"))?
        .len();
    if size > MAX_SPINE_BYTES {
        return Err(format!(
            "it is {size} bytes, over the {MAX_SPINE_BYTES}-byte limit"
        ));
    }
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read it as UTF-8 text ({e})"))?;
    let text = text.trim();
    if text.is_empty() {
        return Err("it is empty".into());
    }
    Ok(text.to_string())
}
