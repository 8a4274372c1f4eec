//! A deterministic simulator of a provider's prefix cache over a crew's requests: what
//! share of the input tokens a layout of cache breakpoints serves from the cache, and what
//! the input then costs against no caching. `cargo doctrine simulate` runs it.
//!
//! `cache` holds the cache's rules, `layout` where breakpoints go (and the one function
//! that cuts a prompt into blocks), `workload` the requests, `tokens` how tokens are
//! counted.

pub(crate) mod cache;
pub(crate) mod layout;
mod tokens;
pub(crate) mod workload;

use doctrine_codegen::named::InputError;
use doctrine_codegen::named::Named;
use doctrine_codegen::{plan, Doctrine};

use self::cache::{Cache, Config, Provider, TooManyBreakpoints, Usage};
use self::layout::Layout;
use self::workload::Workload;
use crate::tokens::Counter;

/// What a run cost: in all, and per role (in the workload's order).
#[derive(Debug)]
pub(crate) struct Outcome {
    pub(crate) total: Usage,
    pub(crate) per_role: Vec<(usize, Usage)>,
}

/// Why a run could not be made.
#[derive(Debug)]
pub(crate) enum Error {
    /// Compiled code would refuse the inputs the workload gives.
    Inputs(InputError),
    Breakpoints(TooManyBreakpoints),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Inputs(e) => e.fmt(f),
            Error::Breakpoints(e) => write!(
                f,
                "{} breakpoints, more than the {} a request may mark",
                e.marked, e.limit
            ),
        }
    }
}

/// Serves every request of `workload` on manifest `d`, cut by `layout`, from one cache.
pub(crate) fn run(
    d: &Doctrine,
    workload: &Workload,
    layout: &Layout,
    config: Config,
) -> Result<Outcome, Error> {
    let plan = plan::build(d);
    let mut cache = Cache::new(config);
    let mut total = Usage::default();
    let mut per_role: Vec<(usize, Usage)> = workload
        .roles
        .iter()
        .map(|&r| (r, Usage::default()))
        .collect();
    let roles = workload.roles.len().max(1);
    for (i, request) in workload::requests(d, &plan, workload, layout).enumerate() {
        let request = request.map_err(Error::Inputs)?;
        let usage = cache.serve(&request).map_err(Error::Breakpoints)?;
        total.add(usage);
        // Requests go role by role within a turn.
        per_role[i % roles].1.add(usage);
    }
    Ok(Outcome { total, per_role })
}

/// Sessions × turns of [`default_run`]: small, so that `diff` stays fast.
pub(crate) const DEFAULT_RUN: (usize, usize) = (3, 4);

/// `simulate`'s default workload without history (every role, [`DEFAULT_RUN`] sessions ×
/// turns, with the flags, knobs and choices of `fixed`) and default layout on `d`, Anthropic-style, tokens
/// counted by `counter`: what `diff` compares.
pub(crate) fn default_run(d: &Doctrine, fixed: &Named, counter: Counter) -> Result<Usage, Error> {
    let (sessions, turns) = DEFAULT_RUN;
    // Without history: the figures `diff` has always compared, of the prompts alone.
    let workload = Workload {
        roles: workload::every_role(d),
        sessions,
        turns,
        fixed: fixed.clone(),
        history: false,
        ..Workload::defaults()
    };
    let config = Config {
        counter,
        ..Config::of(Provider::Anthropic)
    };
    run(d, &workload, &Layout::default_for(d), config).map(|o| o.total)
}
