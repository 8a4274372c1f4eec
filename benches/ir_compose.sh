#!/usr/bin/env bash
# Instructions per `compose(..)…finish()` of the crew's developer prompt, counted by
# valgrind's callgrind: unlike time, the count does not move with the load of a shared
# machine, so two trees can be compared on it.
#
#   bash benches/ir_compose.sh [DOCTRINE_DIR ...]    (default: this repository)
#
# IR_TOOLS=0 leaves the tool list out; IR_PREPARED=1 composes each prompt with
# `finish_prepared` from the seat's plan prepared once before the loop (a tree that has it).
#
# Each tree's crew example is built (release) into a scratch binary that composes the
# prompt N times; the count per prompt is the difference between N = 2,000 and N = 1,000
# divided by 1,000, so start-up costs cancel out.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for repo in "${@:-$here}"; do
  repo="$(cd "$repo" && pwd)"
  crate="$work/$(echo "$repo" | tr / _)"
  mkdir -p "$crate/src"
  # The facade is published as `doctrine-prompt` since issue 8; older trees call it `doctrine`.
  package=$(sed -n 's/^name = "\(doctrine[a-z-]*\)"/\1/p' "$repo/doctrine/Cargo.toml" | head -n 1)
  cp -r "$repo/examples/crew/." "$crate/src/"
  cat > "$crate/Cargo.toml" <<TOML
[package]
name = "ir-compose"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
doctrine = { path = "$repo/doctrine", package = "$package" }
[workspace]
TOML
  # Since session 3 the crew has a tool list (a list fact); give the developer's, as
  # benches/compose.rs does, where the tree has one (IR_TOOLS=0 leaves it out).
  seat='std::hint::black_box(Role::Developer)'
  if grep -q '^\[facts.tools\]' "$crate/src/doctrine.toml" && [ "${IR_TOOLS:-1}" != 0 ]; then
    seat='crew::Facts::from(std::hint::black_box(Role::Developer)).with_tools(std::hint::black_box(TOOLS))'
  fi
  cat > "$crate/src/main.rs" <<'RUST'
mod crew {
    doctrine::doctrine!("doctrine.toml");
}
use crew::{Identity, Role, Team};
#[allow(dead_code)]
const TOOLS: &[&str] = &["the repository", "the test runner", "the task board"];
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    PREPARE
    let mut total = 0;
    for _ in 0..n {
        let p = crew::compose(SEAT, Team::Backend, Identity::BeDev1)
            .flag(crew::Flag::Fable, true)
            .knobs(crew::Knobs { intensity: crew::Intensity::Full })
            .ambient(None)
            .FINISH;
        total += std::hint::black_box(p).as_str().len();
    }
    println!("{total}");
}
RUST
  sed -i "s|SEAT|$seat|" "$crate/src/main.rs"
  if [ "${IR_PREPARED:-0}" = 1 ]; then
    prepare='let prepared = crew::compose(crew::Facts::from(Role::Developer), Team::Backend, Identity::BeDev1).flag(crew::Flag::Fable, true).knobs(crew::Knobs { intensity: crew::Intensity::Full }).prepare();'
    sed -i "s|PREPARE|$prepare|; s|FINISH|finish_prepared(\&prepared)|" "$crate/src/main.rs"
  else
    sed -i "s|PREPARE||; s|FINISH|finish()|" "$crate/src/main.rs"
  fi
  (cd "$crate" && cargo build --release -q) || { cat "$crate/src/main.rs"; exit 1; }
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$crate/target/release/ir-compose" "$1" 2>&1 \
      | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
  }
  a=$(count 1000)
  b=$(count 2000)
  with=$([ "$seat" = 'std::hint::black_box(Role::Developer)' ] && echo "no tool list" || echo "the developer's tool list")
  how=$([ "${IR_PREPARED:-0}" = 1 ] && echo ", prepared" || echo "")
  echo "$repo: $(( (b - a) / 1000 )) instructions per compose ($with$how)"
done
