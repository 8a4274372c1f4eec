//! Code generation as a library function (`doctrine_codegen::generate`) on synthetic
//! manifests of 10, 100 and 1,000 layers: it reads the manifest and every file, validates,
//! and expands to a `TokenStream`.
//!
//! cargo bench --features bench --bench codegen

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use doctrine_codegen::{generate, Request};
use tempfile::TempDir;

const ROLES: [&str; 5] = ["developer", "architect", "reviewer", "qa", "pm"];
const SIZES: [usize; 3] = [10, 100, 1_000];

/// Markdown of about `bytes` bytes, different per `seed`.
fn markdown(seed: usize, bytes: usize, frontmatter: bool) -> String {
    let mut s = String::with_capacity(bytes + 128);
    if frontmatter {
        write!(
            s,
            "---\nname: layer-{seed}\nsource: vendored playbook\nversion: 1.{seed}.0\nlicence: MIT\n---\n"
        )
        .unwrap();
    }
    write!(s, "# Layer {seed}\n\n").unwrap();
    let mut line = 0usize;
    while s.len() < bytes {
        if line.is_multiple_of(12) {
            write!(s, "\n## Section {seed}.{line}\n\n").unwrap();
        }
        writeln!(
            s,
            "- Rule {seed}.{line}: keep the change small, test it, and record the evidence in the task before moving on."
        )
        .unwrap();
        line += 1;
    }
    s
}

/// Writes a manifest of `layers` layers and their files into a fresh crate directory.
/// Returns the directory and the number of content bytes written.
///
/// The mix, by `i % 10`: 0–4 `file` (every fifth of those with YAML frontmatter, stripped),
/// 5–7 `files` per role with a default (two files each), 8 inline `text`, 9 `file` scoped to
/// two roles and gated on a flag. The whole manifest is trimmed.
fn fixture(layers: usize, body: usize) -> (TempDir, usize) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"bench\"\n",
    )
    .unwrap();
    let md = dir.path().join("md");
    std::fs::create_dir(&md).unwrap();
    let bytes = std::cell::Cell::new(0);
    let write = |name: String, text: String| {
        bytes.set(bytes.get() + text.len());
        std::fs::write(md.join(&name), text).unwrap();
        format!("md/{name}")
    };

    let roles = ROLES.map(|r| format!("\"{r}\"")).join(", ");
    let mut toml = format!("roles = [{roles}]\ntrim = true\n\n[flags]\nextra = true\n");
    for i in 0..layers {
        write!(toml, "\n[[layer]]\nname = \"layer_{i:04}\"\n").unwrap();
        match i % 10 {
            0..=4 => {
                let fm = i % 5 == 0;
                let path = write(format!("l{i:04}.md"), markdown(i, body, fm));
                writeln!(toml, "file = \"{path}\"").unwrap();
                if fm {
                    toml.push_str("frontmatter = \"strip\"\n");
                }
            }
            5..=7 => {
                let dev = write(format!("l{i:04}-developer.md"), markdown(i, body, false));
                let other = write(format!("l{i:04}.md"), markdown(i + 1_000_000, body, false));
                write!(
                    toml,
                    "[layer.files]\ndeveloper = \"{dev}\"\nqa = \"{dev}\"\ndefault = \"{other}\"\n"
                )
                .unwrap();
            }
            8 => {
                let text = markdown(i, body, false);
                bytes.set(bytes.get() + text.len());
                write!(toml, "text = '''\n{text}'''\n").unwrap();
            }
            _ => {
                let path = write(format!("l{i:04}.md"), markdown(i, body, false));
                write!(
                    toml,
                    "file = \"{path}\"\nroles = [\"developer\", \"reviewer\"]\nwhen = \"extra\"\n"
                )
                .unwrap();
            }
        }
    }
    std::fs::write(dir.path().join("doctrine.toml"), toml).unwrap();
    (dir, bytes.get())
}

fn request(dir: &Path) -> Request {
    Request::new("doctrine.toml", dir, dir)
}

fn group(c: &mut Criterion, name: &str, body: usize) {
    let mut group = c.benchmark_group(name);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    group.sample_size(20);
    for layers in SIZES {
        let (dir, bytes) = fixture(layers, body);
        let req = request(dir.path());
        let tokens = generate(&req).unwrap_or_else(|e| panic!("{name}/{layers}: {e:?}"));
        println!(
            "{name}/{layers}: {bytes} content bytes, {} bytes of generated tokens",
            tokens.to_string().len()
        );
        group.throughput(Throughput::Elements(layers as u64));
        group.bench_with_input(BenchmarkId::from_parameter(layers), &req, |b, req| {
            b.iter(|| generate(black_box(req)).unwrap())
        });
    }
    group.finish();
}

fn bench(c: &mut Criterion) {
    group(c, "codegen_10KB", 10_000);
    group(c, "codegen_200B", 200);
}

criterion_group!(benches, bench);
criterion_main!(benches);
