#!/usr/bin/env bash
# `cargo check` of a crate whose manifest has N `[models]` rules, for BENCHMARKS.md: wall
# time and peak memory (GNU time's "Maximum resident set size", i.e. rustc), and with
# RUN=1 a debug run matching the last rule's name.
#
#   bash benches/models_scale.sh [N ...]        (default: 0 1000 10000)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
sizes=("${@:-0 1000 10000}")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for n in ${sizes[@]}; do
  crate="$work/models$n"
  mkdir -p "$crate/src/base"
  printf '[package]\nname = "models%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n[dependencies]\ndoctrine = { package = "doctrine-prompt", path = "%s/doctrine" }\n[workspace]\n' "$n" "$repo" > "$crate/Cargo.toml"
  for v in long short plain; do echo "Work $v." > "$crate/src/base/$v.md"; done
  python3 - "$n" "$crate/src/doctrine.toml" <<'PY'
import sys
n, out = int(sys.argv[1]), sys.argv[2]
lines = ['[flags]', 'patch = false', '[formulation]', 'families = { claude = "tagged" }',
         '[[layer]]', 'name = "base"', 'dir = "base"', 'title = "Base"',
         '[models]', 'default = { base = "plain" }', '[models.rules]']
variants = ["long", "short", "plain"]
for i in range(n):
    extra = ', flags = ["patch"], family = "claude"' if i % 2 else ''
    lines.append(f'"m{i}" = {{ base = "{variants[i % 3]}"{extra} }}')
open(out, "w").write("\n".join(lines) + "\n")
PY
  printf 'mod p {\n    doctrine::doctrine!("doctrine.toml");\n}\nfn main() {\n    let t = std::time::Instant::now();\n    let prompt = p::compose(p::Base::Plain).model("m%s-x").finish();\n    println!("{} rules: matched {:?} in {:?}", p::ModelRule::ALL.len(), prompt.model().map(|m| m.to_string()), t.elapsed());\n}\n' "$((n > 0 ? n - 1 : 0))" > "$crate/src/main.rs"
  mv "$crate/src/main.rs" "$crate/main.rs.real"
  echo 'fn main() {}' > "$crate/src/main.rs"
  (cd "$crate" && CARGO_TARGET_DIR="$work/target" cargo check -q)
  mv "$crate/main.rs.real" "$crate/src/main.rs"
  touch "$crate/src/main.rs"
  (cd "$crate" && CARGO_TARGET_DIR="$work/target" /usr/bin/time -f "$n model rules: cargo check %e s wall, %U s user, %M KB max RSS, exit %x" cargo check -q 2>&1 | tail -1)
  if [ "${RUN:-0}" = 1 ]; then
    (cd "$crate" && CARGO_TARGET_DIR="$work/target" cargo run -q 2>&1 | tail -1)
  fi
done
