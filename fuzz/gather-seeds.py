#!/usr/bin/env python3
"""Rebuilds fuzz/seeds/{frontmatter,manifest}/ from the repository's own tests and examples.

Run from the repository root: `python3 fuzz/gather-seeds.py`. Seeds are named by the
SHA-1 of their bytes (as libFuzzer names corpus entries), so rerunning adds only what is
new; hand-placed seeds (reproducers of findings) have descriptive names and are kept.
"""
import glob
import hashlib
import os
import re

# A Rust string literal: raw (r"..", r#".."#) or plain with escapes.
LITERAL = re.compile(r'r(#*)"(.*?)"\1|"((?:[^"\\]|\\.)*)"', re.S)
ESCAPE = re.compile(r'\\(u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)', re.S)


def unescape(body):
    def one(m):
        e = m.group(1)
        if e.startswith("u{"):
            return chr(int(e[2:-1], 16))
        if e.startswith("x"):
            return chr(int(e[1:], 16))
        return {"n": "\n", "r": "\r", "t": "\t", "0": "\0", "\n": ""}.get(e, e)

    return ESCAPE.sub(one, body)


def literals(path):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    for m in LITERAL.finditer(source):
        yield m.group(2) if m.group(2) is not None else unescape(m.group(3))


def save(target, data):
    os.makedirs(f"fuzz/seeds/{target}", exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(f"fuzz/seeds/{target}/{name}", "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


markdown = sorted(glob.glob("examples/**/*.md", recursive=True)) + sorted(
    glob.glob("doctrine-core/tests/fixtures/**/*.md", recursive=True)
)
for path in markdown:
    save("frontmatter", read(path))
for path in ["doctrine-core/src/codegen/text.rs", "doctrine-core/src/runtime/text.rs",
             "doctrine-core/src/codegen/validate/placeholder.rs"]:
    for text in literals(path):
        if len(text) > 1:
            save("frontmatter", text.encode("utf-8", "surrogatepass"))
# Skill files with forged lines and look-alike names, and texts that try to close the
# reminder marker.
for path in ["tests/it/user_skills.rs", "tests/it/reminders.rs", "doctrine-core/src/runtime/marker.rs"]:
    for text in literals(path):
        if "---\n" in text or "+++\n" in text or "</" in text:
            save("frontmatter", text.encode("utf-8", "surrogatepass"))

manifests = (
    sorted(glob.glob("examples/*/doctrine.toml"))
    + sorted(glob.glob("doctrine-core/tests/fixtures/**/doctrine.toml", recursive=True))
    + sorted(glob.glob("tests/fixtures/*.toml"))
    + sorted(glob.glob("tests/errors/*.toml"))
    + sorted(glob.glob("doctrine/tests/ui/**/*.toml", recursive=True))
    + sorted(glob.glob("tests/it/**/*.toml", recursive=True))
    + ["fuzz/facts/doctrine.toml"]
)
for path in manifests:
    save("manifest", read(path))
# Manifests written inline in the tests: literals with a key or a table header.
for path in ["doctrine-core/tests/it/validate.rs", "doctrine-core/tests/it/never_panics.rs"]:
    for text in literals(path):
        if "=" in text and ("[" in text or "\n" in text):
            save("manifest", text.encode("utf-8"))

# The safety-claim corpus, eight sentences to a seed, after a byte that picks the target's
# word set (the `arbitrary` decoding reads it first; the rest becomes instruction texts).
for path in sorted(glob.glob("doctrine-claims/tests/data/safety_claims/*.txt")):
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f.read().splitlines() if l.strip() and not l.startswith("#")]
    for i in range(0, len(lines), 8):
        save("safety", bytes([i // 8 % 3]) + "\n".join(lines[i:i + 8]).encode("utf-8"))
