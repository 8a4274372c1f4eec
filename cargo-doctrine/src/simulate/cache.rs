//! A provider's prefix cache, simulated exactly: a cache entry is the exact bytes of a
//! request up to a point (keyed by their fingerprint and length), and each request is
//! served from the longest live entry it starts with.
//!
//! Two providers' rules: Anthropic's (the caller marks at most 4 breakpoints; the longest
//! cached breakpoint prefix is read, each later breakpoint prefix is written, and a write
//! costs more than plain input) and OpenAI's (no breakpoints: every prefix of 1,024 tokens
//! and more, in steps of 128, is cached, with no surcharge). A prefix under the minimum is
//! never cached. Time is a simulated clock: each request says when it is sent.

use std::collections::HashMap;

use super::tokens;
use crate::tokens::Counter;

/// A stretch of a request's text, and whether a cache breakpoint ends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    pub(crate) text: String,
    pub(crate) breakpoint: bool,
}

/// One request: its system prompt cut into blocks, then the turn's message, which is never
/// cached (it follows the last breakpoint, and differs every turn).
#[derive(Clone, Debug)]
pub(crate) struct Request {
    pub(crate) blocks: Vec<Block>,
    pub(crate) tail: String,
    /// When it is sent, in the simulated clock's seconds.
    pub(crate) at: u64,
}

/// Whose caching rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Provider {
    /// Breakpoints marked by the caller; writes cost extra.
    Anthropic,
    /// The longest prefix, automatically, in steps of [`Config::step`] tokens.
    OpenAi,
}

/// The cache's rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Config {
    pub(crate) provider: Provider,
    /// A prefix shorter than this many tokens is never cached.
    pub(crate) min_tokens: usize,
    /// The most breakpoints a request may mark (Anthropic: 4).
    pub(crate) max_breakpoints: usize,
    /// OpenAI's step: cached prefixes are `min_tokens + k * step` tokens long.
    pub(crate) step: usize,
    /// An entry not used for this many seconds is gone; `None`: entries never expire.
    pub(crate) ttl: Option<u64>,
    /// How tokens are counted: the minimum and the steps compare these counts.
    pub(crate) counter: Counter,
}

impl Config {
    /// A provider's published rules: 1,024 tokens at least, 4 breakpoints, steps of 128;
    /// no expiry; tokens estimated as bytes / 4.
    pub(crate) const fn of(provider: Provider) -> Self {
        Config {
            provider,
            min_tokens: 1024,
            max_breakpoints: 4,
            step: 128,
            ttl: None,
            counter: Counter::Estimate,
        }
    }
}

/// What requests cost in input tokens: `input = read + write + uncached`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    pub(crate) requests: usize,
    pub(crate) input: usize,
    /// Served from the cache.
    pub(crate) read: usize,
    /// Written to the cache (and billed as written).
    pub(crate) write: usize,
    /// Neither.
    pub(crate) uncached: usize,
}

/// The price of a read and of a write token, as a multiple of a plain input token's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Prices {
    pub(crate) read: f64,
    pub(crate) write: f64,
}

impl Prices {
    /// Anthropic's published multipliers: a cache read costs 0.1× base input, a write
    /// (5-minute cache) 1.25×.
    pub(crate) const ANTHROPIC: Prices = Prices {
        read: 0.1,
        write: 1.25,
    };
}

impl Usage {
    pub(crate) fn add(&mut self, other: Usage) {
        self.requests += other.requests;
        self.input += other.input;
        self.read += other.read;
        self.write += other.write;
        self.uncached += other.uncached;
    }

    /// The fraction of input tokens served from the cache.
    pub(crate) fn served(&self) -> f64 {
        ratio(self.read as f64, self.input)
    }

    /// What the input costs at `prices`, against the same input with no caching.
    pub(crate) fn cost_ratio(&self, prices: Prices) -> f64 {
        let cost = self.read as f64 * prices.read
            + self.write as f64 * prices.write
            + self.uncached as f64;
        ratio(cost, self.input)
    }
}

fn ratio(part: f64, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part / whole as f64
    }
}

/// More breakpoints than the provider allows.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TooManyBreakpoints {
    pub(crate) marked: usize,
    pub(crate) limit: usize,
}

/// How many block boundaries before a breakpoint (its own included) Anthropic checks for
/// an entry: 20, as its documentation says.
const LOOKBACK: usize = 20;

/// A cache entry's key: the fingerprint and length of its bytes.
type Key = (u64, usize);

/// One prefix a request may read or write: its key and its tokens.
struct Point {
    key: Key,
    tokens: usize,
}

/// The cache: each entry and when it was last used.
pub(crate) struct Cache {
    config: Config,
    entries: HashMap<Key, u64>,
}

impl Cache {
    pub(crate) fn new(config: Config) -> Self {
        Cache {
            config,
            entries: HashMap::new(),
        }
    }

    /// Serves `request`: reads the longest live prefix it may read, writes the longer ones,
    /// and says what its input cost.
    pub(crate) fn serve(&mut self, request: &Request) -> Result<Usage, TooManyBreakpoints> {
        let marked = request.blocks.iter().filter(|b| b.breakpoint).count();
        if self.config.provider == Provider::Anthropic && marked > self.config.max_breakpoints {
            return Err(TooManyBreakpoints {
                marked,
                limit: self.config.max_breakpoints,
            });
        }
        let text: String = request.blocks.iter().map(|b| b.text.as_str()).collect();
        let counter = self.config.counter;
        let (points, reads, input) = match self.config.provider {
            Provider::Anthropic => {
                let input = tokens::count(counter, &text) + tokens::count(counter, &request.tail);
                let reads = self.lookback(request, &text);
                (self.breakpoints(request, &text), Some(reads), input)
            }
            Provider::OpenAi => {
                let (points, input) = self.steps(&(text + &request.tail));
                (points, None, input)
            }
        };
        let now = request.at;
        // What may be read: the breakpoints' prefixes, and with Anthropic those at the
        // block boundaries before each breakpoint.
        let reads = reads.as_deref().unwrap_or(&points);
        let hit = reads.iter().rposition(|p| self.live(p.key, now));
        let (mut read, mut reached, mut past) = (0, 0, 0);
        if let Some(h) = hit {
            read = reads[h].tokens;
            (reached, past) = (read, reads[h].key.1);
            self.entries.insert(reads[h].key, now);
        }
        let mut write = 0;
        for p in points.iter().filter(|p| p.key.1 > past) {
            write += p.tokens.saturating_sub(reached);
            reached = reached.max(p.tokens);
            self.entries.insert(p.key, now);
        }
        Ok(Usage {
            requests: 1,
            input,
            read,
            write,
            uncached: input.saturating_sub(read + write),
        })
    }

    fn live(&self, key: Key, now: u64) -> bool {
        self.entries.get(&key).is_some_and(|&used| {
            self.config
                .ttl
                .is_none_or(|ttl| now.saturating_sub(used) < ttl)
        })
    }

    /// The prefix ending at each breakpoint, long enough to cache, shortest first.
    fn breakpoints(&self, request: &Request, text: &str) -> Vec<Point> {
        let mut points: Vec<Point> = Vec::new();
        let mut end = 0;
        for block in &request.blocks {
            end += block.text.len();
            if !block.breakpoint || points.last().is_some_and(|p| p.key.1 == end) {
                continue;
            }
            let prefix = &text[..end];
            let n = tokens::count(self.config.counter, prefix);
            if n >= self.config.min_tokens {
                points.push(point(prefix.as_bytes(), n));
            }
        }
        points
    }

    /// The prefixes Anthropic looks a breakpoint's entry up at: the breakpoint's own and
    /// those ending at each of the [`LOOKBACK`] block boundaries before it (how a turn
    /// finds the entry the turn before wrote, one message back), long enough to cache,
    /// shortest first.
    fn lookback(&self, request: &Request, text: &str) -> Vec<Point> {
        let mut ends = Vec::with_capacity(request.blocks.len());
        let mut end = 0;
        for block in &request.blocks {
            end += block.text.len();
            ends.push(end);
        }
        let mut looked: Vec<usize> = Vec::new();
        for (i, block) in request.blocks.iter().enumerate() {
            if block.breakpoint {
                looked.extend(&ends[(i + 1).saturating_sub(LOOKBACK)..=i]);
            }
        }
        looked.sort_unstable();
        looked.dedup();
        looked
            .into_iter()
            .filter(|&end| end > 0)
            .filter_map(|end| {
                let prefix = &text[..end];
                let n = tokens::count(self.config.counter, prefix);
                (n >= self.config.min_tokens).then(|| point(prefix.as_bytes(), n))
            })
            .collect()
    }

    /// Every prefix of `text` a step long (the minimum, then each step more), shortest
    /// first; and the tokens of `text`.
    fn steps(&self, text: &str) -> (Vec<Point>, usize) {
        let ends = tokens::ends(self.config.counter, text);
        let step = self.config.step.max(1);
        // `min_tokens + k * step`; with no minimum the first is one step, not one token.
        let lengths = (self.config.min_tokens..=ends.len()).step_by(step);
        let points = lengths
            .filter(|&n| n > 0)
            .map(|n| point(&text.as_bytes()[..ends[n - 1]], n))
            .collect();
        (points, ends.len())
    }
}

fn point(bytes: &[u8], tokens: usize) -> Point {
    Point {
        key: (doctrine_core::cache::fingerprint(bytes), bytes.len()),
        tokens,
    }
}

#[cfg(test)]
#[path = "cache_tests.rs"]
mod tests;
