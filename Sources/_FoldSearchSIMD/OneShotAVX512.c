// OneShotAVX512.c — the one-shot search's candidate scan with 64-byte
// AVX-512 vectors (fssimd_oneshot_collect and fssimd_oneshot_collect_multi
// at FSSIMD_LEVEL_AVX512): the tests
// of OneShotAVX2.c, a block of 64 positions in one register, the masks
// straight from the compares (no movemask), set membership by the nibble
// technique of Hyperscan's "shufti" with a byte test into a mask.
//
// Invariants: the candidates are exactly the portable loop's
// (SearchPortable.c), in increasing order, as at every level; the blocks
// nearer either end than a block's reach go to that loop
// (fssimd_oneshot_drive).
#include "Internal.h"

#if defined(FSSIMD_HAS_X86)
#include <immintrin.h>

// Compiled for AVX-512 (F and BW) only inside these functions; every
// function marked FSSIMD_AVX512 has the caller obligation that the CPU
// supports them (the dispatcher calls them only at FSSIMD_LEVEL_AVX512).
#define FSSIMD_AVX512 __attribute__((target("avx512f,avx512bw,bmi,bmi2,popcnt,avx2")))

// The low-nibble table of a byte set over 0x80...0xFF in every 128-bit lane:
// byte l has bit hi − 8 for every member hi·16 + l (8 <= hi <= 15).
// Caller obligations: `set` points to two readable words.
FSSIMD_AVX512 static inline __m512i fssimd_nibble_table_avx512(const uint64_t set[2]) {
  uint64_t t[2];  // bytes 0–7, 8–15
  fssimd_nibble_words(set, t);
  return _mm512_broadcast_i32x4(_mm_set_epi64x((long long)t[1], (long long)t[0]));
}

// Bit k set when byte k of v is in the set of low-nibble table `lo`:
// lo[v & 15] & hi[v >> 4] is nonzero, where hi[h] = 1 << (h − 8) for h >= 8
// and 0 below, so no ASCII byte is in.
FSSIMD_AVX512 static inline uint64_t fssimd_in_set_avx512(__m512i v, __m512i lo, __m512i hi) {
  const __m512i nibble = _mm512_set1_epi8(0x0F);
  const __m512i l = _mm512_and_si512(v, nibble);
  const __m512i u = _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble);
  return _mm512_test_epi8_mask(_mm512_shuffle_epi8(lo, l), _mm512_shuffle_epi8(hi, u));
}

// Bit k set where (v | bits) == b.
FSSIMD_AVX512 static inline uint64_t fssimd_eq_or_avx512(__m512i v, __m512i bits, __m512i b) {
  return _mm512_cmpeq_epi8_mask(_mm512_or_si512(v, bits), b);
}

// The bits k of the block at j whose partner test of distance d
// (1 <= |d| <= 16) passes, as OneShotAVX2.c's (A) describes; h0 holds the
// high bits of bytes j ..< j + 64. Caller obligations: bytes j + d ..<
// j + d + 64 are readable; the CPU supports AVX-512 F and BW.
FSSIMD_AVX512 static inline uint64_t fssimd_partner_mask_avx512(const uint8_t *h, int64_t j,
                                                                int64_t d, __m512i partner,
                                                                __m512i partner_or, uint64_t h0) {
  const __m512i p = _mm512_loadu_si512((const void *)(h + j + d));
  const uint64_t ep = fssimd_eq_or_avx512(p, partner_or, partner);
  const uint64_t hd = _mm512_movepi8_mask(p);
  return fssimd_partner_bits(d, ep, hd, h0);
}

// The vector loop from block *jp (fssimd_oneshot_blocks), with the second
// partner's test when `two` (a constant at each call: a copy of the loop
// each). Caller obligations: as fssimd_oneshot_blocks, the load bounds of
// fssimd_oneshot_drive for every block run; the CPU supports AVX-512 F
// and BW.
FSSIMD_AVX512 static inline __attribute__((always_inline)) int64_t fssimd_oneshot_blocks_avx512(
    const uint8_t *h, int64_t n, int64_t *jp, int64_t reach, const fssimd_anchor *a, int64_t *out,
    int64_t capacity, int64_t count, const int two) {
  const int64_t d = a->distance, d2 = a->distance2;
  const __m512i anchor = _mm512_set1_epi8((char)a->anchor);
  const __m512i anchor_or = _mm512_set1_epi8((char)a->anchor_or);
  const __m512i partner = _mm512_set1_epi8((char)a->partner);
  const __m512i partner_or = _mm512_set1_epi8((char)a->partner_or);
  const __m512i partner2 = _mm512_set1_epi8((char)a->partner2);
  const __m512i partner2_or = _mm512_set1_epi8((char)a->partner2_or);
  const __m512i lead = fssimd_nibble_table_avx512(a->lead);
  const __m512i second = fssimd_nibble_table_avx512(a->second);
  const __m512i high = _mm512_broadcast_i32x4(
      _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128));
  int64_t j = *jp;
  for (; j + reach < n; j += 64) {
    if (capacity - count < 64) break;
    const __m512i v = _mm512_loadu_si512((const void *)(h + j));
    const uint64_t h0 = _mm512_movepi8_mask(v);
    const uint64_t e = fssimd_eq_or_avx512(v, anchor_or, anchor);
    if ((e | h0) == 0) continue;
    uint64_t mask = e & ~h0;
    if (mask != 0 && d != 0) mask &= fssimd_partner_mask_avx512(h, j, d, partner, partner_or, h0);
    if (two && mask != 0) {
      mask &= fssimd_partner_mask_avx512(h, j, d2, partner2, partner2_or, h0);
    }
    if (h0 != 0) {
      // (B): the second bytes only where a lead byte of the set is.
      const uint64_t leads = fssimd_in_set_avx512(v, lead, high);
      if (leads != 0) {
        const __m512i next = _mm512_loadu_si512((const void *)(h + j + 1));
        mask |= leads & fssimd_in_set_avx512(next, second, high);
      }
    }
    for (; mask != 0; mask &= mask - 1) out[count++] = j + __builtin_ctzll(mask);
  }
  *jp = j;
  return count;
}

// Several anchors in one pass (fssimd_oneshot_collect_multi), as
// OneShotAVX2.c's body does: each block's loads (at j, and at j + 1 with a
// non-ASCII byte or when every partner is adjacent) are shared; each
// anchor's tests are those of the one-anchor loop on them, plus its own
// partner loads; test (B) runs once for the union of the anchors' byte
// sets, and per anchor only in a block where the union's reports a
// position. Compiled once per anchor count K, so that the loops over the
// anchors unroll. Caller obligations: as fssimd_oneshot_multi_blocks,
// 1 <= K <= 8; the CPU supports AVX-512 F and BW.
FSSIMD_AVX512 static inline __attribute__((always_inline)) int64_t fssimd_oneshot_multi_k_avx512(
    const uint8_t *h, int64_t n, int64_t j, int64_t reach, const fssimd_anchor *a, const int32_t K,
    int64_t *out, uint8_t *which, int64_t count, int64_t capacity, int64_t *next) {
  __m512i anchor[8], anchor_or[8], partner[8], partner_or[8], lead[8], second[8];
  uint64_t lead_all[2], second_all[2];
  // Every partner right after its anchor (or none): the partner loads are
  // the second-byte loads, and the window is the byte after the anchor.
  const int adjacent = fssimd_multi_setup(a, K, lead_all, second_all);
  for (int32_t i = 0; i < K; i++) {
    anchor[i] = _mm512_set1_epi8((char)a[i].anchor);
    anchor_or[i] = _mm512_set1_epi8((char)a[i].anchor_or);
    partner[i] = _mm512_set1_epi8((char)a[i].partner);
    partner_or[i] = _mm512_set1_epi8((char)a[i].partner_or);
    lead[i] = fssimd_nibble_table_avx512(a[i].lead);
    second[i] = fssimd_nibble_table_avx512(a[i].second);
  }
  const __m512i lead_any = fssimd_nibble_table_avx512(lead_all);
  const __m512i second_any = fssimd_nibble_table_avx512(second_all);
  const __m512i high = _mm512_broadcast_i32x4(
      _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128));
  for (; j + reach < n; j += 64) {
    if (capacity - count < 64) {
      *next = j;
      return count;
    }
    const __m512i v = _mm512_loadu_si512((const void *)(h + j));
    const uint64_t h0 = _mm512_movepi8_mask(v);
    uint64_t ea[8];
    uint64_t any = h0;
    for (int32_t i = 0; i < K; i++) {
      ea[i] = fssimd_eq_or_avx512(v, anchor_or[i], anchor[i]) & ~h0;
      any |= ea[i];
    }
    if (any == 0) continue;
    __m512i next_bytes = v;
    uint64_t set_any = 0;  // (B) for the union of the anchors' sets
    if (h0 != 0 || adjacent) {
      next_bytes = _mm512_loadu_si512((const void *)(h + j + 1));
      set_any = fssimd_in_set_avx512(v, lead_any, high) &
                fssimd_in_set_avx512(next_bytes, second_any, high);
    }
    uint64_t masks[8];
    uint64_t all = 0;
    if (adjacent) {
      // (A) with d = 1: the partner byte, or a byte >= 0x80, right after
      // the anchor.
      const uint64_t hn = _mm512_movepi8_mask(next_bytes);
      for (int32_t i = 0; i < K; i++) {
        const uint64_t ep = fssimd_eq_or_avx512(next_bytes, partner_or[i], partner[i]);
        uint64_t mask = a[i].distance == 0 ? ea[i] : ea[i] & (ep | hn);
        if (set_any != 0) {
          mask |= set_any & fssimd_in_set_avx512(v, lead[i], high) &
                  fssimd_in_set_avx512(next_bytes, second[i], high);
        }
        masks[i] = mask;
        all |= mask;
      }
    }
    for (int32_t i = 0; i < K && !adjacent; i++) {
      const int64_t d = a[i].distance;
      uint64_t mask = ea[i];
      if (mask != 0 && d != 0) {
        mask &= fssimd_partner_mask_avx512(h, j, d, partner[i], partner_or[i], h0);
      }
      if (set_any != 0) {
        // Each anchor's own (B) lies inside the union's.
        mask |= set_any & fssimd_in_set_avx512(v, lead[i], high) &
                fssimd_in_set_avx512(next_bytes, second[i], high);
      }
      masks[i] = mask;
      all |= mask;
    }
    count = fssimd_multi_write(j, all, masks, K, out, which, count);
  }
  *next = j;
  return count;
}

// The entry points (Internal.h).
FSSIMD_ONESHOT_ENTRIES(avx512, FSSIMD_AVX512)
#undef FSSIMD_AVX512
#endif
