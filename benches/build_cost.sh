#!/usr/bin/env bash
# A user's cold `cargo build` of the quickstart prompt three ways, in one run: plain
# `include_str!` (the floor), askama (a template engine that also works at compile time),
# and doctrine. Each is a fresh crate with its own target directory, built ROUNDS times
# (default 2) from scratch, alternating, so a slow patch of a shared machine hits all three.
#
#   bash benches/build_cost.sh [ROUNDS]
#
# Prints the wall time of each build and the median per way. Needs crates.io for askama.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-2}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prompts="$repo/examples/quickstart/prompts"

make_crate() { # name, dependency line, main.rs
  mkdir -p "$work/$1/src/prompts" "$work/$1/templates"
  cp "$prompts"/*.md "$work/$1/src/prompts/"
  cp "$prompts"/*.md "$work/$1/templates/"
  printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n[dependencies]\n%s\n[workspace]\n' "$1" "$2" > "$work/$1/Cargo.toml"
  printf '%s\n' "$3" > "$work/$1/src/main.rs"
}

make_crate plain "" 'fn main() {
    let p = [include_str!("prompts/base.md").trim(), include_str!("prompts/developer.md").trim()].join("\n\n---\n\n");
    println!("{p}");
}'

make_crate askama 'askama = "0.16"' '#[derive(askama::Template)]
#[template(source = "{% include \"base.md\" %}\n---\n\n{% include \"developer.md\" %}", ext = "txt")]
struct Developer;
fn main() {
    println!("{}", askama::Template::render(&Developer).unwrap());
}'

make_crate doctrine "doctrine-prompt = { path = \"$repo/doctrine\" }" 'mod prompt {
    doctrine::doctrine!("doctrine.toml");
}
fn main() {
    println!("{}", prompt::compose(prompt::Role::Developer).finish());
}'
cp "$repo/examples/quickstart/doctrine.toml" "$work/doctrine/src/doctrine.toml"

# Fetch everything first, so downloads are not timed.
for way in plain askama doctrine; do (cd "$work/$way" && cargo fetch -q); done

declare -A times
for round in $(seq "$rounds"); do
  for way in plain askama doctrine; do
    rm -rf "$work/$way/target"
    start=$(date +%s.%N)
    (cd "$work/$way" && cargo build -q --offline)
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc)
    times[$way]="${times[$way]:-} $t"
    echo "round $round: $way $t s"
  done
done
for way in plain askama doctrine; do
  median=$(echo ${times[$way]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
  echo "median $way: $median s"
done
