#!/usr/bin/env bash
# The tool installed as a registry install builds it: from its package, the other crates
# from theirs (patched in for crates.io, where they are not published yet), in an empty
# target directory. `.ci/package` must have run (target/package holds the packages).
#
#   bash benches/install_packaged.sh            with the packaged install profile
#   NO_PROFILE=1 bash benches/install_packaged.sh   the same package without it
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -n 1)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$repo/target/package" "$work/pk"
tool="$work/pk/cargo-doctrine-$version"
if [ -n "${NO_PROFILE:-}" ]; then
    python3 - "$tool/Cargo.toml" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
open(path, "w").write(text[: text.index("[profile.release")])
PY
fi
config=()
for c in doctrine-core doctrine-load doctrine-codegen doctrine-book doctrine-claims; do
    config+=(--config "patch.crates-io.$c.path=\"$work/pk/$c-$version\"")
done
CARGO_TARGET_DIR="$work/target" /usr/bin/time -f '%e s wall, %U s user, %S s sys' \
    cargo install -q --path "$tool" --root "$work/root" "${config[@]}"
ls -l "$work/root/bin/cargo-doctrine" | awk '{print $5 " bytes"}'
