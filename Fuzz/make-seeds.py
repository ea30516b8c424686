#!/usr/bin/env python3
"""Writes the committed seed corpora of the libFuzzer targets (deterministic).

    python3 Fuzz/make-seeds.py      # rewrites Fuzz/seeds/FuzzFoldedText and FuzzDifferential

Input format of both targets: byte 0 = query length q, then q query bytes, then the
text bytes. Seeds come from: the 227 tricky cases of the reference study
(Tests/FoldSearchTests/ReferenceCases+Table.swift) and the differential regressions,
invalid UTF-8 of every kind, NUL bytes, expansions and marks, and cut-down
pathological inputs (Corpus/pathological) with their suggested needles.
Files named `found-*` are inputs the fuzzers found; this script keeps them.
"""
import hashlib, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Fuzz", "seeds")


def seed(query: bytes, text: bytes) -> bytes:
    query = query[:255]
    return bytes([len(query)]) + query + text


def u(*values) -> bytes:
    return "".join(chr(v) for v in values).encode("utf-8")


def reference_cases():
    """(name, text, query) of every tricky case and regression in the tests."""
    cases = []
    table = open(os.path.join(ROOT, "Tests/FoldSearchTests/ReferenceCases+Table.swift")).read()
    for m in re.finditer(r'\.init\(\s*"([^"]+)",\s*\[([^\]]*)\],\s*\[([^\]]*)\]', table):
        name, text, query = m.groups()
        cases.append((name, hexes(text), hexes(query)))
    regressions = open(os.path.join(ROOT, "Tests/FoldSearchTests/DifferentialRegressions.swift")).read()
    for i, m in enumerate(re.finditer(r'text:\s*\[([^\]]*)\],\s*query:\s*\[([^\]]*)\]', regressions)):
        cases.append((f"regression{i}", hexes(m.group(1)), hexes(m.group(2))))
    return cases


def hexes(s):
    return u(*[int(x, 16) for x in re.findall(r"0x([0-9A-Fa-f]+)", s)])


INVALID = {
    "truncated2": b"caf\xc3",
    "truncated3": b"x\xe2\x82 euro",
    "truncated4": b"\xf0\x9f\x98 smile \xf0\x9f",
    "overlong2": b"\xc0\xaf\xc1\xbf a",
    "overlong3": b"\xe0\x80\xaf \xe0\x9f\xbf",
    "overlong4": b"\xf0\x80\x80\xaf \xf0\x8f\xbf\xbf",
    "surrogates": b"\xed\xa0\x80\xed\xbf\xbf \xed\xa0\xbd\xed\xb8\x80",
    "above-10ffff": b"\xf4\x90\x80\x80 \xf5\x80\x80\x80",
    "f5-ff": bytes(range(0xF5, 0x100)) + b"a",
    "lone-continuations": bytes(range(0x80, 0xC0)),
    "c0-c1": b"\xc0\xc1\x80",
    "mixed": b"Caf\xc3\xa9\xff\xfeSTRA\xc3\x9f\xc3E\xcc\x81\x80",
    "nul": b"a\x00b\x00\x00caf\xc3\xa9\x00",
    "fffd-real": u(0xFFFD) + b"\xff" + u(0xFFFD),
}

SPECIAL = {
    "ffi": (u(0x66, 0x66, 0x69), u(0xFB03, 0x20, 0x66, 0x66, 0x69, 0xFB03, 0xFB03)),
    "f-in-ffi": (b"f", u(0xFB03)),
    "j-caron": (b"j", u(0x1F0, 0x4A, 0x30C, 0x1F0)),
    "iota-dialytika-tonos": (u(0x3B9, 0x308, 0x301), u(0x390, 0x399, 0x308, 0x301)),
    "hangul": (u(0x1100, 0x1161), u(0xAC00, 0xAC01, 0xD7A3, 0x1100, 0x1161)),
    "marks-only-text": (b"e", u(*([0x301] * 200))),
    "marks-only-query": (u(0x301, 0x302, 0x303), b"e" + u(0x301, 0x302, 0x303) + b"x"),
    "ignorables-query": (u(0x200C, 0xFE0F, 0x1F3FB), u(0x1F44D, 0x1F3FB, 0x200C, 0xFE0F)),
    "many-marks": (b"ex", b"e" + u(*([0x301, 0x323] * 500)) + b"x"),
    "eszett": (b"sss", u(*([0xDF] * 100))),
    "kelvin-angstrom": (b"k a", u(0x212A, 0x20, 0x212B, 0x20, 0x4B, 0x20, 0xC5)),
    "dotted-i": (u(0x69, 0x307), u(0x130, 0x49, 0x131, 0x69)),
    "sigma": (u(0x3C3), u(0x3A3, 0x3C2, 0x3C3)),
    "empty-query": (b"", b"text"),
    "blank-query": (u(0x20, 0x3000, 0x200B, 0x0A), b"a b"),
    "empty-text": (b"a", b""),
    "leading-mark": (u(0x301) + b"x", b"e" + u(0x301) + b"x" + u(0x301)),
    "zwj-family": (u(0x1F469), u(0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467)),
    "deseret": (u(0x10428), u(0x10400, 0x10428)),
    "crlf": (b"a\r\nb", b"a\r\nb a\nb"),
}

PATHOLOGICAL_LIMIT = 3000


def pathological():
    folder = os.path.join(ROOT, "Corpus", "pathological")
    out = []
    for line in open(os.path.join(folder, "needles.txt"), encoding="utf-8"):
        if line.startswith("#") or "\t" not in line:
            continue
        name, needle = line.rstrip("\n").split("\t")[:2]
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            continue
        data = open(path, "rb").read()
        # Keep the start, cut on a scalar boundary, and the end (matches at the end).
        head = data[:PATHOLOGICAL_LIMIT]
        while head and (head[-1] & 0xC0) == 0x80 or (head and head[-1] >= 0xC0):
            head = head[:-1]
        tail = data[-200:]
        while tail and (tail[0] & 0xC0) == 0x80:
            tail = tail[1:]
        out.append((name, needle.encode("utf-8")[:255], head + tail))
    return out


def write(target, items, max_len):
    folder = os.path.join(OUT, target)
    os.makedirs(folder, exist_ok=True)
    for f in os.listdir(folder):
        if not f.startswith("found-"):
            os.remove(os.path.join(folder, f))
    seen = set()
    for name, data in items:
        data = data[:max_len]
        if data in seen:
            continue
        seen.add(data)
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)
        digest = hashlib.sha1(data).hexdigest()[:8]
        open(os.path.join(folder, f"{safe}-{digest}"), "wb").write(data)
    return len(seen)


def main():
    items = []
    for name, text, query in reference_cases():
        items.append((name, seed(query, text)))
    for name, text in INVALID.items():
        items.append((name, seed(b"caf\xc3\xa9", text)))
        items.append((name + "-q", seed(text[:8], b"a" + text + b"a" + text)))
    for name, (query, text) in SPECIAL.items():
        items.append((name, seed(query, text)))
    differential = list(items)
    for name, needle, text in pathological():
        items.append(("pathological-" + name, seed(needle, text)))
    n1 = write("FuzzFoldedText", items, 4096)
    n2 = write("FuzzDifferential", [(n, d) for n, d in differential if len(d) <= 400], 400)
    print(f"FuzzFoldedText: {n1} seeds, FuzzDifferential: {n2} seeds")


if __name__ == "__main__":
    sys.exit(main())
