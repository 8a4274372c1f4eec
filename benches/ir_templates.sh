#!/usr/bin/env bash
# Instructions per `compose(..)…finish()` of each corpus prompt `benches/templates.rs`
# composes (`system.hbs`, `review.hbs`, the Jinja corpus), with the same values, counted by
# valgrind's callgrind: unlike time, the count does not move with the load of a shared
# machine, so two trees can be compared on it.
#
#   bash benches/ir_templates.sh [DOCTRINE_DIR ...]    (default: this repository)
#
# As `benches/ir_compose.sh`: each tree's prompts are built (release) into a scratch binary
# that composes one of them N times; the count per prompt is the difference between
# N = 2,000 and N = 1,000 divided by 1,000, so start-up costs cancel out. IR_TARGET keeps
# the build between calls (a target directory; by default each call builds anew);
# IR_PROFILE=DIR keeps each N = 2,000 profile there, for `callgrind_annotate`.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for repo in "${@:-$here}"; do
  repo="$(cd "$repo" && pwd)"
  crate="$work/$(echo "$repo" | tr / _)"
  mkdir -p "$crate"
  package=$(sed -n 's/^name = "\(doctrine[a-z-]*\)"/\1/p' "$repo/doctrine/Cargo.toml" | head -n 1)
  # The prompts and their values are `benches/corpus/prompts.rs`, this checkout's (the
  # bench's own), over each tree's fixtures laid out as in a checkout.
  mkdir -p "$crate/benches/corpus" "$crate/tests/fixtures"
  cp "$here/benches/corpus/prompts.rs" "$crate/benches/corpus/"
  cp -r "$repo/tests/fixtures/handlebars" "$crate/tests/fixtures/handlebars"
  cp -r "$repo/benches/jinja_corpus" "$crate/benches/jinja_corpus"
  cat > "$crate/Cargo.toml" <<TOML
[package]
name = "ir-templates"
version = "0.0.0"
edition = "2021"
publish = false
[[bin]]
name = "ir-templates"
path = "benches/ir.rs"
[dependencies]
doctrine = { path = "$repo/doctrine", package = "$package" }
[profile.release]
debug = "line-tables-only"
[workspace]
TOML
  cat > "$crate/benches/ir.rs" <<'RUST'
use std::hint::black_box;
#[path = "corpus/prompts.rs"]
mod prompts;
fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_default();
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut total = 0;
    for _ in 0..n {
        total += match which.as_str() {
            "system" => black_box(prompts::doctrine_prompt()).as_str().len(),
            "review" => black_box(prompts::review_prompt()).as_str().len(),
            _ => black_box(prompts::jinja_prompt()).as_str().len(),
        };
    }
    println!("{total}");
}
RUST
  target="${IR_TARGET:-$crate/target}"
  (cd "$crate" && CARGO_TARGET_DIR="$target" cargo build --release -q) || exit 1
  for prompt in system review jinja; do
    count() {
      valgrind --tool=callgrind --callgrind-out-file="$2" "$target/release/ir-templates" "$prompt" "$1" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    keep=/dev/null
    if [ -n "${IR_PROFILE:-}" ]; then
      keep="$IR_PROFILE/$(basename "$repo").$prompt.out"
    fi
    a=$(count 1000 /dev/null)
    b=$(count 2000 "$keep")
    echo "$repo: $prompt: $(( (b - a) / 1000 )) instructions per compose"
  done
done
