// Dispatch.c — the per-arch choice: the CPU is asked once
// (__builtin_cpu_supports) for the most capable level, and every exported
// entry point runs the kernel of the level it is given, lowered to that one
// (fssimd_clamp), so that a caller or a test can pin a lower level.
//
// Invariants: a kernel compiled for an instruction set (a target
// attribute) is called only at a level the CPU reports; every level
// returns the same results (the kernels' tests compare them).
#include "Internal.h"

// MARK: - Per-arch choice

static int32_t fssimd_detect_level(void) {
#if defined(FSSIMD_HAS_X86)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
      __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("avx2")) {
    return FSSIMD_LEVEL_AVX512;
  }
  return __builtin_cpu_supports("avx2") ? FSSIMD_LEVEL_AVX2 : FSSIMD_LEVEL_SSE2;
#else
  return FSSIMD_LEVEL_PORTABLE;
#endif
}

int32_t fssimd_best_level(void) {
  // -1 = not asked yet. Racing first calls compute the same value.
  static int32_t cached = -1;
  int32_t level = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (level < 0) {
    level = fssimd_detect_level();
    __atomic_store_n(&cached, level, __ATOMIC_RELAXED);
  }
  return level;
}

static inline int32_t fssimd_clamp(int32_t level) {
  int32_t best = fssimd_best_level();
  return level > best ? best : level;
}

int64_t fssimd_find_short_collect(int32_t level, const uint8_t *haystack, int64_t n,
                                  int64_t start, const uint8_t *needle, int64_t m, int64_t *out,
                                  int64_t capacity, int64_t *next) {
  if (n <= 0 || m < 1 || m > 3 || start > n - m) {
    *next = start > n - m + 1 ? start : n - m + 1;
    return 0;
  }
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
    case FSSIMD_LEVEL_AVX2:
      return fssimd_find_short_avx2(haystack, n, start, needle, m, out, capacity, next);
    case FSSIMD_LEVEL_SSE2:
      return fssimd_find_short_sse2(haystack, n, start, needle, m, out, capacity, next);
#endif
    default:
      return fssimd_short_collect_portable(haystack, n, start, needle, m, out, capacity, next);
  }
}

fssimd_result fssimd_pair_find(int32_t level, const uint8_t *haystack, int64_t n, int64_t start,
                               fssimd_pair_state *state) {
  if (n <= 0 || start > n - state->needle_count) return fssimd_none();
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
    case FSSIMD_LEVEL_AVX2:
      return fssimd_pair_find_avx2(haystack, n, start, state);
    case FSSIMD_LEVEL_SSE2:
      return fssimd_pair_find_sse2(haystack, n, start, state);
#endif
    default:
      return fssimd_pair_portable(haystack, n, start, state);
  }
}

// MARK: - ASCII fold

int64_t fssimd_ascii_lower(int32_t level, const uint8_t *src, int64_t n, uint8_t *dst,
                           int32_t stop_at_controls) {
  if (n <= 0) return 0;
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
    case FSSIMD_LEVEL_AVX2:
      return fssimd_ascii_lower_avx2(src, n, dst, stop_at_controls);
    case FSSIMD_LEVEL_SSE2:
      return fssimd_ascii_lower_sse2(src, n, dst, stop_at_controls);
#endif
    default:
      return 0;
  }
}

// MARK: - Fold fast path

void fssimd_fold_run(int32_t level, fssimd_fold_state *state) {
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
      fssimd_fold_run_avx512(state);
      return;
    case FSSIMD_LEVEL_AVX2:
      fssimd_fold_run_avx2(state);
      return;
    case FSSIMD_LEVEL_SSE2:
      // (No byte shuffles for the ASCII contraction starters: the caller
      // folds those texts.)
      if (!state->ascii_contraction_nibbles) fssimd_fold_run_sse2(state);
      return;
#endif
    default:
      return;
  }
}

int64_t fssimd_oneshot_collect(int32_t level, const uint8_t *haystack, int64_t n, int64_t start,
                               fssimd_anchor *anchor, int64_t *out, int64_t capacity,
                               int64_t *next) {
  if (start >= n) {
    *next = start > n ? start : n;
    return 0;
  }
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
      return fssimd_oneshot_avx512(haystack, n, start, anchor, out, capacity, next);
    case FSSIMD_LEVEL_AVX2:
      return fssimd_oneshot_avx2(haystack, n, start, anchor, out, capacity, next);
#endif
    default:
      return fssimd_oneshot_collect_portable(haystack, n, start, n, anchor, out, capacity, next);
  }
}

int64_t fssimd_oneshot_collect_multi(int32_t level, const uint8_t *haystack, int64_t n,
                                     int64_t start, const fssimd_anchor *anchors, int32_t k,
                                     int64_t *out, uint8_t *which, int64_t capacity,
                                     int64_t *next) {
  if (start >= n || k < 1 || k > 8) {
    *next = start > n ? start : n;
    return 0;
  }
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
      return fssimd_oneshot_multi_avx512(haystack, n, start, anchors, k, out, which, capacity,
                                         next);
    case FSSIMD_LEVEL_AVX2:
      return fssimd_oneshot_multi_avx2(haystack, n, start, anchors, k, out, which, capacity, next);
#endif
    default:
      return fssimd_oneshot_multi_collect_portable(haystack, n, start, n, anchors, k, out, which,
                                                   capacity, next);
  }
}

// MARK: - UTF-8 validation

int32_t fssimd_utf8_valid_at(int32_t level, const uint8_t *p, int64_t n) {
  if (n <= 0) return 1;
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
    case FSSIMD_LEVEL_AVX2:
      return fssimd_utf8_valid_avx2(p, n);
#endif
    default:
      return fssimd_utf8_valid_portable(p, n);
  }
}

int32_t fssimd_utf8_valid(const uint8_t *p, int64_t n) {
  return fssimd_utf8_valid_at(fssimd_best_level(), p, n);
}
