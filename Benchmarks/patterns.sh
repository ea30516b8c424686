#!/usr/bin/env bash
# Times `foldgrep -E -c` against `rg -i -c` and `grep -i -P -c` on a large
# Latin-script file, for a few patterns: foldgrep spells each pattern plainly
# (its letters are folded like the text), rg and grep get the same pattern
# with every accent class spelled by hand, which is what a user of theirs
# types. hyperfine, --output=pipe (GNU grep stops at the first match when its
# output is /dev/null).
#
#   Benchmarks/patterns.sh                  # Corpus/large/latin.txt (Corpus/README.md)
#   CORPUS=file Benchmarks/patterns.sh      # another file
#   RUNS=10 Benchmarks/patterns.sh          # hyperfine runs per command (default 5)
#   BASELINE=path Benchmarks/patterns.sh    # also time another foldgrep build
#                                           # (e.g. before a change), side by side
#
# Without Corpus/large/latin.txt (Corpus/build-large.sh builds it), a stand-in
# is built from the committed Latin samples (Corpus/sample/{en,es,fr,de,pt,pl,
# cs,vi,tr}.txt) repeated to STANDIN_MB MiB (default 64) in .build/.
# Prints each tool's counts first (they may differ: rg and grep fold case only,
# the hand-spelled classes name the common accents, not all), then the table;
# results go to .build/patterns-bench.md too.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C.UTF-8

CORPUS=${CORPUS:-Corpus/large/latin.txt}
RUNS=${RUNS:-5}
if [ ! -f "$CORPUS" ]; then
  STANDIN_MB=${STANDIN_MB:-64}
  CORPUS=.build/patterns-standin-${STANDIN_MB}.txt
  if [ ! -f "$CORPUS" ]; then
    mkdir -p .build
    samples=(Corpus/sample/{en,es,fr,de,pt,pl,cs,vi,tr}.txt)
    : >"$CORPUS.tmp"
    while [ "$(stat -c %s "$CORPUS.tmp")" -lt $((STANDIN_MB << 20)) ]; do
      cat "${samples[@]}" >>"$CORPUS.tmp"
    done
    mv "$CORPUS.tmp" "$CORPUS"
  fi
  echo "(stand-in corpus: $CORPUS, $(stat -c %s "$CORPUS") bytes)"
fi

FOLDGREP=${FOLDGREP:-.build/release/foldgrep}
[ -x "$FOLDGREP" ] || swift build -c release --product foldgrep >/dev/null

# Each pattern as foldgrep gets it, and hand-spelled for rg -i and grep -i -P.
FOLDED=(
  'funci[oó]n|configuraci[oó]n|conexi[oó]n'
  'pr[eé]f[eé]rences?'
  'n[uú]mero \d+'
  '\bstra(ss|ß)e\b'
  'configura[cç][aã]o'
  '\b[eé]cran'
)
SPELLED=(
  'funci[oóòôö]n|configuraci[oóòôö]n|conexi[oóòôö]n'
  'pr[eéèêë]f[eéèêë]rences?'
  'n[uúùûü]mero \d+'
  '\bstra(ss|ß)e\b'
  'configura[cç][aãáàâä]o'
  '\b[eéèêë]cran'
)

q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
echo "counts: pattern | foldgrep -E | rg -i (hand-spelled) | grep -i -P (hand-spelled)"
commands=()
for k in "${!FOLDED[@]}"; do
  folded=${FOLDED[$k]}
  spelled=${SPELLED[$k]}
  printf '%s | %s | %s | %s%s\n' "$folded" \
    "$("$FOLDGREP" -E -c -e "$folded" "$CORPUS" || true)" \
    "$(rg -i -c -e "$spelled" "$CORPUS" || true)" \
    "$(grep -i -P -c -e "$spelled" "$CORPUS" || true)" \
    "${BASELINE:+ | baseline $("$BASELINE" -E -c -e "$folded" "$CORPUS" || true)}"
  commands+=(-n "foldgrep -E $folded" "$FOLDGREP -E -c -e $(q "$folded") $CORPUS")
  if [ -n "${BASELINE:-}" ]; then
    commands+=(-n "baseline -E $folded" "$BASELINE -E -c -e $(q "$folded") $CORPUS")
  fi
  commands+=(-n "rg -i $spelled" "rg -i -c -e $(q "$spelled") $CORPUS")
  commands+=(-n "grep -i -P $spelled" "grep -i -P -c -e $(q "$spelled") $CORPUS")
done
hyperfine --output=pipe --warmup 1 --runs "$RUNS" -i --export-markdown .build/patterns-bench.md \
  --export-json .build/patterns-bench.json \
  "${commands[@]}"
cat .build/patterns-bench.md
# CPU time (user + system) per command: on a shared machine, where the wall
# clock waits for a core, the steadier figure.
python3 - <<'PY'
import json
for r in json.load(open(".build/patterns-bench.json"))["results"]:
    print(f"{r['command'][:60]:60} wall {r['mean']*1000:8.1f} ms  cpu {(r['user']+r['system'])*1000:8.1f} ms")
PY
