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
  mkdir -p "$crate/src"
  package=$(sed -n 's/^name = "\(doctrine[a-z-]*\)"/\1/p' "$repo/doctrine/Cargo.toml" | head -n 1)
  cp -r "$repo/tests/fixtures/handlebars" "$crate/src/handlebars"
  cp -r "$repo/benches/jinja_corpus" "$crate/src/jinja_corpus"
  cat > "$crate/Cargo.toml" <<TOML
[package]
name = "ir-templates"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
doctrine = { path = "$repo/doctrine", package = "$package" }
[profile.release]
debug = "line-tables-only"
[workspace]
TOML
  # The prompts and their values as `benches/templates.rs` has them.
  cat > "$crate/src/main.rs" <<'RUST'
use std::hint::black_box;
mod h {
    doctrine::doctrine!("handlebars/doctrine.toml");
}
mod r {
    doctrine::doctrine!("handlebars/review/doctrine.toml");
}
mod j {
    doctrine::doctrine!("jinja_corpus/doctrine.toml");
}
const TOOLS: [h::ToolsItem<'static>; 3] = [
    h::ToolsItem { name: "bash", risky: true },
    h::ToolsItem { name: "grep & find", risky: false },
    h::ToolsItem { name: "read", risky: false },
];
const NAMES: [&str; 3] = ["bash", "grep", "read"];
const NOTE: &str = "Keep <b>changes</b> small & \"reviewable\"; ask before `rm`.";
const FILES: [r::FilesItem<'static>; 3] = [
    r::FilesItem { path: "src/ledger.rs", lang: Some("Rust"), generated: false },
    r::FilesItem { path: "docs/<guide>.md", lang: None, generated: false },
    r::FilesItem { path: "src/schema.rs", lang: Some("Rust & SQL"), generated: true },
];
const JINJA_TOOLS: [&str; 3] = ["edit", "shell", "read"];
fn system() -> String {
    h::compose(h::Facts {
        project: black_box("ledger <core>"),
        note: black_box(NOTE),
        plan_hint: "list <files> & steps",
        phase: Some(h::Phase::Build),
        tools: black_box(&TOOLS),
        tool_names: &NAMES,
    })
    .flag(h::Flag::HasTools, true)
    .flag(h::Flag::UserRules, true)
    .finish()
    .into_string()
}
fn review() -> String {
    r::compose(r::Facts { reviewer: black_box(Some("Ada")), files: black_box(&FILES) })
        .flag(r::Flag::Strict, true)
        .finish()
        .into_string()
}
fn jinja() -> String {
    j::compose(j::Facts {
        branch: black_box(Some("main")),
        ci: None,
        detached: None,
        dirty: Some("true"),
        has_rules: Some("true"),
        mode: Some("build"),
        note: black_box(Some("Keep it small & safe.")),
        project: black_box("ledger"),
        rules_file: Some("RULES.md"),
        sandboxed: None,
        tools: black_box(&JINJA_TOOLS),
        user_rules: None,
    })
    .finish()
    .into_string()
}
fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_default();
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let prompt: fn() -> String = match which.as_str() {
        "system" => system,
        "review" => review,
        _ => jinja,
    };
    let mut total = 0;
    for _ in 0..n {
        total += black_box(prompt()).len();
    }
    println!("{total}");
}
RUST
  target="${IR_TARGET:-$crate/target}"
  (cd "$crate" && CARGO_TARGET_DIR="$target" cargo build --release -q) || { cat "$crate/src/main.rs"; exit 1; }
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
