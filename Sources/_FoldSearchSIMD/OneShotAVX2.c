// OneShotAVX2.c — the one-shot candidate scan (OneShotKernels.h) at
// FSSIMD_LEVEL_AVX2: a block of 64 bytes in two 32-byte AVX2 vectors, its
// bit masks from two movemasks. Dispatch.c calls these only at that level.
#include "Internal.h"

#if defined(FSSIMD_HAS_X86)
// Compiled for AVX2 only inside these functions; every function marked
// FSSIMD_AVX2 has the caller obligation that the CPU supports AVX2.
#define FSSIMD_AVX2 __attribute__((target("avx2")))

typedef struct {
  __m256i lo, hi;  // bytes 0–31, 32–63
} fssimd_block_avx2;

FSSIMD_AVX2 static inline fssimd_block_avx2 fssimd_load_avx2(const uint8_t *p) {
  return (fssimd_block_avx2){_mm256_loadu_si256((const __m256i *)(const void *)p),
                             _mm256_loadu_si256((const __m256i *)(const void *)(p + 32))};
}

// The top bits of 64 bytes, bit k = byte k.
FSSIMD_AVX2 static inline uint64_t fssimd_mask64_avx2(__m256i lo, __m256i hi) {
  return (uint64_t)(uint32_t)_mm256_movemask_epi8(lo) |
         (uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32;
}

FSSIMD_AVX2 static inline uint64_t fssimd_high_avx2(fssimd_block_avx2 v) {
  return fssimd_mask64_avx2(v.lo, v.hi);
}

FSSIMD_AVX2 static inline uint64_t fssimd_eq_or_avx2(fssimd_block_avx2 v, __m256i bits,
                                                    __m256i b) {
  return fssimd_mask64_avx2(_mm256_cmpeq_epi8(_mm256_or_si256(v.lo, bits), b),
                            _mm256_cmpeq_epi8(_mm256_or_si256(v.hi, bits), b));
}

// One OR of the anchor compares and the bytes, and one movemask.
FSSIMD_AVX2 static inline int fssimd_any_avx2(fssimd_block_avx2 v, __m256i bits, __m256i b) {
  const __m256i e = _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_or_si256(v.lo, bits), b),
                                    _mm256_cmpeq_epi8(_mm256_or_si256(v.hi, bits), b));
  return _mm256_movemask_epi8(_mm256_or_si256(e, _mm256_or_si256(v.lo, v.hi))) != 0;
}

FSSIMD_AVX2 static inline __m256i fssimd_table_avx2(const uint64_t set[2]) {
  uint64_t t[2];
  fssimd_nibble_words(set, t);
  return _mm256_broadcastsi128_si256(_mm_set_epi64x((long long)t[1], (long long)t[0]));
}

FSSIMD_AVX2 static inline __m256i fssimd_highs_avx2(void) {
  return _mm256_broadcastsi128_si256(
      _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128));
}

// Nonzero bytes where v's byte is in the set of table lo.
FSSIMD_AVX2 static inline __m256i fssimd_in_set32_avx2(__m256i v, __m256i lo, __m256i hi) {
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i l = _mm256_and_si256(v, nibble);
  const __m256i u = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
  return _mm256_and_si256(_mm256_shuffle_epi8(lo, l), _mm256_shuffle_epi8(hi, u));
}

FSSIMD_AVX2 static inline uint64_t fssimd_in_set_avx2(fssimd_block_avx2 v, __m256i lo,
                                                     __m256i hi) {
  const __m256i zero = _mm256_setzero_si256();
  return ~fssimd_mask64_avx2(_mm256_cmpeq_epi8(fssimd_in_set32_avx2(v.lo, lo, hi), zero),
                             _mm256_cmpeq_epi8(fssimd_in_set32_avx2(v.hi, lo, hi), zero));
}

#define FSO_NAME(x) fssimd_##x##_avx2
#define FSO_TARGET FSSIMD_AVX2
#define FSO_VEC __m256i
#define FSO_BLOCK fssimd_block_avx2
#define FSO_LOAD(p) fssimd_load_avx2(p)
#define FSO_SPLAT(b) _mm256_set1_epi8((char)(b))
#define FSO_TABLE(s) fssimd_table_avx2(s)
#define FSO_HIGHS() fssimd_highs_avx2()
#define FSO_HIGH(v) fssimd_high_avx2(v)
#define FSO_EQ_OR(v, bits, b) fssimd_eq_or_avx2((v), (bits), (b))
#define FSO_IN_SET(v, lo, hi) fssimd_in_set_avx2((v), (lo), (hi))
#define FSO_ANY(v, bits, b) fssimd_any_avx2((v), (bits), (b))
#include "OneShotKernels.h"
#endif
