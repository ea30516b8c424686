#!/usr/bin/env bash
# Runs the test suite under sanitizers: one command for all three.
#
#   Scripts/sanitizers.sh            # address+undefined, then thread
#   Scripts/sanitizers.sh asan       # only AddressSanitizer + UndefinedBehaviorSanitizer
#   Scripts/sanitizers.sh tsan       # only ThreadSanitizer
#
# asan: the whole suite (`swift test`) built with --sanitize address and, for the C shim,
#       -fsanitize=undefined (ASan and UBSan in one build; any report aborts the run).
#       Memory-measuring tests skip themselves (FOLDSEARCH_SANITIZER).
# tsan: the concurrency tests (ReliabilityTests "Concurrency": threads sharing one
#       FoldedText, threads building their own, first use of the fold tables racing in a
#       fresh process) built with --sanitize thread.
# Time bounds of the hostile-input tests are multiplied by FOLDSEARCH_SLOWDOWN.
# Each sanitizer builds into its own scratch directory ($SANITIZER_SCRATCH, default
# /tmp/foldsearch-sanitizers/NAME). Exit status 0 only if every pass is clean.
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
  note "$pass: swift build --build-tests ${sanitize[*]} (scratch $scratch)"
  swift build --build-tests --scratch-path "$scratch" "${sanitize[@]}"
  note "$pass: swift test ${filter[*]}"
  if FOLDSEARCH_SANITIZER=$pass FOLDSEARCH_SLOWDOWN=${FOLDSEARCH_SLOWDOWN:-$slowdown} \
    swift test --skip-build --scratch-path "$scratch" "${sanitize[@]}" "${filter[@]}"; then
    note "$pass: clean"
  else
    note "$pass: FAILED" >&2
    status=1
  fi
done
exit $status
