//! The word-rule engine ([`WordRules`], groups `safety_claims*`) and the built-in
//! [`Patterns`] (groups `patterns*`) over instruction text of growing size (ordinary rules,
//! the common case: no sentence is reported, so every rule runs on every word). The cost
//! grows linearly with the text. Then one long sentence of a word repeated, each word one
//! that starts a rule, so that a rule looking back or ahead over the sentence would cost
//! the square of its length (such rules were found and bounded in round 7).
//!
//! cargo bench --features bench --bench safety_claims

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use doctrine_claims::scan;
use doctrine_claims::Patterns;
use doctrine_claims::WordRules;
use doctrine_core::instructions::{Authority, Instruction};
use doctrine_core::tripwire::Tripwire;

fn project(text: &str) -> [Instruction<'_>; 1] {
    [Instruction {
        source: Authority::Project,
        scope: "AGENTS.md",
        locked: false,
        text,
    }]
}

/// The benign dev file of the test corpus, one sentence per line, `copies` times over,
/// without the few either tripwire reports (false positives), so no sentence stops early.
fn text(copies: usize) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/safety_claims/benign_dev.txt"
    );
    let corpus = std::fs::read_to_string(path).expect("the corpus is readable");
    let quiet = |l: &str| {
        let tripwires: [&dyn Tripwire; 2] = [&WordRules, &Patterns];
        tripwires
            .iter()
            .all(|t| scan(&project(l), &[], *t).is_empty())
    };
    let lines: Vec<&str> = corpus
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter(|l| quiet(l))
        .collect();
    (lines.join("\n") + "\n").repeat(copies)
}

fn bench_one(c: &mut Criterion, name: &str, tripwire: &dyn Tripwire) {
    let mut group = c.benchmark_group(name);
    for copies in [1, 4, 16] {
        let text = text(copies);
        let instructions = project(&text);
        assert!(scan(&instructions, &[], tripwire).is_empty());
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(text.len()),
            &instructions,
            |b, i| b.iter(|| scan(black_box(i), &[], tripwire)),
        );
    }
    group.finish();
    let mut group = c.benchmark_group(format!("{name}_one_sentence"));
    for word in ["run ", "ignore ", "delete it ", "consider it "] {
        for size in [16_384, 65_536] {
            let text = word.repeat(size / word.len());
            let instructions = project(&text);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(
                BenchmarkId::new(word.trim(), size),
                &instructions,
                |b, i| b.iter(|| scan(black_box(i), &[], tripwire)),
            );
        }
    }
    group.finish();
}

fn bench(c: &mut Criterion) {
    bench_one(c, "safety_claims", &WordRules);
    bench_one(c, "patterns", &Patterns);
}

criterion_group!(benches, bench);
criterion_main!(benches);
