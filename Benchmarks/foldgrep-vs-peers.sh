#!/usr/bin/env bash
# foldgrep -c QUERY against rg -c -i -F, grep -c -i -F and ugrep -c -i -F (which
# fold case only: they miss "corazón" for "corazon"), end to end, timed with
# hyperfine on two files: a mostly-Spanish one (issue 34's queries, and rg's
# hand-spelled accent class for one accented query, what an rg user types to
# fold accents) and the large Latin corpus (foldbench's needles). Every
# command of a query runs in one hyperfine run, side by side.
#
#   Benchmarks/foldgrep-vs-peers.sh            # 64 MiB files (Benchmarks/standin.sh)
#   Benchmarks/foldgrep-vs-peers.sh --quick    # 4 MiB files, few queries, 2 runs (CI)
#   RUNS=10 Benchmarks/foldgrep-vs-peers.sh    # hyperfine runs per command (default 5)
#   FOLDGREP=path Benchmarks/foldgrep-vs-peers.sh   # another foldgrep build
#   SPANISH=file LATIN=file Benchmarks/foldgrep-vs-peers.sh   # other files
#   BASELINE=path Benchmarks/foldgrep-vs-peers.sh   # also time another foldgrep
#                                                   # build (before a change)
#
# Checks, before timing: foldgrep's count is at least rg's (it finds every line
# rg finds, and the accented ones) and the same on a second run (a failure
# exits 1). A peer that is not installed is skipped (its column says "—").
# hyperfine runs with -N (no shell) and --output=pipe (GNU grep stops at the
# first match when its output is /dev/null). The table (median wall time;
# ratio foldgrep / rg -i -F, below 1 is foldgrep faster, by wall time and by
# CPU time) goes to standard output and to .build/foldgrep-vs-peers/table.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C.UTF-8
. Benchmarks/standin.sh

quick=0
for argument in "$@"; do
  case "$argument" in
    --quick) quick=1 ;;
    *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
  esac
done
work=.build/foldgrep-vs-peers
mkdir -p "$work"
if [ "$quick" = 1 ]; then
  size_mib=4
  runs=${RUNS:-2}
else
  size_mib=64
  runs=${RUNS:-5}
fi
spanish=${SPANISH:-$(spanish_standin "$size_mib")}
latin=${LATIN:-$(latin_standin "$size_mib")}
if [ "$quick" = 1 ] && [ -z "${LATIN:-}" ] && [ "$(stat -c %s "$latin")" -gt $((size_mib << 20)) ]; then
  # The large corpus' first MiBs, cut at a line end.
  head -c $((size_mib << 20)) "$latin" | sed '$d' >"$work/latin-${size_mib}MiB.txt"
  latin=$work/latin-${size_mib}MiB.txt
fi

FOLDGREP=${FOLDGREP:-.build/release/foldgrep}
if [ ! -x "$FOLDGREP" ]; then swift build -c release --product foldgrep >/dev/null; fi
have() { command -v "$1" >/dev/null; }
have rg || { echo "rg (ripgrep) is needed: the ratio is against it" >&2; exit 1; }

# The queries: issue 34's on the Spanish file, foldbench's needles
# (Benchmarks/foldbench/Needle.swift) on the Latin one.
# (The committed samples hold no "señor" nor "corazón": the issue's file was
# another; funcion / función stands for an accented query found there.)
spanish_queries=(zzqxj señor corazon de funcion)
latin_queries=(Zusammenfassung hyperlink the e de les 'the contents of the current document'
  précédent número документ εγγραφο 文档 문서 strasse qqxzjv)
if [ "$quick" = 1 ]; then latin_queries=(hyperlink the précédent strasse qqxzjv); fi
# rg's accent classes for the accented queries, on the Spanish file.
declare -A accent_class=(
  [corazon]='c[oóòôö]r[aáàâä]z[oóòôö]n'
  [funcion]='funci[oóòôö]n'
)

q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
count() { "$@" 2>/dev/null || true; }
table=$work/table.md
{
  echo "hyperfine -N --output=pipe, warmup 1, $runs runs, median wall time; $(nproc) cores"
  echo
  echo "| file | query | foldgrep -c |${BASELINE:+ baseline foldgrep -c |} rg -c -i -F | grep -c -i -F | ugrep -c -i -F | rg accent class | foldgrep / rg | CPU: foldgrep / rg | lines: foldgrep / rg |"
  echo "|---|---|---:|${BASELINE:+---:|}---:|---:|---:|---:|---:|---:|---|"
} >"$table"
failed=0
run_query() {
  local file=$1 name=$2 query=$3
  local ours again theirs
  ours=$(count "$FOLDGREP" -c -e "$query" "$file")
  again=$(count "$FOLDGREP" -c -e "$query" "$file")
  theirs=$(count rg -c -i -F -e "$query" "$file")
  ours=${ours:-0}
  theirs=${theirs:-0}
  if [ "$ours" != "$again" ]; then
    echo "$name, $query: foldgrep counted $ours lines, then $again" >&2
    failed=1
  fi
  if [ "$ours" -lt "$theirs" ]; then
    echo "$name, $query: foldgrep counted $ours lines, rg $theirs: foldgrep must find every line rg finds" >&2
    failed=1
  fi
  local commands=(-n foldgrep "$FOLDGREP -c -e $(q "$query") $file"
    -n rg "rg -c -i -F -e $(q "$query") $file")
  local peers=(rg)
  if [ -n "${BASELINE:-}" ]; then
    commands+=(-n baseline "$BASELINE -c -e $(q "$query") $file")
  fi
  if have grep; then
    commands+=(-n grep "grep -c -i -F -e $(q "$query") $file")
    peers+=(grep)
  fi
  if have ugrep; then
    commands+=(-n ugrep "ugrep -c -i -F -e $(q "$query") $file")
    peers+=(ugrep)
  fi
  if [ "$name" = spanish ] && [ -n "${accent_class[$query]:-}" ]; then
    commands+=(-n rg-class "rg -c -i -e $(q "${accent_class[$query]}") $file")
    peers+=(rg-class)
  fi
  local json=$work/hyperfine.json
  # (Exit status 1, no match, is not a failure: -i.)
  # (Its warnings, outliers on a shared machine, go to a file.)
  hyperfine -N --style none --output=pipe --warmup 1 --runs "$runs" -i --export-json "$json" \
    "${commands[@]}" >/dev/null 2>"$work/hyperfine.log"
  python3 - "$json" "$name" "$query" "$ours" "$theirs" >>"$table" <<'PY'
import json, sys
path, name, query, ours, theirs = sys.argv[1:]
runs = json.load(open(path))["results"]
results = {r["command"]: r["median"] for r in runs}
# CPU time (user + system, mean): on a shared machine, where the wall clock
# waits for a core, the steadier figure.
cpu = {r["command"]: r["user"] + r["system"] for r in runs}
def cell(key):
    return "%.1f ms" % (results[key] * 1000) if key in results else "—"
ratio = results["foldgrep"] / results["rg"]
cpu_ratio = cpu["foldgrep"] / cpu["rg"]
baseline = f" {cell('baseline')} |" if "baseline" in results else ""
print(f"| {name} | `{query}` | {cell('foldgrep')} |{baseline} {cell('rg')} | {cell('grep')} | "
      f"{cell('ugrep')} | {cell('rg-class')} | {ratio:.2f} | {cpu_ratio:.2f} | {ours} / {theirs} |")
PY
  tail -n 1 "$table"
}
echo "Spanish: $spanish ($(stat -c %s "$spanish") bytes); Latin: $latin ($(stat -c %s "$latin") bytes)"
for query in "${spanish_queries[@]}"; do run_query "$spanish" spanish "$query"; done
for query in "${latin_queries[@]}"; do run_query "$latin" latin "$query"; done
echo
cat "$table"
exit "$failed"
