#!/usr/bin/env bash
# The cache simulator's figures (BENCHMARKS.md, "Cache simulator (issue 20)"): each example
# under each layout, one line each: the fraction of input tokens served from the cache and
# the cost against no caching. Extra arguments go to every run (e.g. --min-cache-tokens 512,
# --encoding o200k). A manifest that declares tiers, run with no --breakpoints-after, is
# cut where its `Prompt::blocks()` cuts it.
# Usage: bash benches/cache_sim.sh [SIMULATE OPTIONS…]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build -q --release -p cargo-doctrine --manifest-path "$root/Cargo.toml"
bin="$root/target/release/cargo-doctrine"
cd "$root"
run() { # label, simulate arguments…
  local label=$1
  shift
  "$bin" simulate "$@" | awk -v l="$label" -F'[:;]' '/^served from cache/ { printf "%-58s %s;%s\n", l, $2, $4 }'
}
crew=(--flag fable "$@")
run "crew, two tiers" examples/crew/doctrine.toml "${crew[@]}"
run "crew, tiers in the manifest's order (after base, role)" examples/crew/doctrine.toml \
  --breakpoints-after base,role,identity "${crew[@]}"
run "crew, shared_first.toml, two tiers" examples/crew/layouts/shared_first.toml "${crew[@]}"
run "crew, shared_first.toml, shared | role | session" examples/crew/layouts/shared_first.toml \
  --breakpoints-after identity,role,tool_directive "${crew[@]}"
run "crew, role_first.toml, role | session" examples/crew/layouts/role_first.toml \
  --breakpoints-after identity,tool_directive "${crew[@]}"
run "crew, tiered.toml, its tiers shared | role | session" examples/crew/tiered.toml "${crew[@]}"
modes=(--session-bytes 1500 "$@")
run "modes, two tiers" examples/modes/doctrine.toml "${modes[@]}"
run "modes, shared | session | role" examples/modes/doctrine.toml \
  --breakpoints-after doctrine,shell,baseline "${modes[@]}"
run "modes, role_before_session.toml, shared | role | session" \
  examples/modes/layouts/role_before_session.toml --breakpoints-after doctrine,mode,baseline "${modes[@]}"
run "modes, mode_first.toml, role | session" examples/modes/layouts/mode_first.toml \
  --breakpoints-after mode,baseline "${modes[@]}"
run "modes, tiered.toml, its tiers doctrine | session | mode" examples/modes/layouts/tiered.toml \
  "${modes[@]}"
