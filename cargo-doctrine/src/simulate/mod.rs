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

use doctrine_core::codegen::named::InputError;
use doctrine_core::codegen::{plan, Doctrine};

use self::cache::{Cache, Config, TooManyBreakpoints, Usage};
use self::layout::Layout;
use self::workload::Workload;

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

/// Serves every request of `workload` on manifest `d`, cut by `layout`, from one cache.
pub(crate) fn run(
    d: &Doctrine,
    workload: &Workload,
    layout: &Layout,
    config: Config,
) -> Result<Outcome, Error> {
    let plan = plan::build(d);
    let requests = workload::requests(d, &plan, workload, layout).map_err(Error::Inputs)?;
    let mut cache = Cache::new(config);
    let mut total = Usage::default();
    let mut per_role: Vec<(usize, Usage)> = workload
        .roles
        .iter()
        .map(|&r| (r, Usage::default()))
        .collect();
    let roles = workload.roles.len().max(1);
    for (i, request) in requests.iter().enumerate() {
        let usage = cache.serve(request).map_err(Error::Breakpoints)?;
        total.add(usage);
        // Requests go role by role within a turn.
        per_role[i % roles].1.add(usage);
    }
    Ok(Outcome { total, per_role })
}
