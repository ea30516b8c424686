#!/usr/bin/env bash
# Instructions per byte for fold (both profiles), search (per needle) and
# one-shot (and instructions a keystroke of type-ahead), counted by callgrind:
# repeatable on a shared, noisy machine where timings drift.
#
#   Benchmarks/callgrind.sh [FILE...]      (default: the bundled sample)
#
# valgrind 3.19 cannot read Swift's DWARF 5, so a copy of foldbench without
# debug info is profiled. Two things that would make the counts vary are
# fixed: Swift's per-process hash seed (SWIFT_DETERMINISTIC_HASHING), and the
# one-shot scan's loop, which the kernel otherwise chooses by the clock
# (FOLDSEARCH_ONESHOT_LOOP: skipping by default, `straight` counts the other).
set -euo pipefail
export SWIFT_DETERMINISTIC_HASHING=1
export FOLDSEARCH_ONESHOT_LOOP=${FOLDSEARCH_ONESHOT_LOOP:-skipping}
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
if ! log=$(swift build -c release --product foldbench 2>&1); then echo "$log" >&2; exit 2; fi
binary=$(mktemp)
trap 'rm -f "$binary" "$binary".*' EXIT
strip --strip-debug -o "$binary" .build/release/foldbench
if [ $# -eq 0 ]; then set -- Corpus/sample/*.txt; fi
bytes=$(cat "$@" | wc -c)
count() {  # phase, symbol pattern → instructions inside the probe
  valgrind --tool=callgrind --callgrind-out-file="$binary.out" --toggle-collect="$2" \
    "$binary" --probe "$1" "${@:3}" >/dev/null 2>&1
  callgrind_annotate "$binary.out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}
fold=$(count fold '*probeFold*' "$@")
# (The compiler merges probeFoldCollation into probeFold's body, a jump
# away: its own symbol holds no instruction. Only the collation fold runs in
# this process.)
collation=$(count fold-collation '*probeFold*' "$@")
search=$(count search '*probeSearch*' "$@")
oneshot=$(count oneshot '*probeOneShot*' "$@")
# The demo's type-ahead keystrokes over its own 1 MB passage (not the files).
typeahead=$(count type-ahead '*probeTypeAhead*' "$@")
keystrokes=$("$binary" --probe type-ahead "$@" | awk '{print $2}')
needles=$("$binary" --probe search "$@" | awk '{print $2}')
printf 'input: %s bytes\n' "$bytes"
awk -v i="$fold" -v b="$bytes" 'BEGIN { printf "fold:   %.2f instructions/byte\n", i / b }'
awk -v i="$collation" -v b="$bytes" \
  'BEGIN { printf "fold, collation profile: %.2f instructions/byte\n", i / b }'
awk -v i="$search" -v b="$bytes" -v n="$needles" \
  'BEGIN { printf "search: %.2f instructions/byte (mean over %d needles)\n", i / b / n, n }'
awk -v i="$oneshot" -v b="$bytes" -v n="$needles" \
  'BEGIN { printf "one-shot: %.2f instructions/byte (mean over %d needles, foldedByteRanges)\n", i / b / n, n }'
awk -v i="$typeahead" -v k="$keystrokes" \
  'BEGIN { printf "type-ahead: %.0f instructions a keystroke (mean over %d, FindSession, 1 MB demo passage)\n", i / k, k }'
