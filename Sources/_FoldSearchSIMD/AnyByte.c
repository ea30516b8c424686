// AnyByte.c — the first of up to three bytes (a memchr3), the rare-byte
// prefilter of FoldSearch's query-set searcher (PatternSetSearcher); and the
// last of one byte (libc's memrchr, for the walk back to a line's start).
//
// Idea (as BurntSushi's memchr crate's memchr3): compare 16 (SSE2) or 32
// (AVX2) haystack bytes at a time with each wanted byte, OR the three
// comparisons, and take the lowest set bit of the mask; the tail and the
// portable level run a plain loop. Every level returns the same position.
#define _GNU_SOURCE
#include "FoldSearchSIMD.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

static int64_t fssimd_any_byte_portable(const uint8_t *h, int64_t n, int64_t start, uint8_t b0,
                                        uint8_t b1, uint8_t b2) {
  for (int64_t i = start; i < n; i++) {
    uint8_t c = h[i];
    if (c == b0 || c == b1 || c == b2) return i;
  }
  return n;
}

#if defined(__x86_64__)
static int64_t fssimd_any_byte_sse2(const uint8_t *h, int64_t n, int64_t start, uint8_t b0,
                                    uint8_t b1, uint8_t b2) {
  const __m128i v0 = _mm_set1_epi8((char)b0);
  const __m128i v1 = _mm_set1_epi8((char)b1);
  const __m128i v2 = _mm_set1_epi8((char)b2);
  int64_t i = start;
  for (; i + 16 <= n; i += 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(h + i));
    __m128i eq = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, v0), _mm_cmpeq_epi8(x, v1)),
                              _mm_cmpeq_epi8(x, v2));
    unsigned mask = (unsigned)_mm_movemask_epi8(eq);
    if (mask) return i + __builtin_ctz(mask);
  }
  return fssimd_any_byte_portable(h, n, i, b0, b1, b2);
}

__attribute__((target("avx2"))) static int64_t fssimd_any_byte_avx2(const uint8_t *h, int64_t n,
                                                                     int64_t start, uint8_t b0,
                                                                     uint8_t b1, uint8_t b2) {
  const __m256i v0 = _mm256_set1_epi8((char)b0);
  const __m256i v1 = _mm256_set1_epi8((char)b1);
  const __m256i v2 = _mm256_set1_epi8((char)b2);
  int64_t i = start;
  for (; i + 32 <= n; i += 32) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(h + i));
    __m256i eq = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(x, v0), _mm256_cmpeq_epi8(x, v1)),
        _mm256_cmpeq_epi8(x, v2));
    unsigned mask = (unsigned)_mm256_movemask_epi8(eq);
    if (mask) return i + __builtin_ctz(mask);
  }
  return fssimd_any_byte_sse2(h, n, i, b0, b1, b2);
}
#endif

int64_t fssimd_find_any_byte(int32_t level, const uint8_t *haystack, int64_t n, int64_t start,
                             uint8_t b0, uint8_t b1, uint8_t b2) {
  if (start >= n) return n;
  if (start < 0) start = 0;
  int32_t best = fssimd_best_level();
  if (level > best) level = best;
#if defined(__x86_64__)
  if (level >= FSSIMD_LEVEL_AVX2) return fssimd_any_byte_avx2(haystack, n, start, b0, b1, b2);
  if (level >= FSSIMD_LEVEL_SSE2) return fssimd_any_byte_sse2(haystack, n, start, b0, b1, b2);
#endif
  return fssimd_any_byte_portable(haystack, n, start, b0, b1, b2);
}

int64_t fssimd_find_last_byte(const uint8_t *haystack, int64_t start, int64_t end, uint8_t b) {
  if (end <= start) return start - 1;
  const uint8_t *found = memrchr(haystack + start, b, (size_t)(end - start));
  return found ? (int64_t)(found - haystack) : start - 1;
}
