#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time.
#
#   Fuzz/run.sh TARGET SECONDS [extra libFuzzer flags...]
#   Fuzz/run.sh FuzzFoldedText 120
#   Fuzz/run.sh FuzzDifferential 120 -jobs=2 -workers=2
#
# TARGET is FuzzFoldedText, FuzzDifferential or FuzzQuerySet. Builds it with
# -sanitize=fuzzer,address -DFUZZING into $FUZZ_SCRATCH (default /tmp/fuzz-build),
# then fuzzes with the committed seeds (Fuzz/seeds/TARGET, read-only) and a working
# corpus ($FUZZ_WORK/TARGET/corpus, default /tmp/foldsearch-fuzz) that grows between
# runs, the UTF-8 dictionary and per-input time limits. Crash, timeout and OOM inputs
# land in $FUZZ_WORK/TARGET/artifacts/; the exit status is libFuzzer's (0 = nothing found).
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: Fuzz/run.sh TARGET SECONDS [libFuzzer flags...]}
seconds=${2:?usage: Fuzz/run.sh TARGET SECONDS [libFuzzer flags...]}
shift 2
case "$target" in
  FuzzFoldedText) max_len=4096 ;;
  FuzzDifferential) max_len=400 ;;
  FuzzQuerySet) max_len=600 ;;
  *) echo "unknown target $target (FuzzFoldedText, FuzzDifferential or FuzzQuerySet)" >&2; exit 2 ;;
esac

scratch=${FUZZ_SCRATCH:-/tmp/fuzz-build}
work=${FUZZ_WORK:-/tmp/foldsearch-fuzz}/$target
mkdir -p "$work/corpus" "$work/artifacts"

echo "== building $target (fuzzer,address) in $scratch"
swift build -c release --scratch-path "$scratch" --product "$target" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 | grep -v '^\[' || true
binary="$scratch/release/$target"
[ -x "$binary" ] || { echo "build failed" >&2; exit 2; }

echo "== fuzzing $target for ${seconds}s (corpus $work/corpus)"
# -timeout: one input may take at most 10 s (a hang is a bug: everything is linear).
# -rss_limit_mb: inputs are ≤ 4 KiB, so 2 GiB means a leak or blow-up.
# -detect_leaks=0: Swift's runtime caches (metadata, the fold table) are live for
# the whole process and look like leaks to LeakSanitizer.
# The Swift runtime's backtracer races AddressSanitizer's report on a crash; libFuzzer
# and ASan print the stack themselves.
export SWIFT_BACKTRACE=enable=no
exec "$binary" "$work/corpus" "Fuzz/seeds/$target" \
  -dict=Fuzz/utf8.dict -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -max_total_time="$seconds" -print_final_stats=1 -detect_leaks=0 \
  -artifact_prefix="$work/artifacts/" "$@"
