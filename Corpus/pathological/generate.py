#!/usr/bin/env python3
"""Generate inputs that defeat naive substring searchers and folding heuristics.

  python3 Corpus/pathological/generate.py           # small files, committed (<= 256 KiB each)
  python3 Corpus/pathological/generate.py --large   # big versions into Corpus/large/pathological/

Deterministic: no clock, fixed seeds, standard library only. Also writes needles.txt
(file<TAB>needle<TAB>why, one needle per line), including needles made of the most
frequent characters of each Corpus/sample file. Needles never contain a tab or newline.
"""
import collections
import os
import random
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)
SEED = 20240601
ACUTE, DOT_BELOW = "\u0301", "\u0323"


def files(large):
    """name -> (text, [(needle, why)], description). Sizes scale with `large`."""
    n = 16 * 2**20 if large else 100_000          # length of the one-letter runs
    marks = 100_000 if large else 10_000
    out = {}

    a = "a" * n + "\n"
    out["run-a.txt"] = (a, [
        ("a" * 999 + "b", "every alignment matches 999 bytes, then fails on the last: O(n*m) for forward-comparing searchers"),
        ("b" + "a" * 999, "fails on the first byte only after a right-to-left compare of 999; last byte is the most frequent byte (Horspool shift 1)"),
        ("A" * 64, "case-folded needle over a run: matches at every offset, tests overlapping/next-match logic"),
    ], "a single run of 'a' with needles that nearly match (aaa…ab, baaa…a)")

    ac = unicodedata.normalize("NFC", "á") * (n // 2) + "\n"
    out["run-a-acute.txt"] = (ac, [
        ("a" * 999 + "b", "diacritic-insensitive: folds to an a-run; near-miss needle after folding, 2-byte scalars in the text"),
        ("á" * 64 + "b", "accented needle, same near-miss"),
        ("a" * 64, "matches at every character; each match covers 2 bytes per letter, so offsets must map back correctly"),
    ], "a run of precomposed á (U+00E1), the same near-miss attack after folding")

    ab = "ab" * (n // 2) + "\n"
    out["periodic-ab.txt"] = (ab, [
        ("ab" * 500 + "b", "periodic text, needle agrees for 1000 bytes then ends in a mismatch; last byte b is one of the two text bytes"),
        ("ab" * 500 + "a", "ends with a byte that fits the period but is one off: every other alignment nearly matches"),
        ("ba" * 500 + "c", "last byte never occurs: Horspool's best case, shown for contrast"),
        ("AB" * 32, "uppercase needle over lowercase periodic text: overlapping matches every 2 bytes"),
    ], "periodic abab… text against needles ending in a mismatch (Horspool worst cases)")

    rng = random.Random(f"{SEED}-mixedcase")
    mc = "".join(c.upper() if rng.random() < 0.5 else c for c in "ab" * (n // 2)) + "\n"
    out["periodic-ab-mixedcase.txt"] = (mc, [
        ("ab" * 500 + "b", "as periodic-ab.txt, but random case defeats byte-exact fast paths and skip tables built on raw bytes"),
        ("aB" * 32, "mixed-case needle, matches every 2 bytes after folding"),
    ], "periodic abab… text in random upper/lower case (fixed seed)")

    rng = random.Random(f"{SEED}-e")
    alphabet = ["e", "e", "e", "E", "é", "è", "ê", "ë", "É", " ", " "]
    es = "".join(rng.choice(alphabet) for _ in range(n)) + "\n"
    out["frequent-e.txt"] = (es, [
        ("e e e e e x", "every byte of the text is a candidate for the first 10 needle characters; x never occurs"),
        ("eeeeeeeeee", "frequent after folding; the text's é/è/ê/ë (2 bytes) hide it from a raw-byte rare-byte prefilter"),
        ("ÉÉÉÉ", "accented uppercase needle, folds to eeee"),
    ], "only e, E, é, è, ê, ë, É and spaces in random order: all fold to e or space, so no rare byte exists")

    comb = "e" + ACUTE * marks + "x\n" + "caf" + "e" + ACUTE * marks + "\n"
    out[f"combining-{marks // 1000}k.txt"] = (comb, [
        ("ex", f"diacritic-insensitive: 'e' and 'x' are separated by {marks:,} U+0301 that fold away"),
        ("é", "precomposed needle: must match the decomposed e + U+0301 … run"),
        ("cafe", "match ends inside a combining run: where the match ends is a semantic question"),
        ("e" + ACUTE * 3, "needle with a short mark run inside a long one"),
    ], f"'e' followed by {marks:,} U+0301 COMBINING ACUTE ACCENT: one grapheme of {marks * 2 + 1:,} bytes")

    mixed = "o" + (ACUTE + DOT_BELOW) * (marks // 2) + "x\n"
    out[f"combining-ccc-{marks // 1000}k.txt"] = (mixed, [
        ("ox", "the marks alternate ccc 230/220, so canonical ordering must reorder them all: quadratic with insertion sort"),
        ("\u1ECD\u0301", "precomposed-ish needle (U+1ECD + U+0301): only equal after canonical reordering"),
    ], f"'o' followed by {marks:,} alternating U+0301 (ccc 230) and U+0323 (ccc 220): canonical reordering of one huge run")

    ss = "ß" * (n // 2) + "\n"
    out["eszett.txt"] = (ss, [
        ("s", "each ß folds to ss: one match or two per ß, and a match may cover half a character"),
        ("sss", "odd run of s: in the folded text it straddles ß boundaries; must not report a half-ß match if matches are character-aligned"),
        ("s" * 99, "long odd run, same issue, and the folded text is twice the bytes of the original"),
        ("SS", "uppercase, folds to ss = ß"),
        ("ẞ", "capital sharp s U+1E9E folds to ss"),
        ("ss" * 50 + "x", "near-miss after expansion"),
    ], "all ß (U+00DF): full case folding doubles the text into s-runs")

    rng = random.Random(f"{SEED}-eszett")
    parts = ["ß", "ss", "SS", "ẞ", "s", "ſ", "Ss", "ﬆ"]
    sm = "".join(rng.choice(parts) for _ in range(n // 4)) + "\n"
    out["eszett-mixed.txt"] = (sm, [
        ("sss", "ß, ss, SS, ẞ, ſ (long s) and ﬆ (st ligature) all fold into s-runs of varying parity"),
        ("ßß", "folds to ssss: matches across differently spelled neighbours"),
        ("ſt", "long s + t folds to st; ﬆ folds to st too"),
    ], "random mix of ß, ss, SS, ẞ, s, ſ, Ss and ﬆ (fixed seed)")

    rng = random.Random(f"{SEED}-expansions")
    words = ["ﬃ", "ﬀ", "ﬁ", "ﬂ", "ﬄ", "ﬅ", "ǰ", "ΐ", "ΰ", "ŉ", "İ", "ı", "ᾳ", "ᾼ", "ῷ", "ﬓ", "ﬔ",
             "K", "Å", "Ω", "ς", "σ", "Σ", "ǅ", "ǈ", "ẖ", "ẘ", "ʼn", "office", "ﬁnal", "ǰapan",
             "ﬃce", "ΐota", "가", "각", "힣", "한국어", " "]
    ex = "".join(rng.choice(words) for _ in range(n // 4)) + "\n"
    out["expansions.txt"] = (ex, [
        ("ffi", "ﬃ (U+FB03) folds to three letters: a match can start and end inside one character"),
        ("fi", "matches inside ﬃ (second half of the expansion) and ﬁ"),
        ("ffiffi", "spans two ligature characters"),
        ("j", "ǰ (U+01F0) full-folds to j + U+030C; diacritic-insensitive j then matches it"),
        ("ι", "ΐ (U+0390) full-folds to ι + U+0308 + U+0301; ᾳ folds to αι"),
        ("αι", "ᾳ/ᾼ (iota subscript/adscript) fold to αι"),
        ("k", "K (U+212A KELVIN SIGN) folds to k; Å (U+212B) to å"),
        ("σ", "ς and Σ fold to σ"),
        ("i\u0307", "İ (U+0130) full-folds to i + U+0307"),
        ("ᄀ", "leading jamo: Hangul syllables decompose to jamo under NFD"),
        ("가", "syllable needle against syllables and (after normalization) jamo"),
    ], "random mix of ligatures and one-to-many folds (ﬃ, ǰ, ΐ, ŉ, İ, ᾳ, ﬓ, Kelvin sign) and Hangul syllables")

    hangul = "".join(chr(c) for c in range(0xAC00, 0xD7A4))
    out["hangul.txt"] = ("\n".join(hangul[i:i + 64] for i in range(0, len(hangul), 64)) + "\n", [
        ("가", "first syllable; in NFD it becomes two jamo"),
        ("\u1100\u1161", "conjoining jamo sequence: canonically equivalent to 가"),
        ("힣", "last syllable (U+D7A3), three jamo in NFD"),
        ("\u1161", "a lone vowel jamo: matches inside many syllables only if the searcher works on NFD without boundary checks"),
    ], "all 11,172 precomposed Hangul syllables in order, 64 per line")

    return out


def long_line(target):
    """Real text from Corpus/sample joined into one line of at least target bytes."""
    src = []
    for lang in ("en", "fr", "de", "es", "vi", "ru", "el", "ja", "ar", "hi"):
        p = os.path.join(CORPUS, "sample", lang + ".txt")
        with open(p, encoding="utf-8") as f:
            src.append(" ".join(f.read().split("\n")))
    block = " ".join(src)
    parts, size = [], 0
    while size < target:
        parts.append(block)
        size += len(block.encode()) + 1
    text = " ".join(parts).encode()[:target].decode("utf-8", "ignore")
    return text + " Zyzzyva-final-Ωmega\n"


def top_chars(text, k):
    c = collections.Counter(ch for ch in text if ch not in "\n")
    return [ch for ch, _ in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]


def sample_needles():
    out = []
    sdir = os.path.join(CORPUS, "sample")
    for name in sorted(os.listdir(sdir)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(sdir, name), encoding="utf-8") as f:
            text = f.read()
        top = top_chars(text, 8)
        top_nows = [c for c in top if not c.isspace()][:4]
        rel = "../sample/" + name
        out.append((rel, "".join(top).replace("\t", ""), "the 8 most frequent characters in frequency order: a candidate at almost every position"))
        out.append((rel, top_nows[0] * 3, f"most frequent non-space character U+{ord(top_nows[0]):04X} tripled"))
        out.append((rel, top_nows[1] + top_nows[0], "two most frequent non-space characters; last character is the most frequent one (Horspool shift 1)"))
    return out


def main():
    large = "--large" in sys.argv[1:]
    outdir = os.path.join(CORPUS, "large", "pathological") if large else HERE
    os.makedirs(outdir, exist_ok=True)
    table = files(large)
    ll_name = "long-line-20m.txt" if large else "long-line.txt"
    table[ll_name] = (long_line(20 * 10**6 if large else 250_000), [
        ("Zyzzyva-final-Ωmega", "only at the very end of a single line: line-oriented tools must buffer the whole line"),
        ("zyzzyva-FINAL-ωMEGA", "case-folded version of the same"),
    ], "one line of real text (Corpus/sample joined with spaces) ending in a unique marker")
    rows = []
    for name, (text, needles, desc) in sorted(table.items()):
        data = text.encode("utf-8")
        if not large:
            assert len(data) <= 256 * 1024, (name, len(data))
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)
        for needle, why in needles:
            assert "\t" not in needle and "\n" not in needle
            rows.append((name, needle, why))
        print(f"{name:28} {len(data):>10} bytes  {desc}")
    if not large:
        rows.extend(sample_needles())
    with open(os.path.join(outdir, "needles.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# file\tneedle\twhy (file paths are relative to this folder)\n")
        for r in rows:
            f.write("\t".join(r) + "\n")


if __name__ == "__main__":
    main()
