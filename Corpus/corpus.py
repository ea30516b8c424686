#!/usr/bin/env python3
"""Extract plain-text lines from unpacked Debian packages and build the corpora.

Standard library only. Used by build-large.sh; see README.md.

  corpus.py extract SRC LINES        SRC: dir with one unpacked package per subdir
                                     (named after the package); LINES: output dir
                                     with one <lang>.txt pool per language
  corpus.py sample LINES OUT         the committed sample (Corpus/sample)
  corpus.py large LINES OUT SEED     mixed.txt and latin.txt (Corpus/large)

Every step is deterministic: files are read in sorted path order, lines keep their
first-seen order, and shuffles use random.Random(seed).
"""
import gettext
import glob
import html
import io
import multiprocessing
import os
import random
import re
import sys
import unicodedata
import zipfile

# language code -> libreoffice-help package suffix
HELP = {
    "en": "en-us", "es": "es", "fr": "fr", "de": "de", "pt": "pt", "pt-BR": "pt-br",
    "pl": "pl", "cs": "cs", "vi": "vi", "tr": "tr", "el": "el", "ru": "ru",
    "hi": "hi", "ja": "ja", "zh": "zh-cn", "ko": "ko",
}
# language code -> (libreoffice-l10n suffix, firefox-esr-l10n suffix)
UI = {"ar": ("ar", "ar"), "he": ("he", "he"), "th": ("th", "th"), "hi": ("hi", "hi-in")}
LATIN = ["en", "es", "fr", "de", "pt", "pt-BR", "pl", "cs", "vi", "tr"]
# ISO 639 codes used for the sample file names, and the CLDR annotation files
SAMPLE_LANGS = ["en", "es", "fr", "de", "pt", "pl", "cs", "vi", "tr", "el", "ru",
                "ar", "he", "hi", "th", "ja", "zh", "ko"]
CLDR_LANGS = {"en": "en", "es": "es", "fr": "fr", "de": "de", "pt": "pt_PT",
              "pt-BR": "pt", "pl": "pl", "cs": "cs", "vi": "vi", "tr": "tr",
              "el": "el", "ru": "ru", "ar": "ar", "he": "he", "hi": "hi", "th": "th",
              "ja": "ja", "zh": "zh", "ko": "ko"}

WS = re.compile(r"\s+")


def clean(s):
    """NFC, collapse whitespace; None if the line has no letter or is too short."""
    s = WS.sub(" ", unicodedata.normalize("NFC", s)).strip()
    if len(s) < 2 or not any(unicodedata.category(c)[0] == "L" for c in s):
        return None
    return s


def unique(lines, drop=frozenset()):
    seen, out = set(drop), []
    for s in lines:
        if s is not None and s not in seen:
            seen.add(s)
            out.append(s)
    return out


# ---------------------------------------------------------------- help HTML
DISPLAY = re.compile(r'<div id="DisplayArea".*?>(.*?)<div id="SearchFrame"', re.S)
DROP = re.compile(r"<(script|style|pre|code|noscript)\b.*?</\1>"
                  r"|<p\b[^>]*class=\"(?:code|codeintable)\"[^>]*>.*?</p>"
                  r"|<h3 class=\"bug\".*?</h3>"
                  r"|<!--.*?-->", re.S)
BLOCK = re.compile(r"</?(p|h[1-6]|li|ul|ol|td|th|tr|table|div|br|dt|dd|caption)\b[^>]*>", re.I)
TAG = re.compile(r"<[^>]*>")


def help_lines(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = DISPLAY.search(text)
    if not m:
        return []
    body = DROP.sub("\n", m.group(1))
    body = BLOCK.sub("\n", body)
    body = TAG.sub("", body)
    return [clean(html.unescape(x)) for x in body.split("\n")]


def help_file_list(src, suffix):
    root = os.path.join(src, "libreoffice-help-" + suffix, "usr/share/libreoffice/help")
    return sorted(glob.glob(os.path.join(root, "*", "text", "**", "*.html"), recursive=True))


# ---------------------------------------------------------------- UI strings
PLACE = re.compile(r"%[A-Z][A-Z0-9_]*%?|\$\([A-Z0-9_]+\)|%\d+|\$\d+|%(\d+\$)?[sSdlu]|#\d")


def mo_lines(src, suffix):
    out = []
    pat = os.path.join(src, "libreoffice-l10n-" + suffix,
                       "usr/lib/libreoffice/program/resource/*/LC_MESSAGES/*.mo")
    for f in sorted(glob.glob(pat)):
        with open(f, "rb") as fp:
            cat = gettext.GNUTranslations(fp)._catalog
        for k in sorted(cat, key=lambda k: (str(k), repr(k))):
            v = cat[k]
            if not isinstance(v, str) or not v:
                continue
            msgid = k[0] if isinstance(k, tuple) else k
            if "\x04" in msgid:          # msgctxt
                msgid = msgid.split("\x04", 1)[1]
            if v.replace("~", "").replace("_", "") == msgid.replace("~", "").replace("_", ""):
                continue                   # untranslated
            v = v.replace("%PRODUCTNAME", "LibreOffice").replace("~", "")
            if v.count("_") == 1:
                v = re.sub(r"_(?=\w)", "", v)
            v = PLACE.sub("", TAG.sub("", v))
            out.extend(clean(x) for x in v.split("\n"))
    return out


FTL_PLACE = re.compile(r"\{\s*-brand[^}]*\}|\{\s*-vendor[^}]*\}|\{[^{}]*\}")
FTL_KEY = re.compile(r"^-?[A-Za-z][\w-]*\s*=\s?(.*)$")
FTL_ATTR = re.compile(r"^\s+\.[\w-]+\s*=\s?(.*)$")
FTL_VARIANT = re.compile(r"^\s*\*?\[[^\]]*\]\s*(.*)$")


def ftl_sub(m):
    s = m.group(0)
    if "-brand" in s:
        return "Firefox"
    if "-vendor" in s:
        return "Mozilla"
    return ""


def ftl_value(v):
    v = v.strip()
    if v.endswith("->") or v in ("}", "{"):
        return None
    v = FTL_PLACE.sub(ftl_sub, v)
    v = FTL_PLACE.sub(ftl_sub, v)
    return clean(html.unescape(TAG.sub("", v)))


def xpi_lines(src, suffix):
    out = []
    pat = os.path.join(src, "firefox-esr-l10n-" + suffix, "usr/lib/firefox-esr/browser/extensions/*.xpi")
    for x in sorted(glob.glob(pat)):
        with zipfile.ZipFile(x) as z:
            for name in sorted(z.namelist()):
                if name.endswith(".ftl"):
                    for line in z.read(name).decode("utf-8", "replace").splitlines():
                        if not line.strip() or line.lstrip().startswith("#"):
                            continue
                        m = FTL_KEY.match(line) or FTL_ATTR.match(line) or FTL_VARIANT.match(line)
                        v = m.group(1) if m else (line if line.startswith(" ") else "")
                        out.append(ftl_value(v))
                elif name.endswith(".properties"):
                    for line in z.read(name).decode("utf-8", "replace").splitlines():
                        if line.startswith("#") or "=" not in line:
                            continue
                        v = line.split("=", 1)[1].replace("\\n", "\n")
                        v = PLACE.sub("", TAG.sub("", v))
                        out.extend(clean(html.unescape(y)) for y in v.split("\n"))
    return out


# ---------------------------------------------------------------- Unicode data
def emoji_lines(src):
    f = os.path.join(src, "unicode-data", "usr/share/unicode/emoji/emoji-test.txt")
    out = []
    with open(f, encoding="utf-8") as fp:
        for line in fp:
            m = re.match(r"^[0-9A-F ]+;\s*(fully-qualified|component)\s*#\s*(\S+)\s+E[\d.]+\s+(.*)$", line)
            if m:
                out.append(m.group(2) + " " + m.group(3).strip())
    return unique(out)


def cldr_lines(src, loc):
    out = []
    for sub in ("annotations", "annotationsDerived"):
        f = os.path.join(src, "unicode-cldr-core", "usr/share/unicode/cldr/common", sub, loc + ".xml")
        if not os.path.exists(f):
            continue
        with open(f, encoding="utf-8") as fp:
            for m in re.finditer(r'<annotation cp="([^"]*)"( type="tts")?>([^<]*)</annotation>', fp.read()):
                cp, tts, text = html.unescape(m.group(1)), m.group(2), html.unescape(m.group(3))
                out.append(clean(cp + " " + text) if tts else clean(text.replace(" | ", ", ")))
    return out


# ---------------------------------------------------------------- extract
def is_ascii(s):
    return s.isascii()


def extract_help(args):
    src, suffix = args
    lines = []
    for f in help_file_list(src, suffix):
        lines.extend(help_lines(f))
    return lines


def cmd_extract(src, outdir):
    os.makedirs(outdir, exist_ok=True)
    langs = sorted(HELP)
    with multiprocessing.Pool(min(2, os.cpu_count() or 1)) as pool:
        res = pool.map(extract_help, [(src, HELP[l]) for l in langs], chunksize=1)
    helped = dict(zip(langs, res))
    english = set(unique(helped["en"]))
    pools = {}
    for lang in langs:
        lines = helped[lang]
        pools[lang] = unique(lines) if lang == "en" else unique(lines, english)
    for lang, (lo, ff) in UI.items():
        lines = pools.get(lang, []) + mo_lines(src, lo) + xpi_lines(src, ff)
        pools[lang] = unique(lines, english)
    nonlatin = set(pools) - set(LATIN)
    for lang in nonlatin:                 # pure-ASCII lines are untranslated leftovers
        pools[lang] = [s for s in pools[lang] if not is_ascii(s)]
    pools["emoji"] = emoji_lines(src)
    cldr_dir = os.path.join(src, "unicode-cldr-core")
    for lang, loc in CLDR_LANGS.items():
        if os.path.isdir(cldr_dir):
            pools["cldr-" + lang] = unique(cldr_lines(src, loc))
    for lang, lines in sorted(pools.items()):
        with open(os.path.join(outdir, lang + ".txt"), "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(s + "\n" for s in lines))
        print(f"  {lang:8} {len(lines):7} lines {sum(len(s.encode()) + 1 for s in lines) / 2**20:6.2f} MiB")


def read_pool(linesdir, lang):
    with open(os.path.join(linesdir, lang + ".txt"), encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


# ---------------------------------------------------------------- sample
HARAKAT = re.compile("[\u064B-\u0652]")
SAMPLE_BYTES = 88 * 1024
EMOJI_BYTES = 96 * 1024


def pick(lines, budget, rng, minlen):
    """Deterministic random subset of lines totalling about budget bytes, in source order."""
    idx = [i for i, s in enumerate(lines) if len(s) >= minlen]
    rng.shuffle(idx)
    chosen, total = set(), 0
    for i in idx:
        if total >= budget:
            break
        chosen.add(i)
        total += len(lines[i].encode()) + 1
    return [lines[i] for i in sorted(chosen)]


def cmd_sample(linesdir, outdir, seed=20240601):
    os.makedirs(outdir, exist_ok=True)
    for lang in SAMPLE_LANGS:
        rng = random.Random(f"{seed}-{lang}")
        lines = read_pool(linesdir, lang)
        if lang == "ar":   # at least half of the Arabic sample carries harakat
            hk = [s for s in lines if HARAKAT.search(s)]
            first = pick(hk, SAMPLE_BYTES // 2, rng, 12)
            rest = pick([s for s in lines if s not in set(first)],
                        SAMPLE_BYTES - sum(len(s.encode()) + 1 for s in first), rng, 12)
            keep = set(first) | set(rest)
            out = [s for s in lines if s in keep]
        else:
            minlen = 12 if lang in UI else 30
            if lang in ("ja", "zh", "ko"):
                minlen = 12
            out = pick(lines, SAMPLE_BYTES, rng, minlen)
        write(os.path.join(outdir, lang + ".txt"), out)
    # every emoji without a skin-tone modifier, plus a random share of those with one
    emoji = read_pool(linesdir, "emoji")
    tone = re.compile("[\U0001F3FB-\U0001F3FF]")
    plain = [s for s in emoji if not tone.search(s)]
    toned = pick([s for s in emoji if tone.search(s)],
                 EMOJI_BYTES - sum(len(s.encode()) + 1 for s in plain), random.Random(seed), 0)
    keep = set(plain) | set(toned)
    write(os.path.join(outdir, "emoji.txt"), [s for s in emoji if s in keep])
    vi = open(os.path.join(outdir, "vi.txt"), encoding="utf-8").read()
    with open(os.path.join(outdir, "vi-nfd.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write(unicodedata.normalize("NFD", vi))


def write(path, lines):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(s + "\n" for s in lines))


# ---------------------------------------------------------------- large
def build(path, lines, target, seed):
    """Concatenate shuffled passes over lines (each pass reshuffled with the same
    Random(seed) stream) until at least target bytes; stop at a line end."""
    rng = random.Random(seed)
    enc = [s.encode("utf-8") + b"\n" for s in lines]
    total, passes = 0, 0
    with open(path, "wb") as f:
        while total < target:
            order = list(range(len(enc)))
            rng.shuffle(order)
            passes += 1
            buf = []
            for i in order:
                buf.append(enc[i])
                total += len(enc[i])
                if total >= target:
                    break
            f.write(b"".join(buf))
    return total, passes


def cmd_large(linesdir, outdir, seed):
    seed = int(seed)
    langs = sorted(f[:-4] for f in os.listdir(linesdir) if f.endswith(".txt"))
    every = []
    for lang in langs:
        every.extend(read_pool(linesdir, lang))
    every = unique(every)
    latin = unique(l for lang in LATIN for l in read_pool(linesdir, lang))
    n, p = build(os.path.join(outdir, "mixed.txt"), every, 256 * 2**20, seed)
    print(f"  mixed.txt: {len(every)} unique lines, {n} bytes, {p} passes")
    n, p = build(os.path.join(outdir, "latin.txt"), latin, 128 * 2**20, seed)
    print(f"  latin.txt: {len(latin)} unique lines, {n} bytes, {p} passes")


if __name__ == "__main__":
    cmd, *rest = sys.argv[1:]
    {"extract": cmd_extract, "sample": cmd_sample, "large": cmd_large}[cmd](*rest)
