// Kernels.h — the vector algorithm, written once and instantiated by
// FoldSearchSIMD.c for each vector width (SSE2: 16 bytes, AVX2: 32 bytes).
// Not a public header: it has no include guard on purpose.
//
// The includer defines:
//   FSK_NAME(x)  the function name for kernel x at this width
//   FSK_TARGET   the function attribute enabling the instruction set
//   FSK_V        the vector width in bytes (16 or 32)
//   FSK_VEC      the vector type
//   FSK_LOADU(p) unaligned load of FSK_V bytes at p
//   FSK_SPLAT(b) a vector of FSK_V copies of byte b
//   FSK_EQ(a, b) bytewise equality (0xFF / 0x00)
//   FSK_AND(a, b)
//   FSK_MASK(v)  the top bit of every byte, as a uint32_t (bit k = byte k)
//   FSK_GT(a, b) bytewise signed greater-than (0xFF / 0x00)
//   FSK_ADD(a, b), FSK_OR(a, b)
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

FSK_TARGET static fssimd_result FSK_NAME(pair_find)(const uint8_t *h, int64_t n, int64_t start,
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

FSK_TARGET static int64_t FSK_NAME(find_short)(const uint8_t *h, int64_t n, int64_t start,
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

// One vector of the ASCII fold: the FSK_V bytes at src stored at dst with
// A–Z lowercased (0x20 added where 'A' - 1 < byte < 'Z' + 1, signed
// compares, so bytes >= 0x80, which are negative, never qualify); returns
// the mask of the bytes that stop the ASCII path: >= 0x80 and, with
// `controls` nonzero, below 0x20 or equal to 0x7F, except TAB…CR (0x09–0x0D)
// when `controls` is FSK_CONTROLS_BUT_SPACES. Caller obligations: FSK_V
// readable bytes at src and writable ones at dst.
#ifndef FSK_CONTROLS_BUT_SPACES
#define FSK_CONTROLS_BUT_SPACES 2
#endif
FSK_TARGET static inline uint32_t FSK_NAME(ascii_vector)(const uint8_t *src, uint8_t *dst,
                                                         int32_t controls) {
  const FSK_VEC v = FSK_LOADU(src);
  const FSK_VEC upper = FSK_AND(FSK_GT(v, FSK_SPLAT('A' - 1)), FSK_GT(FSK_SPLAT('Z' + 1), v));
  FSK_STOREU(dst, FSK_ADD(v, FSK_AND(upper, FSK_SPLAT(0x20))));
  uint32_t stop = (uint32_t)FSK_MASK(v);
  if (controls) {
    // Signed compares: bytes >= 0x80 are negative (below 0x20), and they
    // stop anyway.
    uint32_t control =
        (uint32_t)FSK_MASK(FSK_OR(FSK_GT(FSK_SPLAT(0x20), v), FSK_EQ(v, FSK_SPLAT(0x7F))));
    if (controls == FSK_CONTROLS_BUT_SPACES) {
      control &= ~(uint32_t)FSK_MASK(FSK_AND(FSK_GT(v, FSK_SPLAT(0x08)), FSK_GT(FSK_SPLAT(0x0E), v)));
    }
    stop |= control;
  }
  return stop;
}

// The ASCII fold (fssimd_ascii_lower): one vector per step, stopping at the
// first byte that stops the ASCII path. Every load and store lies inside
// [0, n): a vector is handled only when i + FSK_V <= n.
FSK_TARGET static int64_t FSK_NAME(ascii_lower)(const uint8_t *src, int64_t n, uint8_t *dst,
                                                int32_t controls) {
  int64_t i = 0;
  for (; i + FSK_V <= n; i += FSK_V) {
    const uint32_t stop = FSK_NAME(ascii_vector)(src + i, dst + i, controls);
    if (stop != 0) return i + __builtin_ctz(stop);
  }
  return i;
}

// The fold's fast path (fssimd_fold_run): one vector per step lowercased and
// stored whole at dst + o (the ASCII fold's vector); at the first byte
// the vector path does not fold, the ASCII prefix is kept and the scalar
// part (fssimd_fold_scalars) takes over until ASCII resumes. Loads stay
// inside [0, count): a vector is loaded only when i + FSK_V <= count; a store
// at dst + o of FSK_V bytes stays inside the caller's room, since
// o + FSK_V <= i × E + FSK_V <= count × E.
// `controls` is a constant in each instantiation (fold_run below), so that
// the loop tests no flag per vector.
#if FSK_V == 32
// The lanes of `v` whose byte is in the nibble set `table` (16 bytes in
// each 128-bit lane: bit b >> 4 of entry b & 15 for byte b); bytes of 0x80
// and above are in none. AVX2 only (SSE2 has no byte shuffle).
FSK_TARGET static inline uint32_t FSK_NAME(nibble_set)(__m256i v, __m256i table) {
  const __m256i low_nibbles = _mm256_and_si256(v, _mm256_set1_epi8(0x0F));
  const __m256i high_nibbles = _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F));
  const __m256i high_bits =
      _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64,
                       -128, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i hits = _mm256_and_si256(_mm256_shuffle_epi8(table, low_nibbles),
                                        _mm256_shuffle_epi8(high_bits, high_nibbles));
  return ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hits, _mm256_setzero_si256()));
}

// The ASCII contraction starters of the vector at src + i that a
// continuation or a non-ASCII byte follows (fssimd_fold_state
// .ascii_contraction_nibbles); at the input's last vector, every starter.
FSK_TARGET static inline uint32_t FSK_NAME(contraction_stops)(const uint8_t *src, int64_t i,
                                                              int64_t n, __m256i starters,
                                                              __m256i continuations) {
  const uint32_t found = FSK_NAME(nibble_set)(FSK_LOADU(src + i), starters);
  if (found == 0 || i + FSK_V >= n) return found;
  const __m256i after = FSK_LOADU(src + i + 1);
  return found & (FSK_NAME(nibble_set)(after, continuations) | (uint32_t)FSK_MASK(after));
}
#endif

// `dense` (a constant in each instantiation): 0, or the most non-ASCII
// bytes (and other stops) a vector may hold for the loop to go on; at a
// vector with more, it returns before that vector (fold_run_sparse).
FSK_TARGET __attribute__((always_inline)) static inline void FSK_NAME(fold_run_with)(
    fssimd_fold_state *s, const int controls, const int contractions, const int dense) {
  const fssimd_fold_state c = *s;
  const uint8_t *src = c.src;
  uint8_t *dst = c.dst;
  const int64_t n = c.count;
  int64_t i = s->i, o = s->o, k = s->note_count;
#if FSK_V == 32
  const uint8_t *nibbles = c.ascii_contraction_nibbles;
  const __m256i starter_nibbles =
      contractions
          ? _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)nibbles))
          : _mm256_setzero_si256();
  const __m256i continuation_nibbles =
      contractions ? _mm256_broadcastsi128_si256(
                         _mm_loadu_si128((const __m128i *)(const void *)(nibbles + 16)))
                   : _mm256_setzero_si256();
#endif
  while (i + FSK_V <= n) {
    uint32_t stop = FSK_NAME(ascii_vector)(src + i, dst + o, controls);
#if FSK_V == 32
    if (contractions) {
      stop |= FSK_NAME(contraction_stops)(src, i, n, starter_nibbles, continuation_nibbles);
    }
#endif
    if (stop == 0) {
      i += FSK_V;
      o += FSK_V;
      continue;
    }
    if (dense && __builtin_popcount(stop) > dense) break;
    const int64_t prefix = (int64_t)__builtin_ctz(stop);
    i += prefix;
    o += prefix;
    if (!fssimd_fold_scalars(c, &i, &o, &k, 0, contractions, 0)) break;
  }
  s->i = i;
  s->o = o;
  s->note_count = k;
}

FSK_TARGET static void FSK_NAME(fold_run)(fssimd_fold_state *s) {
  // The fold's callers keep TAB…CR plain (fssimd_fold_state). ASCII
  // contraction starters need byte shuffles: 32-byte vectors only (the
  // dispatcher does not call the 16-byte kernel for them).
#if FSK_V == 32
  if (s->ascii_contraction_nibbles) {
    FSK_NAME(fold_run_with)(s, s->stop_at_controls ? FSK_CONTROLS_BUT_SPACES : 0, 1, 0);
    return;
  }
#endif
  if (s->stop_at_controls) {
    FSK_NAME(fold_run_with)(s, FSK_CONTROLS_BUT_SPACES, 0, 0);
  } else {
    FSK_NAME(fold_run_with)(s, 0, 0, 0);
  }
}

#if FSK_V == 32
// fold_run for the AVX-512 kernel's sparse stretches: the same loop, which
// also returns before a vector with more than FSSIMD_SPARSE stops (text
// dense with non-ASCII scalars, which the 64-byte blocks fold), at its
// first byte. Its output up to where it returns is fold_run's.
FSK_TARGET static void FSK_NAME(fold_run_sparse)(fssimd_fold_state *s) {
  if (s->ascii_contraction_nibbles) {
    FSK_NAME(fold_run_with)
    (s, s->stop_at_controls ? FSK_CONTROLS_BUT_SPACES : 0, 1, FSSIMD_SPARSE);
  } else if (s->stop_at_controls) {
    FSK_NAME(fold_run_with)(s, FSK_CONTROLS_BUT_SPACES, 0, FSSIMD_SPARSE);
  } else {
    FSK_NAME(fold_run_with)(s, 0, 0, FSSIMD_SPARSE);
  }
}
#endif
