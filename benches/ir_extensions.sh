#!/usr/bin/env bash
# Instructions per call of each `extensions/*` benchmark of `benches/compose.rs` (doctrine's
# prompt and minijinja's render of the same session), counted by valgrind's callgrind: a
# count does not move with the load of a shared machine, as time does.
#
#   bash benches/ir_extensions.sh
#
# Each benchmark runs under callgrind for 2 s of criterion's `--profile-time`; the count
# per call is the measured function's inclusive instructions over its calls.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
bin=$(cargo bench --features bench --bench compose --no-run --message-format=json 2>/dev/null |
  sed -n 's/.*"executable":"\([^"]*compose-[^"]*\)".*/\1/p' | tail -n 1)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# benchmark, then the function whose calls are counted
for pair in doctrine:compose::extensions_prompt \
  doctrine_unsanitized:compose::unsanitized_prompt \
  minijinja_render:compose::extensions_jinja::render \
  minijinja_context_and_render:compose::extensions_jinja::value; do
  bench=${pair%%:*} fn=${pair#*:}
  valgrind --tool=callgrind --callgrind-out-file="$out/$bench" \
    "$bin" --bench --profile-time 2 "extensions/$bench\$" >/dev/null 2>&1
  python3 - "$out/$bench" "$fn" "$bench" <<'PY'
import re, sys
path, want, bench = sys.argv[1:]
names, callee, calls, ir = {}, None, 0, 0
lines = open(path).read().split("\n")
for i, line in enumerate(lines):
    m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(3):
            names[m.group(2)] = m.group(3)
        if m.group(1) == "cfn":
            callee = names.get(m.group(2))
        continue
    if line.startswith("calls=") and callee == want:
        calls += int(line.split("=")[1].split()[0])
        ir += int(lines[i + 1].split()[1])
print(f"{bench}: {want}: {ir // max(calls, 1):,} instructions per call ({calls:,} calls)")
PY
done
