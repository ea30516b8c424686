#!/usr/bin/env bash
# Many queries from a file: `foldgrep -c -f` against `rg -i -F -f` and
# `grep -i -F -f` (which fold case only: they miss "corazón" for "corazon"),
# timed with hyperfine on one large file, for 10 / 100 / 1,000 / 10,000 words
# drawn from it. Writes a Markdown table to stdout and to
# .build/multi-query/table.md, after checking that foldgrep's count is at least
# the case-only tools' (it finds every line they find, and the accented ones).
#
#   Benchmarks/multi-query.sh            # 64 MiB of Corpus/large/latin.txt, or
#                                         # of the Latin samples repeated
#   Benchmarks/multi-query.sh --quick    # 4 MiB, 10 and 100 queries, 1 run (CI)
#   Benchmarks/multi-query.sh FILE       # FILE as it is
#
# hyperfine runs with --output=pipe: GNU grep stops at its first match when its
# output is /dev/null.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
file=""
for argument in "$@"; do
  case "$argument" in
    --quick) quick=1 ;;
    *) file=$argument ;;
  esac
done
work=.build/multi-query
mkdir -p "$work"
size_mib=$((quick ? 4 : 64))
counts="10 100 1000 10000"
runs=3
if [ "$quick" = 1 ]; then counts="10 100"; runs=1; fi
if [ -z "$file" ]; then
  file=$work/input-${size_mib}MiB.txt
  if [ ! -s "$file" ]; then
    if [ -s Corpus/large/latin.txt ]; then
      head -c $((size_mib << 20)) Corpus/large/latin.txt >"$file"
    else
      # The Latin samples, repeated to the size (a line never split).
      : >"$file"
      while [ "$(stat -c %s "$file")" -lt $((size_mib << 20)) ]; do
        cat Corpus/sample/{cs,de,en,es,fr,pl,pt,tr,vi}.txt >>"$file"
      done
    fi
  fi
fi
swift build -c release --product foldgrep >/dev/null
foldgrep=.build/release/foldgrep
# Distinct words of 3 letters or more, in a fixed shuffled order.
words=$work/words.txt
head -c $((8 << 20)) "$file" | tr -cs '[:alpha:]\200-\377' '\n' | awk 'length($0) >= 3' \
  | sort -u | shuf --random-source=<(yes) >"$words"
table=$work/table.md
{
  echo "Input: $file ($(stat -c %s "$file") bytes); $(nproc) cores; hyperfine --output=pipe, $runs runs"
  echo
  echo "| queries | foldgrep -c -f | rg -i -F -f | grep -i -F -f | lines: foldgrep / rg / grep |"
  echo "|---:|---:|---:|---:|---|"
} >"$table"
for count in $counts; do
  list=$work/queries-$count.txt
  head -n "$count" "$words" >"$list"
  ours=$("$foldgrep" -c -f "$list" "$file" || true)
  theirs=$(rg -i -F -c -f "$list" "$file" || true)
  gnu=$(LC_ALL=C.UTF-8 grep -i -F -c -f "$list" "$file" || true)
  if [ "${ours:-0}" -lt "${theirs:-0}" ]; then
    echo "foldgrep counted $ours lines, rg $theirs: foldgrep must find every line rg finds" >&2
    exit 1
  fi
  json=$work/hyperfine-$count.json
  hyperfine --style none --output=pipe --runs "$runs" --warmup 1 --export-json "$json" \
    -n foldgrep "$foldgrep -c -f $list $file" \
    -n rg "rg -i -F -c -f $list $file" \
    -n grep "env LC_ALL=C.UTF-8 grep -i -F -c -f $list $file" >/dev/null
  medians=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(" | ".join("%.2f s" % x["median"] for x in r))' "$json")
  echo "| $count | $medians | $ours / $theirs / $gnu |" >>"$table"
done
cat "$table"
