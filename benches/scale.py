#!/usr/bin/env python3
"""Writes a manifest of N layers (every `slot_every`-th a slot) and the builder chain that
fills its slots, for the large-manifest test fixture and the `cargo check` scale runs in
BENCHMARKS.md.

    python3 benches/scale.py LAYERS SLOT_EVERY MANIFEST_OUT [CHAIN_OUT]
"""
import sys


def main():
    layers, every, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    lines = [
        f"# {layers} layers, every {every}th a slot: written by benches/scale.py.",
        'separator = "\\n"',
    ]
    slots = []
    for i in range(layers):
        if i % every == every - 1:
            lines.append(f'[[layer]]\nname = "s{i}"\nslot = "optional"')
            slots.append(f"s{i}")
        else:
            lines.append(f'[[layer]]\nname = "l{i}"\ntext = "{i}"')
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    if len(sys.argv) > 4:
        with open(sys.argv[4], "w") as f:
            f.write("".join(f".{s}(None)" for s in slots))


main()
