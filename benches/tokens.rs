//! Exact token counting (feature `tokens`) on a 100 KB prompt: this repository's example
//! markdown, repeated and cut to 100,000 bytes, in each encoding; the table is loaded
//! before timing (that is once per process: BENCHMARKS.md, "Token counting").
//!
//! cargo bench --features bench --bench tokens

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use doctrine_core::tokens::Encoding;

/// Every `.md` under `examples/`, sorted by path, repeated and cut (at a character
/// boundary) to at most 100,000 bytes.
fn prompt() -> String {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"),
        &mut files,
    );
    files.sort();
    let base: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let mut text = base.repeat(100_000 / base.len() + 1);
    let mut end = 100_000;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text
}

fn counting(c: &mut Criterion) {
    let text = prompt();
    let mut group = c.benchmark_group("tokens");
    group.throughput(Throughput::Bytes(text.len() as u64));
    for encoding in Encoding::ALL {
        // Loads the table, and says what is counted.
        eprintln!(
            "{encoding}: {} tokens in {} bytes",
            encoding.count(&text),
            text.len()
        );
        group.bench_with_input(BenchmarkId::new("count", encoding), &text, |b, t| {
            b.iter(|| encoding.count(black_box(t)))
        });
    }
    group.finish();
}

criterion_group!(benches, counting);
criterion_main!(benches);
