#!/usr/bin/env bash
# Times `cargo doctrine check`, `matrix` and `diff` (release binary, process start
# included) on the crew and modes examples: each command run N times (default 20), the
# mean per run printed. `diff` compares a copy of the example with one line added to a
# file every prompt shares (crew: base.md; modes: doctrine/core.md). Each is timed with the
# bytes / 4 estimate and with exact o200k counts (whose table loads once per run).
# Usage: bash benches/cli_times.sh [N]
set -euo pipefail
n=${1:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build -q --release -p cargo-doctrine --manifest-path "$root/Cargo.toml"
bin="$root/target/release/cargo-doctrine"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$work/Cargo.toml"
for m in crew modes; do
  cp -r "$root/examples/$m" "$work/$m-old"
  cp -r "$root/examples/$m" "$work/$m-new"
done
echo "One more line." >> "$work/crew-new/base.md"
echo "One more line." >> "$work/modes-new/doctrine/core.md"
mean() { # command…: the mean wall time of one run, in ms
  local start end
  start=$(date +%s%N)
  for _ in $(seq "$n"); do "$@" >/dev/null; done
  end=$(date +%s%N)
  echo "$(( (end - start) / n / 1000 ))" | awk '{ printf "%.1f ms", $1 / 1000 }'
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for m in crew modes; do
  old="$work/$m-old/doctrine.toml" new="$work/$m-new/doctrine.toml"
  echo "$m: check $(mean "$bin" check "$new"), matrix $(mean "$bin" matrix "$new"), diff $(mean "$bin" diff "$old" "$new")"
  echo "$m, --encoding o200k: check $(mean "$bin" check --encoding o200k "$new"), matrix $(mean "$bin" matrix --encoding o200k "$new"), diff $(mean "$bin" diff --encoding o200k "$old" "$new")"
done
