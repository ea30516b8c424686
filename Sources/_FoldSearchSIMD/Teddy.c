// Teddy.c — candidate positions of a small set of patterns, the Teddy
// prefilter of FoldSearch's query sets (PatternSetSearcher).
//
// Idea (Geoff Langdale's "Teddy" in Intel's Hyperscan, as described in
// BurntSushi's aho-corasick crate, src/packed/teddy/README.md): the patterns
// are split into 8 buckets (one bit each). For each of the first 1–4 bytes
// of a pattern, two 16-entry tables map a byte's low and high nibble to the
// buckets having that nibble at that offset. A vector of haystack bytes at
// offset k is split into nibbles, each looked up with one byte shuffle
// (pshufb), the two results ANDed: a byte per position holding the buckets
// whose byte k may be there. ANDing the results for k = 0…length−1 (loads at
// offsets +0 … +3) leaves, per start position, the buckets whose
// fingerprint may start there. A nonzero byte is a candidate: the caller
// verifies the bucket's patterns. Nibble tables over-approximate (a bucket
// accepts every combination of its nibbles), never under: every occurrence
// start is a candidate.
//
// Verified form: given a set's fingerprint tables (FingerprintVerify.h),
// with four-byte masks where a bucket of three-byte patterns accepts every
// byte at the fourth offset (their start at n − 3 checked last),
// every candidate of a block is checked in the kernel and the first where a
// pattern occurs is returned, so the search leaves the vector loop only for
// a match (a block's other candidates are taken from the same mask).
//
// Invariants: every level returns the same (position, buckets); no byte at
// or past n is read (the vector loop stops while a whole block of starts
// plus the fingerprint fits; the rest runs the portable loop).
#include "FoldSearchSIMD.h"
#include "FoldSearchTeddy.h"
#include "FingerprintVerify.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

static inline uint8_t fssimd_teddy_at(const fssimd_teddy_masks *m, const uint8_t *h, int64_t p) {
  uint8_t bits = 0xFF;
  for (int32_t k = 0; k < m->length; k++) {
    uint8_t c = h[p + k];
    bits &= (uint8_t)(m->low[k][c & 15] & m->high[k][c >> 4]);
  }
  return bits;
}

static int64_t fssimd_teddy_portable(const fssimd_teddy_masks *m, const fssimd_fingerprints *f,
                                     const uint8_t *h, int64_t n, int64_t start,
                                     uint8_t *buckets) {
  int64_t work = 0;
  for (int64_t p = start; p + m->length <= n; p++) {
    uint8_t bits = fssimd_teddy_at(m, h, p);
    if (bits && (f == NULL || fssimd_fingerprint_verify(f, h, n, p, &work))) {
      *buckets = bits;
      return p;
    }
  }
  *buckets = 0;
  return n;
}

#if defined(__x86_64__)
__attribute__((target("ssse3"))) static int64_t fssimd_teddy_ssse3(const fssimd_teddy_masks *m,
                                                                    const fssimd_fingerprints *f,
                                                                    const uint8_t *h, int64_t n,
                                                                    int64_t start,
                                                                    uint8_t *buckets) {
  const int32_t length = m->length;
  int64_t work = 0;
  const __m128i nibble = _mm_set1_epi8(0x0F);
  const __m128i zero = _mm_setzero_si128();
  __m128i low[4], high[4];
  for (int32_t k = 0; k < length; k++) {
    low[k] = _mm_loadu_si128((const __m128i *)m->low[k]);
    high[k] = _mm_loadu_si128((const __m128i *)m->high[k]);
  }
  int64_t i = start;
  for (; i + 16 + length - 1 <= n; i += 16) {
    __m128i acc = _mm_set1_epi8((char)0xFF);
    for (int32_t k = 0; k < length; k++) {
      __m128i x = _mm_loadu_si128((const __m128i *)(h + i + k));
      __m128i lo = _mm_and_si128(x, nibble);
      __m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), nibble);
      acc = _mm_and_si128(acc, _mm_and_si128(_mm_shuffle_epi8(low[k], lo),
                                             _mm_shuffle_epi8(high[k], hi)));
    }
    unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(acc, zero)) ^ 0xFFFFu;
    while (mask) {
      int64_t p = i + __builtin_ctz(mask);
      if (f == NULL || fssimd_fingerprint_verify(f, h, n, p, &work)) {
        *buckets = fssimd_teddy_at(m, h, p);
        return p;
      }
      mask &= mask - 1;
    }
  }
  return fssimd_teddy_portable(m, f, h, n, i, buckets);
}

__attribute__((target("avx2"))) static int64_t fssimd_teddy_avx2(const fssimd_teddy_masks *m,
                                                                  const fssimd_fingerprints *f,
                                                                  const uint8_t *h, int64_t n,
                                                                  int64_t start,
                                                                  uint8_t *buckets) {
  const int32_t length = m->length;
  int64_t work = 0;
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i zero = _mm256_setzero_si256();
  __m256i low[4], high[4];
  for (int32_t k = 0; k < length; k++) {
    low[k] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)m->low[k]));
    high[k] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)m->high[k]));
  }
  int64_t i = start;
  for (; i + 32 + length - 1 <= n; i += 32) {
    __m256i acc = _mm256_set1_epi8((char)0xFF);
    for (int32_t k = 0; k < length; k++) {
      __m256i x = _mm256_loadu_si256((const __m256i *)(h + i + k));
      __m256i lo = _mm256_and_si256(x, nibble);
      __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
      acc = _mm256_and_si256(acc, _mm256_and_si256(_mm256_shuffle_epi8(low[k], lo),
                                                   _mm256_shuffle_epi8(high[k], hi)));
    }
    unsigned mask = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(acc, zero));
    while (mask) {
      int64_t p = i + __builtin_ctz(mask);
      if (f == NULL || fssimd_fingerprint_verify(f, h, n, p, &work)) {
        *buckets = fssimd_teddy_at(m, h, p);
        return p;
      }
      mask &= mask - 1;
    }
  }
  return fssimd_teddy_ssse3(m, f, h, n, i, buckets);
}

static int fssimd_teddy_has_ssse3(void) {
  static int cached = -1;
  int value = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (value < 0) {
    __builtin_cpu_init();
    value = __builtin_cpu_supports("ssse3") ? 1 : 0;
    __atomic_store_n(&cached, value, __ATOMIC_RELAXED);
  }
  return value;
}
#endif

static int64_t fssimd_teddy_dispatch(int32_t level, const fssimd_teddy_masks *masks,
                                     const fssimd_fingerprints *f, const uint8_t *haystack,
                                     int64_t n, int64_t start, uint8_t *buckets) {
#if defined(__x86_64__)
  if (level >= FSSIMD_LEVEL_AVX2) return fssimd_teddy_avx2(masks, f, haystack, n, start, buckets);
  if (level >= FSSIMD_LEVEL_SSE2 && fssimd_teddy_has_ssse3())
    return fssimd_teddy_ssse3(masks, f, haystack, n, start, buckets);
#else
  (void)level;
#endif
  return fssimd_teddy_portable(masks, f, haystack, n, start, buckets);
}

int64_t fssimd_teddy_find(int32_t level, const fssimd_teddy_masks *masks,
                          const uint8_t *haystack, int64_t n, int64_t start, uint8_t *buckets) {
  return fssimd_teddy_dispatch(level, masks, NULL, haystack, n, start, buckets);
}

int64_t fssimd_teddy_find_verified(int32_t level, const fssimd_teddy_masks *masks,
                                   const fssimd_fingerprints *fingerprints,
                                   const uint8_t *haystack, int64_t n, int64_t start) {
  uint8_t buckets = 0;
  int64_t p = fssimd_teddy_dispatch(level, masks, fingerprints, haystack, n, start, &buckets);
  // A four-byte Teddy with three-byte patterns: their last possible start,
  // n − 3, has no four-byte window.
  int64_t work = 0;
  if (p == n && masks->length == 4 && fingerprints->short_bits != NULL && n - 3 >= start &&
      n >= 3 && fssimd_fingerprint_verify(fingerprints, haystack, n, n - 3, &work))
    return n - 3;
  return p;
}
