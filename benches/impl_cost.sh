#!/usr/bin/env bash
# What a generated closed set costs rustc, impl by impl: `cargo check` of N two-variant
# enums (default 2,000) with more and more of what a generated knob enum carries, each line
# giving user CPU and peak memory (GNU time's %U and %M). The evidence for the knob row of
# "Issue 25: wide manifests" in BENCHMARKS.md.
#
#   bash benches/impl_cost.sh [DOCTRINE_DIR] [N]
set -euo pipefail
repo="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
n="${2:-2000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cat > "$work/Cargo.toml" <<TOML
[package]
name = "impl-cost"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
doctrine = { package = "doctrine-prompt", path = "$repo/doctrine" }
[workspace]
TOML

# The impls of a knob as the generator writes them, `T` standing for the type.
inherent='impl T { pub const ALL: &'"'"'static [T] = &[T::A, T::B]; pub const NAMES: &'"'"'static [&'"'"'static str] = &["a", "b"]; pub const fn as_str(self) -> &'"'"'static str { Self::NAMES[self as usize] } }'
choice='doctrine::__choice_impls!(T, "t", ["A", "B"]);'
default='impl ::core::default::Default for T { fn default() -> Self { T::A } }'
empty_fn='impl M for T { fn f() {} }'
# The same traits, each written by hand with the smallest body that keeps its behaviour.
by_hand='impl ::core::clone::Clone for T { fn clone(&self) -> Self { *self } } impl ::core::marker::Copy for T {} impl ::core::cmp::Eq for T {}
impl ::core::hash::Hash for T { fn hash<H: ::core::hash::Hasher>(&self, h: &mut H) { h.write_isize(*self as isize) } }
impl ::core::cmp::PartialOrd for T { fn partial_cmp(&self, o: &Self) -> ::core::option::Option<::core::cmp::Ordering> { ::core::option::Option::Some(::core::cmp::Ord::cmp(self, o)) } }
impl ::core::cmp::Ord for T { fn cmp(&self, o: &Self) -> ::core::cmp::Ordering { (*self as u8).cmp(&(*o as u8)) } }
impl ::core::fmt::Debug for T { fn fmt(&self, f: &mut ::core::fmt::Formatter<'"'"'_>) -> ::core::fmt::Result { f.write_str(["A", "B"][*self as usize]) } }
impl ::core::fmt::Display for T { fn fmt(&self, f: &mut ::core::fmt::Formatter<'"'"'_>) -> ::core::fmt::Result { f.write_str(self.as_str()) } }
impl ::core::str::FromStr for T { type Err = doctrine::ParseChoiceError; fn from_str(s: &str) -> ::core::result::Result<Self, doctrine::ParseChoiceError> { <Self as doctrine::Choice>::parse(s) } }
impl doctrine::Choice for T { const KIND: &'"'"'static str = "t"; const ALL: &'"'"'static [Self] = T::ALL; const NAMES: &'"'"'static [&'"'"'static str] = T::NAMES; fn as_str(self) -> &'"'"'static str { T::as_str(self) } }'

# One crate's enums: `derive` on each, then the impls given, with `T` replaced.
generate() {
  local derive="$1" impls="$2"
  echo 'pub trait M { fn f(); }'
  for ((i = 0; i < n; i++)); do
    if [ -n "$derive" ]; then echo "#[derive($derive)]"; fi
    echo "pub enum K$i { A, B }"
    if [ -n "$impls" ]; then echo "${impls//T/K$i}"; fi
  done
}

# The crate without the enums: what each measured check starts from (its incremental state
# is then this small one, not the previous measurement's).
stub() {
  echo 'fn main() {}' > "$work/src/main.rs"
  (cd "$work" && CARGO_TARGET_DIR="$work/target" cargo check -q)
}

measure() {
  local what="$1"
  stub
  generate "$2" "$3" > "$work/src/gen.rs"
  printf '#![allow(dead_code)]\nmod p {\n    include!("gen.rs");\n}\nfn main() {}\n' > "$work/src/main.rs"
  (cd "$work" && CARGO_TARGET_DIR="$work/target" /usr/bin/time -f "$n enums, $what: %U s user, %M KB max RSS, exit %x" cargo check -q 2>&1 | tail -1)
}

measure "bare" "" ""
measure "one impl with one empty fn" "" "$empty_fn"
measure "derive(Clone, Copy)" "Clone, Copy" ""
measure "derive(Clone, Copy, PartialEq, Eq)" "Clone, Copy, PartialEq, Eq" ""
measure "the seven derives" "Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord" ""
measure "the seven derives, ALL / NAMES / as_str" "Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord" "$inherent"
measure "a knob as generated" "Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord" "$inherent $choice $default"
measure "the same, every impl by hand" "PartialEq" "$inherent $by_hand $default"
