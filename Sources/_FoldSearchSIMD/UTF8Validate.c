// UTF8Validate.c — UTF-8 well-formedness (Unicode §3.9, Table 3-7) of a
// whole buffer: fssimd_utf8_valid at every level (portable and AVX2).
//
// Idea (AVX2): the lookup algorithm of Keiser and Lemire ("Validating UTF-8
// In Less Than One Instruction Per Byte", Software: Practice and Experience
// 51(5), 2021), as simdjson and simdutf run it. At every position, three
// 16-entry nibble lookups (vpshufb) — of the previous byte's high nibble,
// its low nibble, and the current byte's high nibble — each give a bit set
// of the error classes that pair could belong to; their AND is the set of
// errors the pair makes (a continuation too many or too few after the
// previous byte, an overlong form, a surrogate, a scalar above U+10FFFF,
// C0/C1/F5–FF). The one class a pair cannot see, a continuation due to a
// three- or four-byte lead two or three bytes back, is the "two
// continuations" bit, which must equal (byte two back ≥ E0 or byte three
// back ≥ F0). A 64-byte block without a byte ≥ 0x80, after a block that
// ended with no sequence pending, is skipped after one OR and movemask.
// Below AVX2: scalar by scalar, eight ASCII bytes at a time (the Swift
// caller has its own 16-byte vector form for CPUs without AVX2).
//
// Invariants: every level returns exactly the scalar rules' answer. The
// vector level carries the previous vector (the bytes before position 0 are
// taken as zeros, an ASCII context) and checks the last partial block from
// a zero-padded copy, so a sequence cut short by the end meets a zero byte
// where a continuation is due and fails; no byte outside p[0 ..< n] is read.
#include "Internal.h"

// MARK: - Portable

// The width of the well-formed scalar at p[i] (of n bytes), 0 if none.
static inline int64_t fssimd_utf8_width(const uint8_t *p, int64_t i, int64_t n) {
  uint8_t b0 = p[i];
  if (b0 < 0x80) return 1;
  if (b0 < 0xE0) {
    return b0 >= 0xC2 && i + 1 < n && (p[i + 1] & 0xC0) == 0x80 ? 2 : 0;
  }
  if (b0 < 0xF0) {
    if (i + 2 >= n) return 0;
    uint8_t b1 = p[i + 1];
    uint8_t low = b0 == 0xE0 ? 0xA0 : 0x80;   // E0 80–9F: overlong
    uint8_t high = b0 == 0xED ? 0x9F : 0xBF;  // ED A0–BF: surrogates
    return b1 >= low && b1 <= high && (p[i + 2] & 0xC0) == 0x80 ? 3 : 0;
  }
  if (b0 > 0xF4 || i + 3 >= n) return 0;     // F5–FF: above U+10FFFF
  uint8_t b1 = p[i + 1];
  uint8_t low = b0 == 0xF0 ? 0x90 : 0x80;    // F0 80–8F: overlong
  uint8_t high = b0 == 0xF4 ? 0x8F : 0xBF;   // F4 90–BF: above U+10FFFF
  return b1 >= low && b1 <= high && (p[i + 2] & 0xC0) == 0x80 && (p[i + 3] & 0xC0) == 0x80
             ? 4
             : 0;
}

FSSIMD_HIDDEN int32_t fssimd_utf8_valid_portable(const uint8_t *p, int64_t n) {
  int64_t i = 0;
  while (i < n) {
    if (i + 8 <= n) {
      uint64_t word;
      memcpy(&word, p + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    int64_t width = fssimd_utf8_width(p, i, n);
    if (width == 0) return 0;
    i += width;
  }
  return 1;
}

// Whether one of the last three bytes of the 64 at `block` starts a
// sequence the block does not finish.
static inline int fssimd_utf8_pending(const uint8_t *block) {
  return block[63] >= 0xC0 || block[62] >= 0xE0 || block[61] >= 0xF0;
}

#if defined(FSSIMD_HAS_X86)

// MARK: - AVX2

// Compiled for AVX2 only inside these functions; every function marked
// FSSIMD_AVX2 has the caller obligation that the CPU supports AVX2.
#define FSSIMD_AVX2 __attribute__((target("avx2")))

// The error classes (Keiser and Lemire, Table 8), one bit each.
#define FSSIMD_U8_TOO_SHORT (1 << 0)   // a lead or ASCII where a continuation is due
#define FSSIMD_U8_TOO_LONG (1 << 1)    // a continuation after ASCII
#define FSSIMD_U8_OVERLONG_3 (1 << 2)  // E0 80–9F
#define FSSIMD_U8_TOO_LARGE (1 << 3)   // F4 90–BF, F5–F7 80–BF
#define FSSIMD_U8_SURROGATE (1 << 4)   // ED A0–BF
#define FSSIMD_U8_OVERLONG_2 (1 << 5)  // C0, C1
#define FSSIMD_U8_TOO_LARGE_1000 (1 << 6)  // F5–FF 80–8F
#define FSSIMD_U8_OVERLONG_4 (1 << 6)      // F0 80–8F
#define FSSIMD_U8_TWO_CONTS (1 << 7)   // a continuation after a continuation
#define FSSIMD_U8_CARRY (FSSIMD_U8_TOO_SHORT | FSSIMD_U8_TOO_LONG | FSSIMD_U8_TWO_CONTS)

#define FSSIMD_U8_TABLE(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, q)                     \
  _mm256_setr_epi8((char)(a), (char)(b), (char)(c), (char)(d), (char)(e), (char)(f),       \
                   (char)(g), (char)(h), (char)(i), (char)(j), (char)(k), (char)(l),       \
                   (char)(m), (char)(n), (char)(o), (char)(q), (char)(a), (char)(b),       \
                   (char)(c), (char)(d), (char)(e), (char)(f), (char)(g), (char)(h),       \
                   (char)(i), (char)(j), (char)(k), (char)(l), (char)(m), (char)(n),       \
                   (char)(o), (char)(q))

// The errors (nonzero lanes) of the 32 bytes `input` after the vector
// `prev`.
FSSIMD_AVX2 static inline __m256i fssimd_utf8_errors_avx2(__m256i input, __m256i prev) {
  const __m256i low_nibble = _mm256_set1_epi8(0x0F);
  // [prev's high lane, input's low lane]: the source of the shifted-in bytes.
  __m256i joined = _mm256_permute2x128_si256(prev, input, 0x21);
  __m256i prev1 = _mm256_alignr_epi8(input, joined, 15);
  __m256i prev2 = _mm256_alignr_epi8(input, joined, 14);
  __m256i prev3 = _mm256_alignr_epi8(input, joined, 13);

  const __m256i byte1_high = FSSIMD_U8_TABLE(
      // 0___ (ASCII) then a continuation
      FSSIMD_U8_TOO_LONG, FSSIMD_U8_TOO_LONG, FSSIMD_U8_TOO_LONG, FSSIMD_U8_TOO_LONG,
      FSSIMD_U8_TOO_LONG, FSSIMD_U8_TOO_LONG, FSSIMD_U8_TOO_LONG, FSSIMD_U8_TOO_LONG,
      // 10__ (continuation)
      FSSIMD_U8_TWO_CONTS, FSSIMD_U8_TWO_CONTS, FSSIMD_U8_TWO_CONTS, FSSIMD_U8_TWO_CONTS,
      // 1100, 1101 (two-byte leads)
      FSSIMD_U8_TOO_SHORT | FSSIMD_U8_OVERLONG_2, FSSIMD_U8_TOO_SHORT,
      // 1110 (three-byte leads)
      FSSIMD_U8_TOO_SHORT | FSSIMD_U8_OVERLONG_3 | FSSIMD_U8_SURROGATE,
      // 1111 (four-byte leads and F5–FF)
      FSSIMD_U8_TOO_SHORT | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000 |
          FSSIMD_U8_OVERLONG_4);
  const __m256i byte1_low = FSSIMD_U8_TABLE(
      // ____0000
      FSSIMD_U8_CARRY | FSSIMD_U8_OVERLONG_3 | FSSIMD_U8_OVERLONG_2 | FSSIMD_U8_OVERLONG_4,
      // ____0001
      FSSIMD_U8_CARRY | FSSIMD_U8_OVERLONG_2,
      // ____001_
      FSSIMD_U8_CARRY, FSSIMD_U8_CARRY,
      // ____0100
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE,
      // ____0101 ... ____1100
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000,
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000,
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000,
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000,
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000,
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000,
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000,
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000,
      // ____1101
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000 | FSSIMD_U8_SURROGATE,
      // ____111_
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000,
      FSSIMD_U8_CARRY | FSSIMD_U8_TOO_LARGE | FSSIMD_U8_TOO_LARGE_1000);
  const __m256i byte2_high = FSSIMD_U8_TABLE(
      // 0___ (ASCII) where a continuation may be due
      FSSIMD_U8_TOO_SHORT, FSSIMD_U8_TOO_SHORT, FSSIMD_U8_TOO_SHORT, FSSIMD_U8_TOO_SHORT,
      FSSIMD_U8_TOO_SHORT, FSSIMD_U8_TOO_SHORT, FSSIMD_U8_TOO_SHORT, FSSIMD_U8_TOO_SHORT,
      // 1000
      FSSIMD_U8_TOO_LONG | FSSIMD_U8_OVERLONG_2 | FSSIMD_U8_TWO_CONTS | FSSIMD_U8_OVERLONG_3 |
          FSSIMD_U8_TOO_LARGE_1000 | FSSIMD_U8_OVERLONG_4,
      // 1001
      FSSIMD_U8_TOO_LONG | FSSIMD_U8_OVERLONG_2 | FSSIMD_U8_TWO_CONTS | FSSIMD_U8_OVERLONG_3 |
          FSSIMD_U8_TOO_LARGE,
      // 101_
      FSSIMD_U8_TOO_LONG | FSSIMD_U8_OVERLONG_2 | FSSIMD_U8_TWO_CONTS | FSSIMD_U8_SURROGATE |
          FSSIMD_U8_TOO_LARGE,
      FSSIMD_U8_TOO_LONG | FSSIMD_U8_OVERLONG_2 | FSSIMD_U8_TWO_CONTS | FSSIMD_U8_SURROGATE |
          FSSIMD_U8_TOO_LARGE,
      // 11__ (a lead) where a continuation may be due
      FSSIMD_U8_TOO_SHORT, FSSIMD_U8_TOO_SHORT, FSSIMD_U8_TOO_SHORT, FSSIMD_U8_TOO_SHORT);

  __m256i special = _mm256_and_si256(
      _mm256_and_si256(
          _mm256_shuffle_epi8(byte1_high,
                              _mm256_and_si256(_mm256_srli_epi16(prev1, 4), low_nibble)),
          _mm256_shuffle_epi8(byte1_low, _mm256_and_si256(prev1, low_nibble))),
      _mm256_shuffle_epi8(byte2_high, _mm256_and_si256(_mm256_srli_epi16(input, 4), low_nibble)));
  // Bit 7 where the byte two back is ≥ E0 or the byte three back ≥ F0.
  __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
  __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
  __m256i must = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
  return _mm256_xor_si256(must, special);
}

// The errors of the 64 bytes at `block`; *prev is the vector before them
// (updated to the last of them).
FSSIMD_AVX2 static inline __m256i fssimd_utf8_block_avx2(const uint8_t *block, __m256i *prev) {
  __m256i v0 = _mm256_loadu_si256((const __m256i *)block);
  __m256i v1 = _mm256_loadu_si256((const __m256i *)(block + 32));
  __m256i e = _mm256_or_si256(fssimd_utf8_errors_avx2(v0, *prev), fssimd_utf8_errors_avx2(v1, v0));
  *prev = v1;
  return e;
}

FSSIMD_HIDDEN FSSIMD_AVX2 int32_t fssimd_utf8_valid_avx2(const uint8_t *p, int64_t n) {
  __m256i prev = _mm256_setzero_si256();
  __m256i errors = _mm256_setzero_si256();
  int pending = 0;
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m256i v0 = _mm256_loadu_si256((const __m256i *)(p + i));
    __m256i v1 = _mm256_loadu_si256((const __m256i *)(p + i + 32));
    if (_mm256_movemask_epi8(_mm256_or_si256(v0, v1)) == 0 && !pending) {
      prev = _mm256_setzero_si256();
      continue;
    }
    errors = _mm256_or_si256(errors, _mm256_or_si256(fssimd_utf8_errors_avx2(v0, prev),
                                                     fssimd_utf8_errors_avx2(v1, v0)));
    prev = v1;
    pending = fssimd_utf8_pending(p + i);
    // (Every 1 KiB: an invalid buffer stops soon, a valid one pays little.)
    if ((i & 1023) == 0 && !_mm256_testz_si256(errors, errors)) return 0;
  }
  uint8_t tail[64] = {0};
  if (n > i) memcpy(tail, p + i, (size_t)(n - i));
  errors = _mm256_or_si256(errors, fssimd_utf8_block_avx2(tail, &prev));
  return _mm256_testz_si256(errors, errors);
}
#endif
