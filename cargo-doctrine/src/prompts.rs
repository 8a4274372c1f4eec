//! Every prompt a manifest makes: each combination of its closed sets (role × flags ×
//! knobs, × choices on request), composed through the very plan compiled code holds
//! (`codegen::plan`, `codegen::inputs`), and named as generated `Combination`s name
//! themselves (`developer+fable+intensity=ultra`). Facts are absent (an optional one at
//! its default), slots empty, no overlay: what the closed sets alone decide.

use doctrine_codegen::inputs::{self, Given};
use doctrine_codegen::{load, naming, plan, Doctrine, Request};
use doctrine_core::introspect::Section;
use doctrine_core::Prompt;

use crate::cli::{self, Exit, Stop};

/// More prompts than this is refused: the flags alone double the count each, and a
/// matrix of a million lines helps no reviewer.
pub(crate) const MAX_PROMPTS: usize = 20_000;

/// One prompt and its name.
pub(crate) struct Composed {
    pub(crate) name: String,
    /// Every setting but the role, as a key: prompts with equal keys differ by role alone.
    pub(crate) rest: String,
    pub(crate) prompt: Prompt<Box<[Section]>>,
}

/// A loaded manifest and every prompt it makes, in combination order (the role varying
/// slowest).
pub(crate) struct Prompts {
    pub(crate) doctrine: Doctrine,
    pub(crate) all: Vec<Composed>,
}

/// Why a manifest's prompts could not be made.
pub(crate) enum Failed {
    /// The manifest has errors: they were printed to standard error.
    Diagnostics,
    Stop(Stop),
}

impl Failed {
    /// The command's result for this failure.
    pub(crate) fn exit(self) -> Result<Exit, Stop> {
        match self {
            Failed::Diagnostics => Ok(Exit::Diagnostics),
            Failed::Stop(stop) => Err(stop),
        }
    }
}

/// Loads the manifest `request` names, printing its diagnostics, and composes every
/// prompt (each choice's variants too, with `choices`).
pub(crate) fn all(request: &Request, choices: bool) -> Result<Prompts, Failed> {
    side(request, choices, None)
}

/// [`all`], the diagnostics headed by `which` (a line saying which side of a comparison
/// they are of: its files are named alike on both sides).
pub(crate) fn side(
    request: &Request,
    choices: bool,
    which: Option<&str>,
) -> Result<Prompts, Failed> {
    match load(request) {
        Ok(doctrine) => of(doctrine, choices).map_err(Failed::Stop),
        Err(diagnostics) => {
            if let Some(which) = which {
                cli::complain(which);
            }
            cli::complain(diagnostics.rendered().trim_end());
            Err(Failed::Diagnostics)
        }
    }
}

/// Every prompt of a loaded manifest, unless there are more than [`MAX_PROMPTS`].
pub(crate) fn of(doctrine: Doctrine, choices: bool) -> Result<Prompts, Stop> {
    let count = inputs::count(&doctrine, choices);
    if count.is_none_or(|n| n > MAX_PROMPTS) {
        let n = count.map_or("more than 2^64".to_string(), |n| n.to_string());
        let hint = if choices { "; drop --choices" } else { "" };
        return Err(Stop::Fail(format!(
            "the manifest makes {n} prompts, more than the {MAX_PROMPTS} this command lists{hint}"
        )));
    }
    let plan = plan::build(&doctrine);
    let all = inputs::combinations(&doctrine, choices)
        .into_iter()
        .map(|c| {
            let name = naming::name(&doctrine, &c, choices);
            let rest = format!("{:?} {:?} {:?}", c.flags, c.knobs, c.choices);
            let given = Given::new(&doctrine, &plan, c);
            let prompt = inputs::compose(&doctrine, &plan, &given);
            Composed { name, rest, prompt }
        })
        .collect();
    Ok(Prompts { doctrine, all })
}

/// One distinct prefix of a manifest's prompts up to the end of a cached tier's block
/// (what that tier's breakpoint caches), and the prompts that have it.
pub(crate) struct TierPrefix<'p> {
    pub(crate) tier: usize,
    pub(crate) prefix: &'p str,
    /// The tier's own block: the end of `prefix`.
    pub(crate) block: &'p str,
    pub(crate) names: Vec<&'p str>,
}

/// Every [`TierPrefix`] of `prompts`, by tier, then in order of first use.
pub(crate) fn tier_prefixes(prompts: &Prompts) -> Vec<TierPrefix<'_>> {
    let mut found: Vec<TierPrefix<'_>> = Vec::new();
    let mut index: std::collections::HashMap<(usize, &str), usize> = Default::default();
    for c in &prompts.all {
        let whole = c.prompt.as_str();
        let mut end = 0;
        for block in c.prompt.blocks() {
            end += block.text.len();
            if !block.breakpoint {
                continue;
            }
            let key = (block.tier_index, &whole[..end]);
            let at = *index.entry(key).or_insert_with(|| {
                found.push(TierPrefix {
                    tier: key.0,
                    prefix: key.1,
                    block: block.text,
                    names: Vec::new(),
                });
                found.len() - 1
            });
            found[at].names.push(&c.name);
        }
    }
    // Stable: within a tier, first use stays first.
    found.sort_by_key(|p| p.tier);
    found
}
