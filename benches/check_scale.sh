#!/usr/bin/env bash
# `cargo check` of a crate whose manifest has N slot layers, for the scale table in
# BENCHMARKS.md: wall time and peak memory (GNU time's "Maximum resident set size", the
# largest process of the build, i.e. rustc).
#
#   bash benches/check_scale.sh [DOCTRINE_DIR] [N ...]
#   SLOT_EVERY=100 RUN=1 bash benches/check_scale.sh . 10000
#
# N counts layers; by default every layer is a slot (SLOT_EVERY=1), so N is also the
# number of slots; SLOT_EVERY=100 makes every 100th layer a slot. RUN=1 also builds the
# crate (debug) and composes its prompt on a 2 MiB thread. (A chain of 10,000 stage calls
# in one expression overflows rustc's own stack, whatever the generated code.)
#
# DOCTRINE_DIR is the repository to measure (default: this one), so an older checkout can
# be measured the same way. Dependencies are built once before timing; each measured run
# checks only the generated crate.
set -euo pipefail
repo="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
shift || true
sizes=("${@:-100 1000 5000}")
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for n in ${sizes[@]}; do
  crate="$work/scale$n"
  mkdir -p "$crate/src"
  cat > "$crate/Cargo.toml" <<TOML
[package]
name = "scale$n"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
doctrine = { package = "doctrine-prompt", path = "$repo/doctrine" }
[workspace]
TOML
  python3 "$here/scale.py" "$n" "${SLOT_EVERY:-1}" "$crate/src/doctrine.toml" "$crate/chain.txt"
  # The prompt is composed on a 2 MiB thread (a test thread's), so the run below shows that a large
  # manifest's `finish()` keeps its per-layer arrays off the stack in a debug build.
  printf 'mod p {\n    doctrine::doctrine!("doctrine.toml");\n}\nfn main() {\n    let t = std::thread::Builder::new().stack_size(2 * 1024 * 1024);\n    let len = t.spawn(|| p::compose()%s.finish().as_str().len()).unwrap().join().unwrap();\n    println!("composed %s layers on a 2 MiB stack: {len} bytes");\n}\n' \
    "$(cat "$crate/chain.txt")" "$n" > "$crate/src/main.rs"
  # Build the dependencies first (not timed), with the crate itself stubbed out.
  mv "$crate/src/main.rs" "$crate/main.rs.real"
  echo 'fn main() {}' > "$crate/src/main.rs"
  (cd "$crate" && CARGO_TARGET_DIR="$work/target" cargo check -q)
  mv "$crate/main.rs.real" "$crate/src/main.rs"
  touch "$crate/src/main.rs"
  (cd "$crate" && CARGO_TARGET_DIR="$work/target" /usr/bin/time -f "$n layers, every ${SLOT_EVERY:-1} a slot: cargo check %e s wall, %U s user, %M KB max RSS, exit %x" cargo check -q 2>&1 | tail -1)
  if [ "${RUN:-0}" = 1 ]; then
    (cd "$crate" && CARGO_TARGET_DIR="$work/target" cargo run -q 2>&1 | tail -1)
  fi
done
