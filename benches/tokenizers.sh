#!/usr/bin/env bash
# The two maintained crates that count OpenAI's o200k_base / cl100k_base tokens exactly,
# tiktoken-rs and bpe-openai, side by side: a cold release build of a program using each
# (wall and CPU), its binary's size, the time to load o200k_base, and tokens per second on
# a 100 KB prompt (this repository's example markdown, repeated). Both must count alike.
#
#   bash benches/tokenizers.sh
#
# Needs crates.io and `/usr/bin/time`. BENCHMARKS.md, "Token counting".
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
find "$repo/examples" -name '*.md' | sort | xargs cat > "$work/base.txt"
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
s = open(f"{work}/base.txt").read()
out = ""
while len(out.encode()) < 100_000:
    out += s
open(f"{work}/100k.txt", "w").write(out[:100_000])
PY

program() { # name, dependency line, load expression, count expression
  mkdir -p "$work/$1/src"
  printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n[dependencies]\n%s\n[workspace]\n' "$1" "$2" > "$work/$1/Cargo.toml"
  cat > "$work/$1/src/main.rs" <<RS
use std::time::Instant;
fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let t = Instant::now();
    let o200k = $3;
    let n = $4;
    let load = t.elapsed();
    let t = Instant::now();
    for _ in 0..20 {
        assert_eq!($4, n);
    }
    let per = t.elapsed().as_secs_f64() / 20.0;
    println!("$1: {n} tokens; load and first count {:.0} ms; {:.1} MB/s", load.as_secs_f64() * 1e3, text.len() as f64 / per / 1e6);
}
RS
}
program tiktoken 'tiktoken-rs = "0.12"' 'tiktoken_rs::o200k_base().unwrap()' 'o200k.encode_ordinary(&text).len()'
program bpe 'bpe-openai = "0.3"' 'bpe_openai::o200k_base()' 'o200k.count(&text)'
for way in tiktoken bpe; do (cd "$work/$way" && cargo fetch -q); done
for way in tiktoken bpe; do
  (cd "$work/$way" && /usr/bin/time -f "$way: cold release build %e s wall, %U + %S s CPU" cargo build -q --release --offline)
  echo "$way: binary $(stat -c %s "$work/$way/target/release/$way") bytes"
done
for round in 1 2 3; do
  for way in tiktoken bpe; do "$work/$way/target/release/$way" "$work/100k.txt"; done
done
