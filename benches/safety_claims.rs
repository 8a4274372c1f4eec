//! `doctrine::safety_claims` over instruction text of growing size (ordinary rules, the
//! common case: no sentence is reported, so every rule runs on every word). Its cost grows
//! linearly with the text. Then one long sentence of a word repeated, each word one that
//! starts a rule, so that a rule looking back or ahead over the sentence would cost the
//! square of its length (such rules were found and bounded in round 7).
//!
//! cargo bench --bench safety_claims

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use doctrine::{Instruction, InstructionSource};

/// The benign dev file of the test corpus, one sentence per line, `copies` times over.
fn text(copies: usize) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/doctrine-core/tests/data/safety_claims/benign_dev.txt"
    );
    let corpus = std::fs::read_to_string(path).expect("the corpus is readable");
    // Without the few the detector reports (false positives), so no sentence stops early.
    let lines: Vec<&str> = corpus
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter(|l| {
            doctrine::safety_claims(&[Instruction {
                source: InstructionSource::Project,
                scope: "AGENTS.md",
                locked: false,
                text: l,
            }])
            .is_empty()
        })
        .collect();
    (lines.join("\n") + "\n").repeat(copies)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("safety_claims");
    for copies in [1, 4, 16] {
        let text = text(copies);
        let instructions = [Instruction {
            source: InstructionSource::Project,
            scope: "AGENTS.md",
            locked: false,
            text: &text,
        }];
        assert!(doctrine::safety_claims(&instructions).is_empty());
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(text.len()),
            &instructions,
            |b, i| b.iter(|| doctrine::safety_claims(black_box(i))),
        );
    }
    group.finish();
    let mut group = c.benchmark_group("safety_claims_one_sentence");
    for word in ["run ", "ignore ", "delete it ", "consider it "] {
        for size in [16_384, 65_536] {
            let text = word.repeat(size / word.len());
            let instructions = [Instruction {
                source: InstructionSource::Project,
                scope: "AGENTS.md",
                locked: false,
                text: &text,
            }];
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(
                BenchmarkId::new(word.trim(), size),
                &instructions,
                |b, i| b.iter(|| doctrine::safety_claims(black_box(i))),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
