// SearchKernels.h — the vector search algorithm (the rare-byte-pair
// prefilter and the exact 1–3 byte needle loop), written once and
// instantiated by SearchVector.c for each vector width (SSE2: 16 bytes,
// AVX2: 32 bytes). Not a public header: it has no include guard on purpose;
// the includer defines the FSK_ macros (KernelWidth.h).
//
//   FSK_STOREU(p, v) unaligned store of FSK_V bytes at p
//
// The pair kernel's loop: with last = n − m the last window start
// and vlast = last − FSK_V + 1, a vector "at j" tests the FSK_V window starts
// j ..< j + FSK_V; every load it makes ends at or before byte
// j + (m − 1) + FSK_V − 1 <= n − 1 when j <= vlast. The main loop tests two
// vectors per iteration, then single vectors, and the tail re-tests the last
// full vector at vlast with the already-decided starts (< j) masked off, so
// no byte outside [start, n) is ever read. Inputs with fewer than FSK_V
// window starts go to the portable loop. Candidate bits are taken lowest
// first, so positions are examined in increasing order. The short-needle
// kernel works the same way on blocks of 64 starts and writes each block's
// occurrences out, lowest first.

// Verify (and budget) every candidate of `mask` at `base`; return on a
// decision. Uses h, nd, m, s from the enclosing kernel.
#define FSK_PAIR_CANDIDATES(base, maskexpr)                                     \
  do {                                                                           \
    uint32_t fsk_mask = (maskexpr);                                              \
    while (fsk_mask != 0) {                                                      \
      int64_t fsk_pos = (base) + (int64_t)__builtin_ctz(fsk_mask);               \
      if (fssimd_over_budget(s, fsk_pos)) return fssimd_handover(fsk_pos);      \
      if (fssimd_verify(h + fsk_pos, nd, m, &s->work)) return fssimd_found(fsk_pos); \
      fsk_mask &= fsk_mask - 1;                                                  \
    }                                                                            \
  } while (0)

FSK_TARGET FSSIMD_HIDDEN fssimd_result FSK_NAME(pair_find)(const uint8_t *h, int64_t n, int64_t start,
                                                    fssimd_pair_state *s) {
  const int64_t m = s->needle_count;
  const int64_t last = n - m;
  if (start > last) return fssimd_none();
  if (last - start + 1 < FSK_V) return fssimd_pair_portable(h, n, start, s);
  const uint8_t *nd = s->needle;
  const FSK_VEC v1 = FSK_SPLAT(nd[s->index1]);
  const FSK_VEC v2 = FSK_SPLAT(nd[s->index2]);
  const uint8_t *p1 = h + s->index1;
  const uint8_t *p2 = h + s->index2;
  const int64_t vlast = last - FSK_V + 1;
#define FSK_PAIR(j) \
  ((uint32_t)FSK_MASK(FSK_AND(FSK_EQ(FSK_LOADU(p1 + (j)), v1), FSK_EQ(FSK_LOADU(p2 + (j)), v2))))
  int64_t j = start;
  while (j + FSK_V <= vlast) {
    uint32_t a = FSK_PAIR(j);
    uint32_t b = FSK_PAIR(j + FSK_V);
    if ((a | b) != 0) {
      FSK_PAIR_CANDIDATES(j, a);
      FSK_PAIR_CANDIDATES(j + FSK_V, b);
    }
    j += 2 * FSK_V;
  }
  while (j <= vlast) {
    FSK_PAIR_CANDIDATES(j, FSK_PAIR(j));
    j += FSK_V;
  }
  if (j <= last) FSK_PAIR_CANDIDATES(vlast, FSK_PAIR(vlast) & (~0u << (j - vlast)));
  return fssimd_none();
#undef FSK_PAIR
}

// The exact short-needle loop for one candidate expression CAND(j) (a
// FSK_V-bit mask). Blocks of 64 window starts: while 64 starts remain, the
// block at j is tested whole and its occurrences written to `out`; the last
// partial block re-tests the 64 starts ending at `last` with the starts
// before j masked off (there are at least 64 starts from the caller's
// start, checked on entry). Each block is tested only while 64 slots are
// free (the contract of fssimd_find_short_collect).
#if FSK_V == 32
#define FSK_BLOCK(CAND, j) ((uint64_t)CAND(j) | ((uint64_t)CAND((j) + 32) << 32))
#else
#define FSK_BLOCK(CAND, j)                                                       \
  ((uint64_t)CAND(j) | ((uint64_t)CAND((j) + 16) << 16) |                        \
   ((uint64_t)CAND((j) + 32) << 32) | ((uint64_t)CAND((j) + 48) << 48))
#endif
#define FSK_WRITE(bbase, mask)                                                   \
  for (uint64_t mk = (mask); mk != 0; mk &= mk - 1) out[count++] = (bbase) + __builtin_ctzll(mk)
#define FSK_SHORT_LOOP(CAND)                                                     \
  do {                                                                           \
    while (j + 64 <= last + 1) {                                                 \
      if (capacity - count < 64) {                                               \
        *next = j;                                                               \
        return count;                                                            \
      }                                                                          \
      FSK_WRITE(j, FSK_BLOCK(CAND, j));                                          \
      j += 64;                                                                   \
    }                                                                            \
    if (j <= last) {                                                             \
      if (capacity - count < 64) {                                               \
        *next = j;                                                               \
        return count;                                                            \
      }                                                                          \
      const int64_t bbase = last - 63;                                           \
      FSK_WRITE(bbase, FSK_BLOCK(CAND, bbase) & (~(uint64_t)0 << (j - bbase)));  \
    }                                                                            \
    *next = last + 1;                                                            \
    return count;                                                                \
  } while (0)

FSK_TARGET FSSIMD_HIDDEN int64_t FSK_NAME(find_short)(const uint8_t *h, int64_t n, int64_t start,
                                               const uint8_t *nd, int64_t m, int64_t *out,
                                               int64_t capacity, int64_t *next) {
  const int64_t last = n - m;
  if (last - start + 1 < 64) {
    return fssimd_short_collect_portable(h, n, start, nd, m, out, capacity, next);
  }
  const FSK_VEC v0 = FSK_SPLAT(nd[0]);
  int64_t j = start;
  int64_t count = 0;
#define FSK_EQ0(j) FSK_EQ(FSK_LOADU(h + (j)), v0)
  if (m == 1) {
#define FSK_C1(j) ((uint32_t)FSK_MASK(FSK_EQ0(j)))
    FSK_SHORT_LOOP(FSK_C1);
#undef FSK_C1
  }
  const FSK_VEC v1 = FSK_SPLAT(nd[1]);
#define FSK_EQ1(j) FSK_EQ(FSK_LOADU(h + (j) + 1), v1)
  if (m == 2) {
#define FSK_C2(j) ((uint32_t)FSK_MASK(FSK_AND(FSK_EQ0(j), FSK_EQ1(j))))
    FSK_SHORT_LOOP(FSK_C2);
#undef FSK_C2
  }
  const FSK_VEC v2 = FSK_SPLAT(nd[2]);
#define FSK_C3(j) \
  ((uint32_t)FSK_MASK(FSK_AND(FSK_AND(FSK_EQ0(j), FSK_EQ1(j)), FSK_EQ(FSK_LOADU(h + (j) + 2), v2))))
  FSK_SHORT_LOOP(FSK_C3);
#undef FSK_C3
#undef FSK_EQ1
#undef FSK_EQ0
}

#undef FSK_BLOCK
#undef FSK_WRITE
#undef FSK_SHORT_LOOP
#undef FSK_PAIR_CANDIDATES
