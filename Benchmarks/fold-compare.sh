#!/usr/bin/env bash
# Two builds of foldbench side by side on the fold, in turns, so that the
# machine's load hits both alike: the fold kernel alone at one level
# (`FOLDBENCH_LEVEL=L foldbench --probe fold-kernel`: no page faults, no map)
# and the whole sequential fold at the CPU's best level with its map
# (`--probe fold-best`), ROUNDS rounds per file; prints each round's MB/s,
# the medians and NEW / OLD.
#
#   bash Benchmarks/fold-compare.sh OLD_FOLDBENCH NEW_FOLDBENCH FILE...
#   ROUNDS=5 LEVEL=3 bash Benchmarks/fold-compare.sh /tmp/foldbench-main .build/release/foldbench \
#       Corpus/large/latin.txt Corpus/large/mixed.txt
#
# OLD is typically a copy of .build/release/foldbench built at the base commit.
# RUN is a prefix for every run, e.g. RUN="chrt -f 5" (root) on a loaded machine,
# where the scheduler otherwise hands each process a slice of the load.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 OLD_FOLDBENCH NEW_FOLDBENCH FILE..." >&2; exit 2; }
OLD=$1 NEW=$2
shift 2
ROUNDS=${ROUNDS:-5}
LEVEL=${LEVEL:-3}
RUN=${RUN:-}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for file in "$@"; do
  declare -A runs=()
  for round in $(seq "$ROUNDS"); do
    for which in old new; do
      bin=$OLD
      [ "$which" = new ] && bin=$NEW
      k=$(FOLDBENCH_LEVEL=$LEVEL $RUN "$bin" --probe fold-kernel "$file" | sed -n 's/.*: \([0-9]*\) MB\/s.*/\1/p')
      f=$($RUN "$bin" --probe fold-best "$file" | sed -n 's/.*: \([0-9]*\) MB\/s.*/\1/p')
      runs[$which-kernel]+="$k "
      runs[$which-fold]+="$f "
    done
  done
  echo "$(basename "$file"), $ROUNDS rounds in turns (MB/s, each round's median of nine):"
  for probe in kernel fold; do
    o=$(echo "${runs[old-$probe]}" | median)
    n=$(echo "${runs[new-$probe]}" | median)
    label="kernel, level $LEVEL"
    [ "$probe" = fold ] && label="whole fold, one thread"
    printf '  %-24s old %5d [%s]  new %5d [%s]  new/old %.2f\n' "$label" "$o" \
      "${runs[old-$probe]% }" "$n" "${runs[new-$probe]% }" "$(echo "$n / $o" | bc -l)"
  done
  unset runs
done
