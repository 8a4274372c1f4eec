//! The modes example: each mode's full prompt against a memcpy of the same bytes, and the
//! per-turn cost of the volatile part alone when the stable prefix is reused.
//!
//! cargo bench --features bench --bench modes

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

mod modes {
    doctrine::doctrine!("../examples/modes/doctrine.toml");
}

use modes::{Facts, Mode};

/// Every fact the mode takes, with realistic values; `stable_size` pads the stable facts
/// that carry documents (overview, pack, plan).
fn facts(mode: Mode, stable_size: usize) -> Vec<(&'static str, String)> {
    let doc = "A short line of repository context for the model.\n".repeat(stable_size / 50 + 1);
    Facts::takes(mode)
        .iter()
        .map(|&name| {
            let value = match name {
                "root" => "/home/dev/repo".to_string(),
                "platform" => "linux".to_string(),
                "shell" => "bash".to_string(),
                "overview" | "pack" | "plan" => doc.clone(),
                "scope" => "storage".to_string(),
                "today" => "2026-11-29".to_string(),
                "room" => "pairing".to_string(),
                "personality" => "calm and direct".to_string(),
                "extramile" => "on".to_string(),
                "mcp" => "github, linear".to_string(),
                "nudge" => "wrapup".to_string(),
                other => other.to_string(),
            };
            (name, value)
        })
        .collect()
}

fn typed<'a>(mode: Mode, pairs: &'a [(&'static str, String)]) -> Facts<'a> {
    Facts::from_pairs(mode, pairs.iter().map(|(k, v)| (*k, v.as_str()))).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("modes_full");
    for &mode in Mode::ALL {
        let pairs = facts(mode, 1_000);
        let f = typed(mode, &pairs);
        let bytes = modes::compose(f)
            .extra(Some("Keep it short."))
            .finish()
            .into_string();
        println!("modes_full/{mode}: {} bytes", bytes.len());
        group.bench_function(BenchmarkId::new("generated", mode), |b| {
            b.iter(|| {
                modes::compose(black_box(f))
                    .extra(black_box(Some("Keep it short.")))
                    .finish()
            })
        });
        group.bench_function(BenchmarkId::new("memcpy", mode), |b| {
            b.iter(|| {
                let mut s = String::with_capacity(bytes.len());
                s.push_str(black_box(&bytes));
                s
            })
        });
    }
    group.finish();

    // The per-turn path: the stable prefix (here 1 KB, 10 KB, 100 KB of stable facts) is
    // composed once and reused; each turn composes only the volatile part.
    let mut group = c.benchmark_group("modes_volatile_only");
    for stable_size in [1_000, 10_000, 100_000] {
        let pairs = facts(Mode::Plan, stable_size);
        let f = typed(Mode::Plan, &pairs);
        let whole = modes::compose(f).extra(Some("Keep it short.")).finish();
        println!(
            "modes_volatile_only/{stable_size}: stable {} bytes, volatile {} bytes",
            whole.stable().len(),
            whole.volatile().len()
        );
        group.bench_function(BenchmarkId::new("finish_volatile", stable_size), |b| {
            b.iter(|| {
                modes::compose(black_box(f))
                    .extra(black_box(Some("Keep it short.")))
                    .finish_volatile()
            })
        });
        group.bench_function(BenchmarkId::new("finish_whole", stable_size), |b| {
            b.iter(|| {
                modes::compose(black_box(f))
                    .extra(black_box(Some("Keep it short.")))
                    .finish()
            })
        });
        let volatile = whole.volatile().to_string();
        group.bench_function(BenchmarkId::new("memcpy_volatile", stable_size), |b| {
            b.iter(|| {
                let mut s = String::with_capacity(volatile.len());
                s.push_str(black_box(&volatile));
                s
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
