// FoldKernels.h — the fold's vector loop (the ASCII fold, and the fold's
// fast path with the scalar part of FoldScalar.h between vectors), written
// once and instantiated by FoldVector.c for each vector width (SSE2: 16
// bytes, AVX2: 32 bytes). Not a public header: it has no include guard on
// purpose; the includer defines the FSK_ macros (KernelWidth.h) and
// includes FoldScalar.h first.
//
// Invariants: a vector is loaded only when i + FSK_V <= count and stored
// at dst + o with o <= i × E (the caller's room, see fssimd_fold_run); the
// output up to `o` and the notes are the scalar fold's, whatever the width.

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
FSK_TARGET FSSIMD_HIDDEN int64_t FSK_NAME(ascii_lower)(const uint8_t *src, int64_t n, uint8_t *dst,
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

FSK_TARGET FSSIMD_HIDDEN void FSK_NAME(fold_run)(fssimd_fold_state *s) {
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
FSK_TARGET FSSIMD_HIDDEN void FSK_NAME(fold_run_sparse)(fssimd_fold_state *s) {
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
