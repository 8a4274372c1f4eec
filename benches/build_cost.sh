#!/usr/bin/env bash
# A user's cold `cargo build` of the quickstart prompt four ways, in one run: plain
# `include_str!` (the floor), askama (a template engine that also works at compile time),
# doctrine's macro, and doctrine's module written ahead of time (`ahead`). Each is a fresh
# crate with its own target directory, built ROUNDS times (default 2) from scratch,
# alternating, so a slow patch of a shared machine hits every way.
#
#   bash benches/build_cost.sh [ROUNDS]
#
# Prints the wall time and the CPU time (user + system, all processes) of each build, and
# the medians per way. Needs crates.io for askama, and `/usr/bin/time`.
#
#   BASELINE=path/to/other/checkout bash benches/build_cost.sh [ROUNDS]
#
# also builds the same doctrine crate from another checkout (the tree before a change, say),
# in the same rounds, as the way `baseline`.
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

doctrine_crate() { # name, checkout
  make_crate "$1" "doctrine-prompt = { path = \"$2/doctrine\" }" 'mod prompt {
    doctrine::doctrine!("doctrine.toml");
}
fn main() {
    println!("{}", prompt::compose(prompt::Role::Developer).finish());
}'
  cp "$2/examples/quickstart/doctrine.toml" "$work/$1/src/doctrine.toml"
}
doctrine_crate doctrine "$repo"
# The same prompt from a module written ahead of time (`cargo doctrine expand --out`), with
# the facade's default features off: the user's build compiles no macro and no generator.
# The tool that writes it is built first, untimed.
make_crate ahead "doctrine-prompt = { path = \"$repo/doctrine\", default-features = false }" 'mod prompt {
    include!("prompt.rs");
}
fn main() {
    println!("{}", prompt::compose(prompt::Role::Developer).finish());
}'
cp "$repo/examples/quickstart/doctrine.toml" "$work/ahead/src/doctrine.toml"
(cd "$repo" && cargo build -q -p cargo-doctrine)
(cd "$work/ahead" && "$repo/target/debug/cargo-doctrine" expand --out src/prompt.rs src/doctrine.toml)
ways="plain askama doctrine ahead"
if [ -n "${BASELINE:-}" ]; then
  doctrine_crate baseline "$(cd "$BASELINE" && pwd)"
  ways="$ways baseline"
fi

# Fetch everything first, so downloads are not timed.
for way in $ways; do (cd "$work/$way" && cargo fetch -q); done

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
declare -A walls cpus
for round in $(seq "$rounds"); do
  for way in $ways; do
    rm -rf "$work/$way/target"
    (cd "$work/$way" && /usr/bin/time -f '%e %U %S' -o "$work/time" cargo build -q --offline)
    read -r wall user sys < "$work/time"
    cpu=$(echo "$user + $sys" | bc)
    walls[$way]="${walls[$way]:-} $wall"
    cpus[$way]="${cpus[$way]:-} $cpu"
    echo "round $round: $way wall $wall s, cpu $cpu s"
  done
done
for way in $ways; do
  echo "median $way: wall $(echo ${walls[$way]} | median) s, cpu $(echo ${cpus[$way]} | median) s"
done
