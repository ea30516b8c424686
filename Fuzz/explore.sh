#!/usr/bin/env bash
# Long-run exploration with fresh seeds: the fuzzing that looks for new ground.
#
#   Fuzz/explore.sh [SECONDS]          # default 3600 per fuzzer
#   Fuzz/explore.sh 1200 FuzzDifferential
#
# Runs, one after the other, for SECONDS each:
#   - each libFuzzer target named (default: FuzzDifferential, then FuzzFoldedText)
#     through Fuzz/run.sh, with a fresh random seed, from the committed seeds plus the
#     working corpus that grows between runs ($FUZZ_WORK, default /tmp/foldsearch-fuzz);
#   - foldfuzz (the differential generator) with a fresh seed, when no target is named.
# Every seed is printed, so a run can be repeated. This is not a CI step: what it meets
# depends on its seeds and on time. CI replays the committed seeds instead
# (Scripts/sanitizers.sh), so a tree gets the same verdict on every run.
#
# What a run finds joins the committed seeds as Fuzz/seeds/TARGET/found-NAME (the input
# libFuzzer wrote to $FUZZ_WORK/TARGET/artifacts/), and, once shrunk, a regression case
# in Tests/ (DifferentialRegressions for the differential targets), so that CI checks it
# from then on. Fuzz/README.md lists what was found and how.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-3600}
shift || true
targets=("$@")
explicit=${#targets[@]}
[ "$explicit" -gt 0 ] || targets=(FuzzDifferential FuzzFoldedText)

status=0
for target in "${targets[@]}"; do
  seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  echo "== $target: ${seconds}s, -seed=$seed"
  Fuzz/run.sh "$target" "$seconds" -seed="$seed" || status=$?
done
if [ "$explicit" -eq 0 ]; then
  seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  echo "== foldfuzz: ${seconds}s, --seed $seed"
  swift run -c release foldfuzz --seed "$seed" --seconds "$seconds" || status=$?
fi
exit $status
