//! The cache's arithmetic on tiny requests, worked out by hand. Tokens are bytes / 4,
//! rounded up, so an 8-byte block is 2 tokens.

use super::*;

fn block(text: &str, breakpoint: bool) -> Block {
    Block {
        text: text.to_string(),
        breakpoint,
    }
}

fn request(blocks: &[(&str, bool)], tail: &str, at: u64) -> Request {
    Request {
        blocks: blocks.iter().map(|&(t, b)| block(t, b)).collect(),
        tail: tail.to_string(),
        at,
    }
}

fn anthropic(min_tokens: usize) -> Config {
    Config {
        min_tokens,
        ..Config::of(Provider::Anthropic)
    }
}

fn usage(requests: usize, input: usize, read: usize, write: usize, uncached: usize) -> Usage {
    Usage {
        requests,
        input,
        read,
        write,
        uncached,
    }
}

/// Serves each request in order, and adds up what they cost.
fn serve_all(cache: &mut Cache, requests: &[Request]) -> Vec<Usage> {
    requests.iter().map(|r| cache.serve(r).unwrap()).collect()
}

const A: &str = "aaaaaaaa";
const B: &str = "bbbbbbbb";
const B2: &str = "bbbbbbbx";

#[test]
fn a_miss_writes_each_breakpoint_and_a_repeat_reads_the_longest() {
    let mut cache = Cache::new(anthropic(2));
    let first = request(&[(A, true), (B, true)], "cccc", 0);
    let changed = request(&[(A, true), (B2, true)], "cccc", 0);
    let got = serve_all(&mut cache, &[first.clone(), first, changed]);
    // Prefixes: A = 8 bytes = 2 tokens, A+B = 16 bytes = 4 tokens; the tail is 1 token, so
    // each request is 5 tokens of input.
    // 1st: nothing cached: A written (2), then A+B (the 2 tokens after A): 4 written.
    assert_eq!(got[0], usage(1, 5, 0, 4, 1));
    // 2nd: A+B is cached: 4 read, nothing written.
    assert_eq!(got[1], usage(1, 5, 4, 0, 1));
    // 3rd: A+B2 is new, A is cached: 2 read, the 2 tokens of B2 written.
    assert_eq!(got[2], usage(1, 5, 2, 2, 1));
    let mut total = Usage::default();
    got.iter().for_each(|u| total.add(*u));
    assert_eq!(total, usage(3, 15, 6, 6, 3));
    // 6 of 15 served from the cache; cost 6 × 0.1 + 6 × 1.25 + 3 = 11.1, against 15.
    assert!((total.served() - 0.4).abs() < 1e-12);
    assert!((total.cost_ratio(Prices::ANTHROPIC) - 11.1 / 15.0).abs() < 1e-12);
}

#[test]
fn a_prefix_under_the_minimum_is_never_cached() {
    let mut cache = Cache::new(anthropic(3));
    let first = request(&[(A, true), (B, true)], "cccc", 0);
    let changed = request(&[(A, true), (B2, true)], "cccc", 0);
    let got = serve_all(&mut cache, &[first, changed]);
    // A is 2 tokens, under 3: never written, so A+B's write counts from 0 (4 tokens) and
    // A+B2 shares nothing cached: 4 written again.
    assert_eq!(got[0], usage(1, 5, 0, 4, 1));
    assert_eq!(got[1], usage(1, 5, 0, 4, 1));
    // A prompt with no cacheable breakpoint is all uncached input.
    let short = request(&[(A, true), ("bb", false)], "", 0);
    // 10 bytes = 3 tokens; A alone is 2.
    assert_eq!(cache.serve(&short).unwrap(), usage(1, 3, 0, 0, 3));
}

#[test]
fn more_breakpoints_than_the_limit_are_refused() {
    let mut cache = Cache::new(anthropic(1));
    let five = request(&[(A, true); 5], "", 0);
    let err = cache.serve(&five).unwrap_err();
    assert_eq!(
        err,
        TooManyBreakpoints {
            marked: 5,
            limit: 4
        }
    );
    // Four are served: each 8-byte block adds 2 tokens, written in turn.
    let four = request(&[(A, true); 4], "", 0);
    assert_eq!(cache.serve(&four).unwrap(), usage(1, 8, 0, 8, 0));
}

#[test]
fn a_breakpoint_at_the_same_place_is_one_entry() {
    let mut cache = Cache::new(anthropic(1));
    // The empty block's breakpoint ends where A's does: A is written once (2 tokens).
    let r = request(&[(A, true), ("", true), (B, false)], "", 0);
    assert_eq!(cache.serve(&r).unwrap(), usage(1, 4, 0, 2, 2));
    assert_eq!(cache.serve(&r).unwrap(), usage(1, 4, 2, 0, 2));
}

#[test]
fn an_entry_unused_for_the_ttl_is_gone_and_a_read_refreshes_it() {
    let mut cache = Cache::new(Config {
        ttl: Some(10),
        ..anthropic(1)
    });
    let at = |t| request(&[(A, true)], "", t);
    // Written at 0; read at 9 (9 < 10), which renews it; at 19 it is 10 s old: gone,
    // written again; at 25, 6 s old: read.
    let got = serve_all(&mut cache, &[at(0), at(9), at(19), at(25)]);
    let (write, read) = (usage(1, 2, 0, 2, 0), usage(1, 2, 2, 0, 0));
    assert_eq!(got, vec![write, read, write, read]);
}

#[test]
fn without_a_ttl_entries_last() {
    let mut cache = Cache::new(anthropic(1));
    let got = serve_all(
        &mut cache,
        &[
            request(&[(A, true)], "", 0),
            request(&[(A, true)], "", u64::MAX),
        ],
    );
    assert_eq!(got[1], usage(1, 2, 2, 0, 0));
}

#[test]
fn openai_caches_the_longest_prefix_in_steps_with_no_breakpoints() {
    let mut cache = Cache::new(Config {
        min_tokens: 4,
        step: 2,
        ..Config::of(Provider::OpenAi)
    });
    let x = "x".repeat(24);
    // Breakpoints do not matter (five are not refused); the whole request is cached, the
    // message too: 24 + 8 bytes = 8 tokens, cached at 4, 6 and 8 tokens.
    let first = request(&[(x.as_str(), true)], "yyyyyyyy", 0);
    let blocks: Vec<(&str, bool)> = vec![(&x[..8], true); 3]
        .into_iter()
        .chain([(&x[..0], true), (&x[..0], true)])
        .collect();
    let second = request(&blocks, "zzzzzzzz", 0);
    let got = serve_all(&mut cache, &[first, second]);
    // 1st: nothing cached: 4 + 2 + 2 written.
    assert_eq!(got[0], usage(1, 8, 0, 8, 0));
    // 2nd: the same 24 bytes, another message: 6 tokens read (the 6-token step), the
    // 8-token step is new: 2 written.
    assert_eq!(got[1], usage(1, 8, 6, 2, 0));
    let mut total = got[0];
    total.add(got[1]);
    // At a read of 0.5× and no surcharge: (6 × 0.5 + 10) / 16.
    let prices = Prices {
        read: 0.5,
        write: 1.0,
    };
    assert!((total.cost_ratio(prices) - 13.0 / 16.0).abs() < 1e-12);
}

#[test]
fn openai_caches_nothing_under_the_minimum() {
    let mut cache = Cache::new(Config {
        min_tokens: 4,
        step: 2,
        ..Config::of(Provider::OpenAi)
    });
    // 12 bytes = 3 tokens.
    let r = request(&[("xxxxxxxx", false)], "yyyy", 0);
    assert_eq!(cache.serve(&r).unwrap(), usage(1, 3, 0, 0, 3));
    assert_eq!(cache.serve(&r).unwrap(), usage(1, 3, 0, 0, 3));
}

#[test]
fn openai_with_no_minimum_caches_whole_steps_from_the_first() {
    // `min_tokens + k * step` with a minimum of 0: 2, 4, 6… tokens, never 1, 3, 5…
    let mut cache = Cache::new(Config {
        min_tokens: 0,
        step: 2,
        ..Config::of(Provider::OpenAi)
    });
    // 20 bytes = 5 tokens: cached at 2 and 4 tokens, 4 written.
    let first = request(&[("xxxxxxxxxxxxxxxx", false)], "yyyy", 0);
    assert_eq!(cache.serve(&first).unwrap(), usage(1, 5, 0, 4, 1));
    // 3 tokens in common with the first (12 bytes): the 2-token step is read.
    let second = request(&[("xxxxxxxxxxxx", false)], "zzzz", 0);
    assert_eq!(cache.serve(&second).unwrap(), usage(1, 4, 2, 2, 0));
}
