// OneShotAVX512.c — the one-shot candidate scan (OneShotKernels.h) at
// FSSIMD_LEVEL_AVX512: a block of 64 bytes in one AVX-512 register, its bit
// masks straight from the compares. Dispatch.c calls these only at that
// level.
#include "Internal.h"

#if defined(FSSIMD_HAS_X86)
// Compiled for AVX-512 (F and BW) only inside these functions; every
// function marked FSSIMD_AVX512 has the caller obligation that the CPU
// supports them.
#define FSSIMD_AVX512 __attribute__((target("avx512f,avx512bw,bmi,bmi2,popcnt,avx2")))

FSSIMD_AVX512 static inline __m512i fssimd_table_avx512(const uint64_t set[2]) {
  uint64_t t[2];
  fssimd_nibble_words(set, t);
  return _mm512_broadcast_i32x4(_mm_set_epi64x((long long)t[1], (long long)t[0]));
}

FSSIMD_AVX512 static inline __m512i fssimd_highs_avx512(void) {
  return _mm512_broadcast_i32x4(
      _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128));
}

FSSIMD_AVX512 static inline uint64_t fssimd_eq_or_avx512(__m512i v, __m512i bits, __m512i b) {
  return _mm512_cmpeq_epi8_mask(_mm512_or_si512(v, bits), b);
}

FSSIMD_AVX512 static inline uint64_t fssimd_in_set_avx512(__m512i v, __m512i lo, __m512i hi) {
  const __m512i nibble = _mm512_set1_epi8(0x0F);
  const __m512i l = _mm512_and_si512(v, nibble);
  const __m512i u = _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble);
  return _mm512_test_epi8_mask(_mm512_shuffle_epi8(lo, l), _mm512_shuffle_epi8(hi, u));
}

#define FSO_NAME(x) fssimd_##x##_avx512
#define FSO_TARGET FSSIMD_AVX512
#define FSO_VEC __m512i
#define FSO_BLOCK __m512i
#define FSO_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define FSO_SPLAT(b) _mm512_set1_epi8((char)(b))
#define FSO_TABLE(s) fssimd_table_avx512(s)
#define FSO_HIGHS() fssimd_highs_avx512()
#define FSO_HIGH(v) _mm512_movepi8_mask(v)
#define FSO_EQ_OR(v, bits, b) fssimd_eq_or_avx512((v), (bits), (b))
#define FSO_IN_SET(v, lo, hi) fssimd_in_set_avx512((v), (lo), (hi))
#define FSO_ANY(v, bits, b) ((fssimd_eq_or_avx512((v), (bits), (b)) | _mm512_movepi8_mask(v)) != 0)
#include "OneShotKernels.h"
#endif
