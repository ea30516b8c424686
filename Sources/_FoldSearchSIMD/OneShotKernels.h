// OneShotKernels.h — the one-shot candidate scan (fssimd_oneshot_collect and
// fssimd_oneshot_collect_multi), written once over blocks of 64 bytes and
// instantiated by OneShotAVX2.c (two 32-byte vectors a block) and
// OneShotAVX512.c (one 64-byte vector). Not a public header: no include
// guard on purpose; the includer defines, before including it:
//
//   FSO_NAME(x)   the function name for x at this level (fssimd_x_avx2)
//   FSO_TARGET    the function attribute enabling the instruction set
//   FSO_VEC       a vector of byte constants (a splat, a nibble table)
//   FSO_BLOCK     64 bytes in registers
//   FSO_LOAD(p)   the 64 bytes at p (unaligned)
//   FSO_SPLAT(b)  byte b in every lane of an FSO_VEC
//   FSO_TABLE(s)  the low-nibble table of the byte set s (two words over
//                 0x80...0xFF, see fssimd_nibble_words) in every lane
//   FSO_HIGHS()   the high-nibble table: hi[h] = 1 << (h − 8) for h >= 8
//   FSO_HIGH(v)   bit k: byte k of block v is >= 0x80
//   FSO_EQ_OR(v, bits, b)   bit k: (byte k | bits) == b
//   FSO_IN_SET(v, lo, hi)   bit k: byte k is in the set of table lo (never
//                           an ASCII byte: lo[v & 15] & hi[v >> 4] != 0)
//   FSO_ANY(v, bits, b)     nonzero when FSO_EQ_OR(v, bits, b) or
//                           FSO_HIGH(v) is (the cheapest test per level)
//
// The candidates of the block of 64 positions at j, with d = a->distance
// (|d| <= 16), and likewise for a->distance2:
//   (A) the anchor test: (byte | anchor_or) == anchor, at bytes < 0x80 (the
//       anchor bits are cleared at bytes >= 0x80, so the test is exact even
//       for an anchor >= 0x80); the partner test likewise on the block at
//       j + d. The window test needs "some byte >= 0x80" over |d| bytes
//       beside each position: the high bits of the anchor block (bytes j ..<
//       j + 64) and of the partner block (j + d ..< j + d + 64) together
//       cover every window of the block (fssimd_partner_bits). The second
//       partner's test runs only on the anchors that passed the first.
//   (B) set membership by a nibble lookup per byte (Hyperscan's "shufti",
//       simdjson's classification: Langdale and Lemire, "Parsing Gigabytes
//       of JSON per Second", VLDB Journal 28(6), 2019): the byte at p in
//       `lead` and the byte at p + 1 in `second`; the sets hold only bytes
//       >= 0x80, so both are non-ASCII. The second bytes are loaded only in
//       a block with a lead byte of the set.
// The skipping loop passes over a block all ASCII without an anchor byte
// at the cost of FSO_ANY and a branch, and tests the others only as far
// as each needs; the straight loop runs every test on every block, its
// only branches the loop's and the writing of candidates (which way is
// faster depends on the text: fssimd_oneshot_collect; the choice is
// fssimd_oneshot_ways', in SearchPortable.c).
//
// Invariants: the candidates are exactly the portable loop's
// (SearchPortable.c), in increasing order, at every level; the loops run
// only the blocks fssimd_oneshot_drive and fssimd_oneshot_multi_drive
// (SearchPortable.c) give them, whose load bounds hold for each (the
// second-byte loads end at j + 64); each block's candidates are written
// while 64 slots are free (the contract of fssimd_oneshot_collect).

// The bits k of the block at j whose partner test of distance d
// (1 <= |d| <= 16) passes; h0 holds the high bits of bytes j ..< j + 64;
// `straight` as for fssimd_partner_bits. Caller obligations: bytes j + d
// ..< j + d + 64 are readable; the CPU runs FSO_TARGET's instructions.
FSO_TARGET static inline __attribute__((always_inline)) uint64_t FSO_NAME(partner_mask)(
    const uint8_t *h, int64_t j, int64_t d, FSO_VEC partner, FSO_VEC partner_or, uint64_t h0,
    const int straight) {
  const FSO_BLOCK p = FSO_LOAD(h + j + d);
  return fssimd_partner_bits(d, FSO_EQ_OR(p, partner_or, partner), FSO_HIGH(p), h0, straight);
}

// The vector loop from block *jp (fssimd_oneshot_blocks), with the second
// partner's test when `two`, the straight way when `straight` (constants
// at each call: a copy of the loop each). Caller obligations: as
// fssimd_oneshot_blocks; the CPU runs FSO_TARGET's instructions.
FSO_TARGET static inline __attribute__((always_inline)) int64_t FSO_NAME(oneshot_blocks)(
    const uint8_t *h, int64_t n, int64_t *jp, int64_t reach, const fssimd_anchor *a, int64_t *out,
    int64_t capacity, int64_t count, const int two, const int straight) {
  const int64_t d = a->distance, d2 = a->distance2;
  const FSO_VEC anchor = FSO_SPLAT(a->anchor), anchor_or = FSO_SPLAT(a->anchor_or);
  const FSO_VEC partner = FSO_SPLAT(a->partner), partner_or = FSO_SPLAT(a->partner_or);
  const FSO_VEC partner2 = FSO_SPLAT(a->partner2), partner2_or = FSO_SPLAT(a->partner2_or);
  const FSO_VEC lead = FSO_TABLE(a->lead), second = FSO_TABLE(a->second), high = FSO_HIGHS();
  int64_t j = *jp;
  for (; j + reach < n; j += 64) {
    if (capacity - count < 64) break;
    const FSO_BLOCK v = FSO_LOAD(h + j);
    if (straight) {
      const uint64_t h0 = FSO_HIGH(v);
      uint64_t mask = FSO_EQ_OR(v, anchor_or, anchor) & ~h0;
      if (d != 0) mask &= FSO_NAME(partner_mask)(h, j, d, partner, partner_or, h0, 1);
      if (two) mask &= FSO_NAME(partner_mask)(h, j, d2, partner2, partner2_or, h0, 1);
      mask |= FSO_IN_SET(v, lead, high) & FSO_IN_SET(FSO_LOAD(h + j + 1), second, high);
      for (; mask != 0; mask &= mask - 1) out[count++] = j + __builtin_ctzll(mask);
      continue;
    }
    if (!FSO_ANY(v, anchor_or, anchor)) continue;
    const uint64_t h0 = FSO_HIGH(v);
    uint64_t mask = FSO_EQ_OR(v, anchor_or, anchor) & ~h0;
    if (mask != 0 && d != 0) mask &= FSO_NAME(partner_mask)(h, j, d, partner, partner_or, h0, 0);
    if (two && mask != 0) mask &= FSO_NAME(partner_mask)(h, j, d2, partner2, partner2_or, h0, 0);
    if (h0 != 0) {
      const uint64_t leads = FSO_IN_SET(v, lead, high);
      if (leads != 0) mask |= leads & FSO_IN_SET(FSO_LOAD(h + j + 1), second, high);
    }
    for (; mask != 0; mask &= mask - 1) out[count++] = j + __builtin_ctzll(mask);
  }
  *jp = j;
  return count;
}

// Several anchors in one pass (fssimd_oneshot_multi_blocks): each block's
// loads (at j, and at j + 1 with a non-ASCII byte or when every partner is
// adjacent) are shared; each anchor's tests are those of the one-anchor
// loop on them, plus its own partner loads. Test (B) runs once for the
// union of the anchors' byte sets (a pair in an anchor's sets is in the
// union's), and per anchor only in a block where the union's reports a
// position (rare: the producers' lead bytes are few). Compiled once per
// anchor count K, so that the loops over the anchors unroll and their
// vectors stay in registers. Caller obligations: as
// fssimd_oneshot_multi_blocks, 1 <= K <= 8; the CPU runs FSO_TARGET's
// instructions.
FSO_TARGET static inline __attribute__((always_inline)) int64_t FSO_NAME(oneshot_multi_k)(
    const uint8_t *h, int64_t n, int64_t j, int64_t reach, const fssimd_anchor *a, const int32_t K,
    int64_t *out, uint8_t *which, int64_t count, int64_t capacity, int64_t *next) {
  FSO_VEC anchor[8], anchor_or[8], partner[8], partner_or[8], lead[8], second[8];
  uint64_t lead_all[2], second_all[2];
  // Every partner right after its anchor (or none): the partner loads are
  // the second-byte loads, and the window is the byte after the anchor.
  const int adjacent = fssimd_multi_setup(a, K, lead_all, second_all);
  for (int32_t i = 0; i < K; i++) {
    anchor[i] = FSO_SPLAT(a[i].anchor), anchor_or[i] = FSO_SPLAT(a[i].anchor_or);
    partner[i] = FSO_SPLAT(a[i].partner), partner_or[i] = FSO_SPLAT(a[i].partner_or);
    lead[i] = FSO_TABLE(a[i].lead), second[i] = FSO_TABLE(a[i].second);
  }
  const FSO_VEC lead_any = FSO_TABLE(lead_all), second_any = FSO_TABLE(second_all);
  const FSO_VEC high = FSO_HIGHS();
  for (; j + reach < n; j += 64) {
    if (capacity - count < 64) {
      *next = j;
      return count;
    }
    const FSO_BLOCK v = FSO_LOAD(h + j);
    const uint64_t h0 = FSO_HIGH(v);
    uint64_t ea[8];
    uint64_t any = h0;
    for (int32_t i = 0; i < K; i++) {
      ea[i] = FSO_EQ_OR(v, anchor_or[i], anchor[i]) & ~h0;
      any |= ea[i];
    }
    if (any == 0) continue;
    FSO_BLOCK next_bytes = v;
    uint64_t set_any = 0;  // (B) for the union of the anchors' sets
    if (h0 != 0 || adjacent) {
      next_bytes = FSO_LOAD(h + j + 1);
      set_any = FSO_IN_SET(v, lead_any, high) & FSO_IN_SET(next_bytes, second_any, high);
    }
    uint64_t masks[8];
    uint64_t all = 0;
    if (adjacent) {
      // Without branches on the bytes: an anchor in a block is a coin toss
      // in accented text. (A) with d = 1: the partner byte, or a byte
      // >= 0x80, right after the anchor.
      const uint64_t hn = FSO_HIGH(next_bytes);
      for (int32_t i = 0; i < K; i++) {
        const uint64_t ep = FSO_EQ_OR(next_bytes, partner_or[i], partner[i]);
        uint64_t mask = a[i].distance == 0 ? ea[i] : ea[i] & (ep | hn);
        if (set_any != 0) {
          mask |= set_any & FSO_IN_SET(v, lead[i], high) &
                  FSO_IN_SET(next_bytes, second[i], high);
        }
        masks[i] = mask;
        all |= mask;
      }
    }
    for (int32_t i = 0; i < K && !adjacent; i++) {
      const int64_t d = a[i].distance;
      uint64_t mask = ea[i];
      if (mask != 0 && d != 0) {
        mask &= FSO_NAME(partner_mask)(h, j, d, partner[i], partner_or[i], h0, 0);
      }
      if (set_any != 0) {
        // Each anchor's own (B) lies inside the union's.
        mask |= set_any & FSO_IN_SET(v, lead[i], high) &
                FSO_IN_SET(next_bytes, second[i], high);
      }
      masks[i] = mask;
      all |= mask;
    }
    count = fssimd_multi_write(j, all, masks, K, out, which, count);
  }
  *next = j;
  return count;
}

// The loops for one partner and for two, each way, and the bodies for
// each anchor count. Caller obligations: as fssimd_oneshot_blocks and
// fssimd_oneshot_multi_blocks; the CPU runs FSO_TARGET's instructions.
#define FSO_LOOP(NAME, TWO, STRAIGHT)                                                           \
  FSO_TARGET static int64_t FSO_NAME(NAME)(const uint8_t *h, int64_t n, int64_t *jp,           \
                                           int64_t reach, const fssimd_anchor *a, int64_t *out, \
                                           int64_t capacity, int64_t count) {                   \
    return FSO_NAME(oneshot_blocks)(h, n, jp, reach, a, out, capacity, count, TWO, STRAIGHT);  \
  }
FSO_LOOP(oneshot_skipping1, 0, 0)
FSO_LOOP(oneshot_skipping2, 1, 0)
FSO_LOOP(oneshot_straight1, 0, 1)
FSO_LOOP(oneshot_straight2, 1, 1)
#undef FSO_LOOP

FSO_TARGET static int64_t FSO_NAME(oneshot_multi_blocks)(const uint8_t *h, int64_t n, int64_t j,
                                                         int64_t reach, const fssimd_anchor *a,
                                                         int32_t k, int64_t *out, uint8_t *which,
                                                         int64_t count, int64_t capacity,
                                                         int64_t *next) {
  switch (k) {
#define FSO_CASE(K) \
  case K: return FSO_NAME(oneshot_multi_k)(h, n, j, reach, a, K, out, which, count, capacity, next);
    FSO_CASE(1)
    FSO_CASE(2)
    FSO_CASE(3)
    FSO_CASE(4)
    FSO_CASE(5)
    FSO_CASE(6)
    FSO_CASE(7)
    default:
    FSO_CASE(8)
#undef FSO_CASE
  }
}

// The entry points (Dispatch.c calls them only at their level). Caller
// obligations: as fssimd_oneshot_collect and fssimd_oneshot_collect_multi;
// the CPU runs FSO_TARGET's instructions.
FSSIMD_HIDDEN int64_t FSO_NAME(oneshot)(const uint8_t *h, int64_t n, int64_t start,
                                        fssimd_anchor *a, int64_t *out, int64_t capacity,
                                        int64_t *next) {
  static const fssimd_oneshot_loops loops = {
      {FSO_NAME(oneshot_skipping1), FSO_NAME(oneshot_skipping2)},
      {FSO_NAME(oneshot_straight1), FSO_NAME(oneshot_straight2)}};
  return fssimd_oneshot_drive(h, n, start, a, out, capacity, next, loops);
}

FSSIMD_HIDDEN int64_t FSO_NAME(oneshot_multi)(const uint8_t *h, int64_t n, int64_t start,
                                              const fssimd_anchor *a, int32_t k, int64_t *out,
                                              uint8_t *which, int64_t capacity, int64_t *next) {
  return fssimd_oneshot_multi_drive(h, n, start, a, k, out, which, capacity, next,
                                    FSO_NAME(oneshot_multi_blocks));
}
