#!/usr/bin/env bash
# Runs the suites that guard memory safety under sanitizers: one command for all three.
#
#   Scripts/sanitizers.sh            # address+undefined, then thread
#   Scripts/sanitizers.sh asan       # only AddressSanitizer + UndefinedBehaviorSanitizer
#   Scripts/sanitizers.sh tsan       # only ThreadSanitizer
#   ASAN_SUITES=all Scripts/sanitizers.sh asan   # the whole suite under ASan (slow)
#
# asan: the suites listed in ASAN_SUITES below, built with --sanitize address and, for
#       the C targets, -fsanitize=undefined (ASan and UBSan in one build; any report
#       aborts the run); then the committed fuzz seeds (Fuzz/seeds/TARGET) replayed
#       through both fuzz targets' checks in the same build (their replay mode: every
#       input in name order, deterministic). Memory-measuring tests skip themselves
#       (FOLDSEARCH_SANITIZER).
# tsan: the concurrency tests (ReliabilityTests "Concurrency": threads sharing one
#       FoldedText, threads building their own, first use of the fold tables racing in a
#       fresh process) built with --sanitize thread.
# Time bounds of the hostile-input tests are multiplied by FOLDSEARCH_SLOWDOWN.
# Each sanitizer builds into its own scratch directory ($SANITIZER_SCRATCH, default
# /tmp/foldsearch-sanitizers/NAME). Exit status 0 only if every pass is clean.
#
# Why these suites. ASan and UBSan find what the language does not check: reads and
# writes through unsafe pointers in Swift, and the C code (the ICU shim, the SIMD
# kernels, the map encoder). The rest of the suite runs in `swift test`, where Swift
# checks bounds and overflow itself; under ASan it would run 3-4 times slower for no
# C or pointer path that the suites below do not already take. (The whole suite under
# ASan took 18 minutes of CI's 39.) Each suite below takes a path of that kind:
asan_suites=(
  # C byte-search kernels (SSE2/AVX2 loads up to the buffer's last byte, tails shorter
  # than a vector, the short-needle collector, the one-shot candidate kernel, the ASCII
  # fold kernel), Horspool and Two-Way over unsafe buffers.
  _FoldSearchBytesTests
  # The fold's C kernels at every vector level against the portable fold (output
  # written in place, map notes in the same buffer), and the fold's Swift loop.
  FoldSearchTests.FoldFastPathTests
  # The map encoder in C (vector layer, portable loop) and the delta-coded map's
  # storage, decoded through unsafe pointers.
  FoldSearchTests.MapEncodingTests
  FoldSearchTests.OffsetMapStorageTests
  # The fold and search end to end on small texts, and sizes around every threshold.
  FoldSearchTests.FoldedTextTests
  FoldSearchTests.EdgeCaseTests
  # The one-shot search: walks back over scalars from raw candidates, pinned anchors.
  FoldSearchTests.OneShotSearchTests
  # The parallel fold: pieces folded into regions of one shared buffer, moved down in
  # place; the parallel search's pieces and their merge.
  FoldSearchTests.ParallelFoldTests
  FoldSearchTests.ParallelSearchTests
  # Collation tables from ICU through the C shim, contractions, the cluster rules
  # (ICU's break iterator), ranges that cut clusters and contractions.
  FoldSearchTests.CollationProfileTests
  FoldSearchTests.WindowTests
  # Every kind of invalid UTF-8 and NUL, 64-bit offsets, huge and degenerate inputs,
  # the pathological corpus, grapheme boundaries on hostile input.
  ReliabilityTests.InvalidInputTests
  ReliabilityTests.OffsetMap64Tests
  ReliabilityTests.HugeInputTests
  ReliabilityTests.PathologicalTests
  ReliabilityTests.GraphemeBoundaryTests
  # The editable fold: map splices and in-place moves of text, folded bytes and
  # matches; the record index's one buffer.
  FoldSearchAppTests.FindSessionTests
  FoldSearchAppTests.FoldIndexTests
  # The UTF-8 validation of raw chunks, and foldgrep's streaming buffers.
  FoldSearchTests.UTF8ValidationTests
  FoldGrepTests.StreamingTests
)
# Not here (they run in `swift test`): the differential and reference suites (their
# time goes to the Foundation reference, a naive loop; the fuzz seeds replayed below
# run the engine's side of those comparisons), the semantics model and fold-rule
# tables (Swift over safe collections), foldgrep's flag and output tests (process
# runs and formatting), resource bounds (skipped under sanitizers), and the
# concurrency tests (the TSan pass).

set -euo pipefail
cd "$(dirname "$0")/.."

root=${SANITIZER_SCRATCH:-/tmp/foldsearch-sanitizers}
passes=("$@")
[ ${#passes[@]} -gt 0 ] || passes=(asan tsan)

# The Swift backtracer would race the sanitizers' own reports.
export SWIFT_BACKTRACE=enable=no
status=0
# Headers show the seconds since the script started.
note() { echo "== [${SECONDS}s] $*"; }
for pass in "${passes[@]}"; do
  case "$pass" in
    asan)
      # swiftc has no -sanitize=undefined on Linux: UBSan instruments the C shim
      # (its handlers come with the ASan runtime); Swift code checks overflow,
      # bounds and pointer preconditions itself in debug builds.
      sanitize=(--sanitize address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined)
      filter=()
      if [ "${ASAN_SUITES:-}" != all ]; then
        for suite in "${asan_suites[@]}"; do filter+=(--filter "$suite"); done
      fi
      export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
      export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
      slowdown=8
      ;;
    tsan)
      sanitize=(--sanitize thread)
      filter=(--filter 'ReliabilityTests.ConcurrencyTests')
      export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:exitcode=66}
      slowdown=20
      ;;
    *) echo "unknown pass $pass (asan or tsan)" >&2; exit 2 ;;
  esac
  scratch="$root/$pass"
  # The test bundle (and, for asan, the fuzz targets and foldgrep, which the tests
  # run), not the benchmark and tools that `--build-tests` would build too.
  products=(FoldSearchPackageTests)
  [ "$pass" = asan ] && products+=(foldgrep FuzzFoldedText FuzzDifferential FuzzQuerySet)
  for product in "${products[@]}"; do
    note "$pass: swift build --product $product ${sanitize[*]} (scratch $scratch)"
    swift build --scratch-path "$scratch" "${sanitize[@]}" --product "$product"
  done
  note "$pass: swift test ${filter[*]}"
  if FOLDSEARCH_SANITIZER=$pass FOLDSEARCH_SLOWDOWN=${FOLDSEARCH_SLOWDOWN:-$slowdown} \
    swift test --skip-build --scratch-path "$scratch" "${sanitize[@]}" "${filter[@]}"; then
    note "$pass: clean"
  else
    note "$pass: FAILED" >&2
    status=1
  fi
  if [ "$pass" = asan ]; then
    # The fuzz targets' checks over every committed seed, under ASan and UBSan.
    bin=$(swift build --scratch-path "$scratch" "${sanitize[@]}" --show-bin-path)
    for target in FuzzFoldedText FuzzDifferential FuzzQuerySet; do
      note "asan: $target replays Fuzz/seeds/$target"
      if "$bin/$target" "Fuzz/seeds/$target"; then
        note "asan: $target clean"
      else
        note "asan: $target FAILED" >&2
        status=1
      fi
    done
  fi
done
exit $status
