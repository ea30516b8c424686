// FoldSearchSIMD.c — byte-search kernels: the portable layer, the vector
// layer instantiated for SSE2 and AVX2 (Kernels.h), and the run-time choice.
// See include/FoldSearchSIMD.h for the contracts.
#include "FoldSearchSIMD.h"

#include <string.h>

// MARK: - Results

static inline fssimd_result fssimd_found(int64_t position) {
  fssimd_result r = {position, FSSIMD_FOUND};
  return r;
}

static inline fssimd_result fssimd_none(void) {
  fssimd_result r = {-1, FSSIMD_NONE};
  return r;
}

static inline fssimd_result fssimd_handover(int64_t position) {
  fssimd_result r = {position, FSSIMD_HANDOVER};
  return r;
}

static inline fssimd_block fssimd_block_at(int64_t base, uint64_t mask, int64_t end) {
  fssimd_block b = {base, mask, end};
  return b;
}

// MARK: - Portable layer

// Whether the candidate at `position` may not be verified any more: the
// verification work so far exceeds 4 × (position − origin) + 2m + 256.
static inline int fssimd_over_budget(const fssimd_pair_state *s, int64_t position) {
  return s->budgeted &&
         s->work > 4 * (position - s->origin) + 2 * s->needle_count + 256;
}

// Compares the window `w` with the needle, 8 bytes at a time (the last chunk
// overlapping the previous one), and adds the bytes compared to *work.
// Caller obligations: w and nd point to m >= 1 readable bytes.
static inline int fssimd_verify(const uint8_t *w, const uint8_t *nd, int64_t m, int64_t *work) {
  if (m >= 8) {
    int64_t i = 0;
    uint64_t a, b;
    for (; i + 8 <= m; i += 8) {
      memcpy(&a, w + i, 8);
      memcpy(&b, nd + i, 8);
      if (a != b) {
        *work += i + 8;
        return 0;
      }
    }
    if (i < m) {
      memcpy(&a, w + m - 8, 8);
      memcpy(&b, nd + m - 8, 8);
      if (a != b) {
        *work += m;
        return 0;
      }
    }
    *work += m;
    return 1;
  }
  for (int64_t i = 0; i < m; i++) {
    if (w[i] != nd[i]) {
      *work += i + 1;
      return 0;
    }
  }
  *work += m;
  return 1;
}

// The pair prefilter one window at a time.
static fssimd_result fssimd_pair_portable(const uint8_t *h, int64_t n, int64_t start,
                                          fssimd_pair_state *s) {
  const int64_t m = s->needle_count;
  const uint8_t *nd = s->needle;
  const uint8_t b1 = nd[s->index1], b2 = nd[s->index2];
  const uint8_t *p1 = h + s->index1, *p2 = h + s->index2;
  for (int64_t j = start; j <= n - m; j++) {
    if (p1[j] != b1 || p2[j] != b2) continue;
    if (fssimd_over_budget(s, j)) return fssimd_handover(j);
    if (fssimd_verify(h + j, nd, m, &s->work)) return fssimd_found(j);
  }
  return fssimd_none();
}

// A 1–3 byte needle one window at a time: the occurrences among the first
// 64 starts from `start` (or up to the last start) as a block.
static fssimd_block fssimd_short_portable(const uint8_t *h, int64_t n, int64_t start,
                                          const uint8_t *nd, int64_t m) {
  const int64_t last = n - m;
  const int64_t end = last - start + 1 < 64 ? last + 1 : start + 64;
  uint64_t mask = 0;
  for (int64_t j = start; j < end; j++) {
    if (h[j] != nd[0]) continue;
    if (m >= 2 && h[j + 1] != nd[1]) continue;
    if (m >= 3 && h[j + 2] != nd[2]) continue;
    mask |= (uint64_t)1 << (j - start);
  }
  return fssimd_block_at(start, mask, end);
}

// MARK: - Vector layer

#if defined(__x86_64__)
#include <immintrin.h>
#define FSSIMD_HAS_X86 1

// SSE2: part of x86-64, no attribute needed.
#define FSK_NAME(x) fssimd_##x##_sse2
#define FSK_TARGET
#define FSK_V 16
#define FSK_VEC __m128i
#define FSK_LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define FSK_SPLAT(b) _mm_set1_epi8((char)(b))
#define FSK_EQ(a, b) _mm_cmpeq_epi8((a), (b))
#define FSK_AND(a, b) _mm_and_si128((a), (b))
#define FSK_MASK(v) _mm_movemask_epi8(v)
#define FSK_GT(a, b) _mm_cmpgt_epi8((a), (b))
#define FSK_ADD(a, b) _mm_add_epi8((a), (b))
#define FSK_OR(a, b) _mm_or_si128((a), (b))
#define FSK_STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#include "Kernels.h"
#undef FSK_NAME
#undef FSK_TARGET
#undef FSK_V
#undef FSK_VEC
#undef FSK_LOADU
#undef FSK_SPLAT
#undef FSK_EQ
#undef FSK_AND
#undef FSK_MASK
#undef FSK_GT
#undef FSK_ADD
#undef FSK_OR
#undef FSK_STOREU

// AVX2: compiled for AVX2 only inside these functions; called only when the
// CPU reports AVX2 support.
#define FSK_NAME(x) fssimd_##x##_avx2
#define FSK_TARGET __attribute__((target("avx2")))
#define FSK_V 32
#define FSK_VEC __m256i
#define FSK_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define FSK_SPLAT(b) _mm256_set1_epi8((char)(b))
#define FSK_EQ(a, b) _mm256_cmpeq_epi8((a), (b))
#define FSK_AND(a, b) _mm256_and_si256((a), (b))
#define FSK_MASK(v) _mm256_movemask_epi8(v)
#define FSK_GT(a, b) _mm256_cmpgt_epi8((a), (b))
#define FSK_ADD(a, b) _mm256_add_epi8((a), (b))
#define FSK_OR(a, b) _mm256_or_si256((a), (b))
#define FSK_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#include "Kernels.h"
#undef FSK_NAME
#undef FSK_TARGET
#undef FSK_V
#undef FSK_VEC
#undef FSK_LOADU
#undef FSK_SPLAT
#undef FSK_EQ
#undef FSK_AND
#undef FSK_MASK
#undef FSK_GT
#undef FSK_ADD
#undef FSK_OR
#undef FSK_STOREU
#endif

// MARK: - Per-arch choice

static int32_t fssimd_detect_level(void) {
#if defined(FSSIMD_HAS_X86)
  __builtin_cpu_init();
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

fssimd_block fssimd_find_short(int32_t level, const uint8_t *haystack, int64_t n, int64_t start,
                               const uint8_t *needle, int64_t m) {
  if (n <= 0 || m < 1 || m > 3 || start > n - m) {
    int64_t end = start > n - m + 1 ? start : n - m + 1;
    return fssimd_block_at(end, 0, end);
  }
  int32_t l = fssimd_clamp(level);
  // A block per call: keep looking until one holds an occurrence or the
  // haystack ends, so the caller's loop runs once per block with matches.
  for (;;) {
    fssimd_block b;
    switch (l) {
#if defined(FSSIMD_HAS_X86)
      case FSSIMD_LEVEL_AVX2:
        b = fssimd_find_short_avx2(haystack, n, start, needle, m);
        break;
      case FSSIMD_LEVEL_SSE2:
        b = fssimd_find_short_sse2(haystack, n, start, needle, m);
        break;
#endif
      default:
        b = fssimd_short_portable(haystack, n, start, needle, m);
        break;
    }
    if (b.mask != 0 || b.end > n - m) return b;
    start = b.end;
  }
}

fssimd_result fssimd_pair_find(int32_t level, const uint8_t *haystack, int64_t n, int64_t start,
                               fssimd_pair_state *state) {
  if (n <= 0 || start > n - state->needle_count) return fssimd_none();
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
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
    case FSSIMD_LEVEL_AVX2:
      return fssimd_ascii_lower_avx2(src, n, dst, stop_at_controls);
    case FSSIMD_LEVEL_SSE2:
      return fssimd_ascii_lower_sse2(src, n, dst, stop_at_controls);
#endif
    default:
      return 0;
  }
}
