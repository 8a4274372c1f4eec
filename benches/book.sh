#!/usr/bin/env bash
# The prompt book's targets (issue 29): the crew's page size, the time to build it with the
# release tool, and headless Chromium's time to open it (against an empty page, Chromium's
# own start). Usage: bash benches/book.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
out="$(mktemp -d)"
cargo build --release -q -p cargo-doctrine
printf '<!DOCTYPE html><p>x\n' > "$out/empty.html"
for i in $(seq "$rounds"); do
    /usr/bin/time -f "build %e s" ./target/release/cargo-doctrine book examples/crew/doctrine.toml --out "$out" >/dev/null
done
echo "size $(wc -c < "$out/index.html") bytes"
for page in index.html empty.html; do
    for i in $(seq "$rounds"); do
        /usr/bin/time -f "chromium --dump-dom $page %e s" chromium --headless --no-sandbox --disable-gpu \
            --dump-dom "file://$out/$page" >/dev/null 2>"$out/err" || cat "$out/err"
        tail -1 "$out/err"
    done
done
rm -r "$out"
