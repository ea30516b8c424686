// OneShotAVX2.c — the one-shot search's candidate scan with 32-byte AVX2
// vectors (fssimd_oneshot_collect at FSSIMD_LEVEL_AVX2 and above): an
// anchor byte with its partner or a non-ASCII byte between them, or a
// two-byte scalar whose fold holds the anchor, 64 positions per block.
// Set membership by a nibble lookup per byte (fssimd_in_set_avx2), the
// technique of Hyperscan's "shufti" and of simdjson's classification
// (Langdale and Lemire, "Parsing Gigabytes of JSON per Second", VLDB
// Journal 28(6), 2019).
//
// Invariants: the candidates are exactly the portable loop's
// (SearchPortable.c), in increasing order; the blocks nearer either end
// than a block's reach go to that loop.
#include "Internal.h"

#if defined(FSSIMD_HAS_X86)
// Compiled for AVX2 only inside these functions; every function marked
// FSSIMD_AVX2 has the caller obligation that the CPU supports AVX2 (the
// dispatcher calls them only at FSSIMD_LEVEL_AVX2, after fssimd_clamp).
#define FSSIMD_AVX2 __attribute__((target("avx2")))

// The low-nibble table of a byte set over 0x80...0xFF, in both 128-bit
// lanes: byte l has bit hi − 8 for every member hi·16 + l (8 <= hi <= 15).
// One step per member (the sets are small, and this runs once per call).
// Caller obligations: `set` points to two readable words.
FSSIMD_AVX2 static inline __m256i fssimd_nibble_table_avx2(const uint64_t set[2]) {
  uint64_t t[2];  // bytes 0–7, 8–15
  fssimd_nibble_words(set, t);
  return _mm256_broadcastsi128_si256(_mm_set_epi64x((long long)t[1], (long long)t[0]));
}

// The bytes of v in the set of low-nibble table `lo` (in both lanes; see
// fssimd_nibble_table_avx2) as nonzero bytes: lo[v & 15] & hi[v >> 4], where
// hi[h] = 1 << (h − 8) for h >= 8 and 0 below, so no ASCII byte is in.
FSSIMD_AVX2 static inline __m256i fssimd_in_set_avx2(__m256i v, __m256i lo, __m256i hi) {
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i l = _mm256_and_si256(v, nibble);
  const __m256i u = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
  return _mm256_and_si256(_mm256_shuffle_epi8(lo, l), _mm256_shuffle_epi8(hi, u));
}

// 0xFF where v is outside the set of table `lo` or `next` outside that of
// `lo_next` (the tables as for fssimd_in_set_avx2), else 0x00.
FSSIMD_AVX2 static inline __m256i fssimd_out_of_sets_avx2(__m256i v, __m256i next, __m256i lo,
                                                          __m256i lo_next, __m256i hi) {
  const __m256i zero = _mm256_setzero_si256();
  return _mm256_or_si256(_mm256_cmpeq_epi8(fssimd_in_set_avx2(v, lo, hi), zero),
                         _mm256_cmpeq_epi8(fssimd_in_set_avx2(next, lo_next, hi), zero));
}

// The top bits of 64 bytes (v0: bytes 0–31, v1: 32–63), bit k = byte k.
FSSIMD_AVX2 static inline uint64_t fssimd_mask64_avx2(__m256i v0, __m256i v1) {
  return (uint64_t)(uint32_t)_mm256_movemask_epi8(v0) |
         (uint64_t)(uint32_t)_mm256_movemask_epi8(v1) << 32;
}

// Bit k set when byte k of the 64 at v0, v1 (the next bytes at n0, n1) is a
// lead byte of the set `lead` followed by a byte of `second`: test (B) for a
// block.
FSSIMD_AVX2 static inline uint64_t fssimd_in_sets64_avx2(__m256i v0, __m256i v1, __m256i n0,
                                                        __m256i n1, __m256i lead,
                                                        __m256i second, __m256i high) {
  return ~fssimd_mask64_avx2(fssimd_out_of_sets_avx2(v0, n0, lead, second, high),
                             fssimd_out_of_sets_avx2(v1, n1, lead, second, high));
}

// 0xFF where (v | bits) == b, else 0x00.
FSSIMD_AVX2 static inline __m256i fssimd_eq_or_avx2(__m256i v, __m256i bits, __m256i b) {
  return _mm256_cmpeq_epi8(_mm256_or_si256(v, bits), b);
}

#define FSSIMD_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))

// The bits k of the block of 64 positions at j whose partner test of
// distance d (1 <= |d| <= 16) passes, as (A) below describes; h0 holds the
// high bits of bytes j ..< j + 64. Caller obligations: bytes j + d ..<
// j + d + 64 are readable; the CPU supports AVX2.
FSSIMD_AVX2 static inline uint64_t fssimd_partner_mask_avx2(const uint8_t *h, int64_t j, int64_t d,
                                                             __m256i partner, __m256i partner_or,
                                                             uint64_t h0) {
  const __m256i p0 = FSSIMD_LOAD(h + j + d), p1 = FSSIMD_LOAD(h + j + d + 32);
  const uint64_t ep = fssimd_mask64_avx2(fssimd_eq_or_avx2(p0, partner_or, partner),
                                         fssimd_eq_or_avx2(p1, partner_or, partner));
  const uint64_t hd = fssimd_mask64_avx2(p0, p1);
  return fssimd_partner_bits(d, ep, hd, h0);
}

// The vector loop of fssimd_oneshot_avx2 from block *jp while a block's
// reach lies before n and 64 slots are free, with the second partner's
// test when `two` (a constant at each call: a copy of the loop each);
// returns the count and sets *jp to where it stopped. Caller obligations:
// those of fssimd_oneshot_avx2, and its load bounds for every block run.
FSSIMD_AVX2 static inline __attribute__((always_inline)) int64_t fssimd_oneshot_blocks_avx2(
    const uint8_t *h, int64_t n, int64_t *jp, int64_t reach, const fssimd_anchor *a, int64_t *out,
    int64_t capacity, int64_t count, const int two) {
  const int64_t d = a->distance, d2 = a->distance2;
  const __m256i anchor = _mm256_set1_epi8((char)a->anchor);
  const __m256i anchor_or = _mm256_set1_epi8((char)a->anchor_or);
  const __m256i partner = _mm256_set1_epi8((char)a->partner);
  const __m256i partner_or = _mm256_set1_epi8((char)a->partner_or);
  const __m256i partner2 = _mm256_set1_epi8((char)a->partner2);
  const __m256i partner2_or = _mm256_set1_epi8((char)a->partner2_or);
  const __m256i lead = fssimd_nibble_table_avx2(a->lead);
  const __m256i second = fssimd_nibble_table_avx2(a->second);
  const __m256i high = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128,
                                        0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128);
  int64_t j = *jp;
  for (; j + reach < n; j += 64) {
    if (capacity - count < 64) break;
    const __m256i v0 = FSSIMD_LOAD(h + j), v1 = FSSIMD_LOAD(h + j + 32);
    const __m256i e0 = fssimd_eq_or_avx2(v0, anchor_or, anchor);
    const __m256i e1 = fssimd_eq_or_avx2(v1, anchor_or, anchor);
    const __m256i any = _mm256_or_si256(_mm256_or_si256(e0, e1), _mm256_or_si256(v0, v1));
    if (_mm256_movemask_epi8(any) == 0) continue;
    const uint64_t h0 = fssimd_mask64_avx2(v0, v1);
    const uint64_t ea = fssimd_mask64_avx2(e0, e1) & ~h0;
    uint64_t mask = ea;
    if (mask != 0 && d != 0) mask &= fssimd_partner_mask_avx2(h, j, d, partner, partner_or, h0);
    if (two && mask != 0) mask &= fssimd_partner_mask_avx2(h, j, d2, partner2, partner2_or, h0);
    if (h0 != 0) {
      const __m256i n0 = FSSIMD_LOAD(h + j + 1), n1 = FSSIMD_LOAD(h + j + 33);
      mask |= fssimd_in_sets64_avx2(v0, v1, n0, n1, lead, second, high);
    }
    for (; mask != 0; mask &= mask - 1) out[count++] = j + __builtin_ctzll(mask);
  }
  *jp = j;
  return count;
}

// The one-shot candidates of the block of 64 positions at j, 32 per vector,
// with d = a->distance (|d| <= 16), and likewise for a->distance2:
//   (A) the anchor test is an OR and a compare per vector, on the loads at
//       j and j + 32; the partner test likewise on the loads at j + d and
//       j + d + 32. The window test needs "some byte >= 0x80" over |d|
//       bytes beside each position: the high bits of the anchor loads
//       (bytes j ..< j + 64) and of the partner loads (j + d ..< j + d + 64)
//       together cover every window of the block, as one mask x of
//       64 + |d| bits in two words whose bit i is byte w + i, w = j + 1
//       when d > 0 (windows (p, q]) and j + d when d < 0 (windows [q, p));
//       the OR of x >> t over t < |d| (fssimd_smear) then has bit k set
//       when position j + k's window holds one. The anchor bits are
//       cleared at bytes >= 0x80, so the test is exact even for an anchor
//       >= 0x80. The second partner's test runs only on the anchors that
//       passed the first (fssimd_partner_mask_avx2 for both).
//   (B) set membership by the nibble technique (fssimd_in_set_avx2) on the
//       loads at j and j + 32 (lead) and j + 1 and j + 33 (second); the
//       sets hold only bytes >= 0x80, so both bytes are non-ASCII.
// A block all ASCII without an anchor byte costs one OR of the compares
// and the bytes, a movemask and a branch. The blocks run by
// fssimd_oneshot_drive (SearchPortable.c), whose load bounds hold for each
// (the second-byte loads end at j + 64); each block's candidates are
// written to `out` while 64 slots are free (the contract of
// fssimd_oneshot_collect). The entry points around the loop and the
// bodies below: FSSIMD_ONESHOT_ENTRIES (Internal.h), at the end of this
// file.

// Several anchors in one pass (fssimd_oneshot_collect_multi): each block's
// loads (at j, j + 32 and, with a non-ASCII byte or when every partner is
// adjacent, j + 1, j + 33) are shared;
// each anchor's tests are those of fssimd_oneshot_avx2 on them, plus its own
// partner loads. Test (B) runs once for the union of the anchors' byte
// sets (a pair in an anchor's sets is in the union's), and per anchor only
// in a block where the union's reports a position (rare: the producers'
// lead bytes are few). The body is compiled once per anchor count K
// (fssimd_oneshot_multi_k_avx2), so that its loops over the anchors unroll
// and their vectors stay in registers.
// Caller obligations (of the body): as fssimd_oneshot_multi_avx2, with
// start < first or start + reach < n handled as there (the caller checks
// the bounds), 1 <= K <= 8.
FSSIMD_AVX2 static inline __attribute__((always_inline)) int64_t fssimd_oneshot_multi_k_avx2(
    const uint8_t *h, int64_t n, int64_t j, int64_t reach, const fssimd_anchor *a, const int32_t K,
    int64_t *out, uint8_t *which, int64_t count, int64_t capacity, int64_t *next) {
  __m256i anchor[8], anchor_or[8], partner[8], partner_or[8], lead[8], second[8];
  uint64_t lead_all[2], second_all[2];
  // Every partner right after its anchor (or none): the partner loads are
  // the second-byte loads, and the window is the byte after the anchor.
  const int adjacent = fssimd_multi_setup(a, K, lead_all, second_all);
  for (int32_t i = 0; i < K; i++) {
    anchor[i] = _mm256_set1_epi8((char)a[i].anchor);
    anchor_or[i] = _mm256_set1_epi8((char)a[i].anchor_or);
    partner[i] = _mm256_set1_epi8((char)a[i].partner);
    partner_or[i] = _mm256_set1_epi8((char)a[i].partner_or);
    lead[i] = fssimd_nibble_table_avx2(a[i].lead);
    second[i] = fssimd_nibble_table_avx2(a[i].second);
  }
  const __m256i lead_any = fssimd_nibble_table_avx2(lead_all);
  const __m256i second_any = fssimd_nibble_table_avx2(second_all);
  const __m256i high = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128,
                                        0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128);
  for (; j + reach < n; j += 64) {
    if (capacity - count < 64) {
      *next = j;
      return count;
    }
    const __m256i v0 = FSSIMD_LOAD(h + j), v1 = FSSIMD_LOAD(h + j + 32);
    const uint64_t h0 = fssimd_mask64_avx2(v0, v1);
    uint64_t ea[8];
    uint64_t any = h0;
    for (int32_t i = 0; i < K; i++) {
      ea[i] = fssimd_mask64_avx2(fssimd_eq_or_avx2(v0, anchor_or[i], anchor[i]),
                                 fssimd_eq_or_avx2(v1, anchor_or[i], anchor[i])) &
              ~h0;
      any |= ea[i];
    }
    if (any == 0) continue;
    __m256i n0 = v0, n1 = v1;
    uint64_t set_any = 0;  // (B) for the union of the anchors' sets
    if (h0 != 0 || adjacent) {
      n0 = FSSIMD_LOAD(h + j + 1), n1 = FSSIMD_LOAD(h + j + 33);
      set_any = fssimd_in_sets64_avx2(v0, v1, n0, n1, lead_any, second_any, high);
    }
    uint64_t masks[8];
    uint64_t all = 0;
    if (adjacent) {
      // Without branches on the bytes: an anchor in a block is a coin toss
      // in accented text. (A) with d = 1: the partner byte, or a byte
      // >= 0x80, right after the anchor.
      const uint64_t hn = fssimd_mask64_avx2(n0, n1);
      for (int32_t i = 0; i < K; i++) {
        const uint64_t ep = fssimd_mask64_avx2(fssimd_eq_or_avx2(n0, partner_or[i], partner[i]),
                                               fssimd_eq_or_avx2(n1, partner_or[i], partner[i]));
        uint64_t mask = a[i].distance == 0 ? ea[i] : ea[i] & (ep | hn);
        if (set_any != 0) {
          mask |= set_any & fssimd_in_sets64_avx2(v0, v1, n0, n1, lead[i], second[i], high);
        }
        masks[i] = mask;
        all |= mask;
      }
    }
    for (int32_t i = 0; i < K && !adjacent; i++) {
      const int64_t d = a[i].distance;
      uint64_t mask = ea[i];
      if (mask != 0 && d != 0) {
        mask &= fssimd_partner_mask_avx2(h, j, d, partner[i], partner_or[i], h0);
      }
      if (set_any != 0) {
        // Each anchor's own (B) lies inside the union's.
        mask |= set_any & fssimd_in_sets64_avx2(v0, v1, n0, n1, lead[i], second[i], high);
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
FSSIMD_ONESHOT_ENTRIES(avx2, FSSIMD_AVX2)
#undef FSSIMD_LOAD
#undef FSSIMD_AVX2
#endif
