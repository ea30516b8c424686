// Internal.h — what the kernel files share and the library does not export:
// the result constructors, the verification every search level uses, and
// the declarations of the per-level kernels that Dispatch.c calls. Not a
// public header (it is outside include/).
//
// Layers (as in BurntSushi's memchr crate, which keeps its portable
// algorithm, its per-arch vector algorithms and its run-time choice apart):
//   SearchPortable.c  the search kernels in plain C, any CPU;
//   SearchVector.c    the search kernels at 16 (SSE2) and 32 (AVX2) bytes,
//                     one body (SearchKernels.h) instantiated per width;
//   OneShotAVX2.c, OneShotAVX512.c  the one-shot candidate scan over
//                     64-byte blocks in two AVX2 vectors or one AVX-512
//                     register, one body (OneShotKernels.h) per level,
//                     around the portable drivers of SearchPortable.c;
//   FoldScalar.h/.c   the fold's scalar part, inlined into every fold loop;
//   FoldVector.c      the fold's vector loop at 16 and 32 bytes
//                     (FoldKernels.h);
//   FoldAVX512.c      the fold's 64-byte kernel (byte permutes, compress);
//   Tables.c          the Hangul jamo tables and the AVX-512 fold's lanes;
//   Dispatch.c        CPU detection and the exported entry points;
//   UTF8Validate.c    UTF-8 well-formedness: portable, AVX2;
//   AnyByte.c, MapEncoding.c  self-contained kernels with their own levels.
//
// Invariant: every function declared here has hidden visibility (it is
// called only from this target) and the caller obligations of the exported
// entry point it serves (include/FoldSearchSIMD.h); a kernel marked with a
// target attribute is called only when fssimd_best_level() reports that
// level.
#ifndef FOLDSEARCH_SIMD_INTERNAL_H
#define FOLDSEARCH_SIMD_INTERNAL_H
#include "FoldSearchSIMD.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define FSSIMD_HAS_X86 1
#endif

#define FSSIMD_HIDDEN __attribute__((visibility("hidden")))

// MARK: - Results

static inline fssimd_result fssimd_found(int64_t position) {
  fssimd_result r = {position, FSSIMD_FOUND};
  return r;
}

static inline fssimd_result fssimd_none(void) {
  fssimd_result r = {-1, FSSIMD_NONE};
  return r;
}

static inline fssimd_result fssimd_handover(int64_t position) {
  fssimd_result r = {position, FSSIMD_HANDOVER};
  return r;
}

static inline fssimd_block fssimd_block_at(int64_t base, uint64_t mask, int64_t end) {
  fssimd_block b = {base, mask, end};
  return b;
}

// MARK: - Verification (every search level)

// Whether the candidate at `position` may not be verified any more: the
// verification work so far exceeds 4 × (position − origin) + 2m + 256.
static inline int fssimd_over_budget(const fssimd_pair_state *s, int64_t position) {
  return s->budgeted &&
         s->work > 4 * (position - s->origin) + 2 * s->needle_count + 256;
}

// Compares the window `w` with the needle, 8 bytes at a time (the last chunk
// overlapping the previous one), and adds the bytes compared to *work.
// Caller obligations: w and nd point to m >= 1 readable bytes.
static inline int fssimd_verify(const uint8_t *w, const uint8_t *nd, int64_t m, int64_t *work) {
  if (m >= 8) {
    int64_t i = 0;
    uint64_t a, b;
    for (; i + 8 <= m; i += 8) {
      memcpy(&a, w + i, 8);
      memcpy(&b, nd + i, 8);
      if (a != b) {
        *work += i + 8;
        return 0;
      }
    }
    if (i < m) {
      memcpy(&a, w + m - 8, 8);
      memcpy(&b, nd + m - 8, 8);
      if (a != b) {
        *work += m;
        return 0;
      }
    }
    *work += m;
    return 1;
  }
  for (int64_t i = 0; i < m; i++) {
    if (w[i] != nd[i]) {
      *work += i + 1;
      return 0;
    }
  }
  *work += m;
  return 1;
}

// The low 64 bits of the OR of x >> t over t in 0 ..< w, where x is the
// 128-bit lo | hi << 64, by doubling the shifts covered: at most four
// steps for w <= 16, each exact on both words, every shift count in
// 1 ..< 64 (the one-shot kernels' window test). Caller obligations:
// 1 <= w <= 64.
static inline uint64_t fssimd_smear(uint64_t lo, uint64_t hi, int w) {
  int covered = 1;
  for (; 2 * covered <= w; covered *= 2) {
    lo |= lo >> covered | hi << (64 - covered);
    hi |= hi >> covered;
  }
  if (covered < w) lo |= lo >> (w - covered) | hi << (64 - (w - covered));
  return lo;
}

// The partner test of a block of 64 one-shot positions, from its masks:
// `ep`, bit k where the byte at j + k + d is the partner; `hd`, where that
// byte is >= 0x80; `h0`, where the byte at j + k is. The window of |d|
// bytes beside each position (after it when d > 0, before it when d < 0)
// is read from the 64 + |d| high bits of both loads as one 128-bit mask x,
// bit i the byte w + i (w = j + 1 when d > 0, j + d when d < 0), smeared
// over |d| bits. Caller obligations: 1 <= |d| <= 16.
// With `straight`, without the branch that returns ep at once when neither
// block holds a byte >= 0x80 (the straight loop's: no branch on the bytes).
static inline __attribute__((always_inline)) uint64_t fssimd_partner_bits(int64_t d, uint64_t ep,
                                                                          uint64_t hd, uint64_t h0,
                                                                          const int straight) {
  if (!straight && (h0 | hd) == 0) return ep;  // no byte >= 0x80 in either block: no window holds one
  uint64_t lo, hi;  // x
  if (d > 0) {
    lo = h0 >> 1 | hd << (d - 1), hi = hd >> (64 - d) >> 1;
  } else {
    lo = hd | h0 << -d, hi = h0 >> (64 + d);
  }
  return ep | fssimd_smear(lo, hi, (int)(d > 0 ? d : -d));
}

// The low-nibble table of a byte set over 0x80...0xFF as two words (bytes
// 0–7 and 8–15 of a 128-bit lane): byte l has bit hi − 8 for every member
// hi·16 + l (8 <= hi <= 15). One step per member (the sets are small, and
// this runs once per call). Caller obligations: `set` points to two
// readable words.
static inline void fssimd_nibble_words(const uint64_t set[2], uint64_t t[2]) {
  t[0] = t[1] = 0;
  for (unsigned w = 0; w < 2; w++) {
    for (uint64_t bits = set[w]; bits != 0; bits &= bits - 1) {
      const unsigned k = 64 * w + (unsigned)__builtin_ctzll(bits);
      t[(k >> 3) & 1] |= (uint64_t)1 << (8 * (k & 7) + (k >> 4));
    }
  }
}

// The scalar parts of the vector bodies of several one-shot anchors
// (OneShotKernels.h): the union of the anchors' byte sets of
// test (B) and whether every partner is right after its anchor (or none).
// Caller obligations: `a` points to k valid anchors.
static inline int fssimd_multi_setup(const fssimd_anchor *a, int32_t k, uint64_t lead_all[2],
                                     uint64_t second_all[2]) {
  int adjacent = 1;
  lead_all[0] = lead_all[1] = second_all[0] = second_all[1] = 0;
  for (int32_t i = 0; i < k; i++) {
    for (int w = 0; w < 2; w++) lead_all[w] |= a[i].lead[w], second_all[w] |= a[i].second[w];
    adjacent &= a[i].distance == 0 || a[i].distance == 1;
  }
  return adjacent;
}

// Writes the positions of `all` (the OR of masks[0 ..< k]) at block j to
// out[count ...], with bit i of which[] set where masks[i] has the
// position; returns the new count. Caller obligations: popcount(all) slots
// are free from out[count] and which[count].
static inline int64_t fssimd_multi_write(int64_t j, uint64_t all, const uint64_t *masks, int32_t k,
                                         int64_t *out, uint8_t *which, int64_t count) {
  for (; all != 0; all &= all - 1) {
    const int b = __builtin_ctzll(all);
    unsigned m = 0;
    for (int32_t i = 0; i < k; i++) m |= (unsigned)((masks[i] >> b) & 1) << i;
    out[count] = j + b;
    which[count] = (uint8_t)m;
    count++;
  }
  return count;
}

// MARK: - Kernels by level

// SearchPortable.c
FSSIMD_HIDDEN fssimd_result fssimd_pair_portable(const uint8_t *h, int64_t n, int64_t start,
                                                 fssimd_pair_state *s);
FSSIMD_HIDDEN int64_t fssimd_short_collect_portable(const uint8_t *h, int64_t n, int64_t start,
                                                    const uint8_t *nd, int64_t m, int64_t *out,
                                                    int64_t capacity, int64_t *next);
FSSIMD_HIDDEN int64_t fssimd_oneshot_collect_portable(const uint8_t *h, int64_t n, int64_t start,
                                                      int64_t stop, const fssimd_anchor *a,
                                                      int64_t *out, int64_t capacity,
                                                      int64_t *next);
// A vector loop of the one-shot scan (one per instruction set, and per
// partner count: `blocks1` for one partner or none, `blocks2` for two):
// from block *jp, 64 positions a block, while a block's reach (see
// fssimd_oneshot_drive) lies before n and 64 of `capacity` slots are free;
// returns `count` plus the candidates written from out[count], and sets
// *jp to where it stopped.
typedef int64_t (*fssimd_oneshot_blocks)(const uint8_t *h, int64_t n, int64_t *jp, int64_t reach,
                                         const fssimd_anchor *a, int64_t *out, int64_t capacity,
                                         int64_t count);
// The vector loops of one instruction set: [way][partners − 1], way 0
// skipping and 1 straight (fssimd_oneshot_collect), for one partner or
// none and for two.
typedef fssimd_oneshot_blocks fssimd_oneshot_loops[2][2];
// fssimd_oneshot_collect around a vector loop: the blocks nearer either end
// than a block's loads reach, and anchors with a partner more than 16
// bytes away, go to the portable collector; the rest to the loop of the
// way `a->loop` asks for, or measured. Caller obligations: those of
// fssimd_oneshot_collect, and the CPU runs the loops' instructions.
FSSIMD_HIDDEN int64_t fssimd_oneshot_drive(const uint8_t *h, int64_t n, int64_t start,
                                           fssimd_anchor *a, int64_t *out, int64_t capacity,
                                           int64_t *next, const fssimd_oneshot_loops loops);
// A vector body of the one-shot scan of k anchors (1 <= k <= 8), one per
// instruction set: from block j while every anchor's reach lies before n
// and 64 slots are free; returns `count` plus the candidates written from
// out[count] (bit i of which[] set for a[i]'s) and sets *next to where it
// stopped.
typedef int64_t (*fssimd_oneshot_multi_blocks)(const uint8_t *h, int64_t n, int64_t j,
                                               int64_t reach, const fssimd_anchor *a, int32_t k,
                                               int64_t *out, uint8_t *which, int64_t count,
                                               int64_t capacity, int64_t *next);
// fssimd_oneshot_collect_multi around a vector body (SearchPortable.c).
// Caller obligations: those of fssimd_oneshot_collect_multi, and the CPU
// runs the body's instructions.
FSSIMD_HIDDEN int64_t fssimd_oneshot_multi_drive(const uint8_t *h, int64_t n, int64_t start,
                                                 const fssimd_anchor *a, int32_t k,
                                                 int64_t *out, uint8_t *which, int64_t capacity,
                                                 int64_t *next, fssimd_oneshot_multi_blocks blocks);
FSSIMD_HIDDEN int64_t fssimd_oneshot_multi_collect_portable(const uint8_t *h, int64_t n,
                                                            int64_t start, int64_t stop,
                                                            const fssimd_anchor *a, int32_t k,
                                                            int64_t *out, uint8_t *which,
                                                            int64_t capacity, int64_t *next);

// UTF8Validate.c
FSSIMD_HIDDEN int32_t fssimd_utf8_valid_portable(const uint8_t *p, int64_t n);

#if defined(FSSIMD_HAS_X86)
// UTF8Validate.c
FSSIMD_HIDDEN int32_t fssimd_utf8_valid_avx2(const uint8_t *p, int64_t n);

// SearchVector.c
#define FSSIMD_DECLARE_SEARCH(suffix)                                                          \
  FSSIMD_HIDDEN fssimd_result fssimd_pair_find_##suffix(const uint8_t *h, int64_t n,           \
                                                        int64_t start, fssimd_pair_state *s);  \
  FSSIMD_HIDDEN int64_t fssimd_find_short_##suffix(const uint8_t *h, int64_t n, int64_t start,  \
                                                   const uint8_t *nd, int64_t m, int64_t *out, \
                                                   int64_t capacity, int64_t *next);
FSSIMD_DECLARE_SEARCH(sse2)
FSSIMD_DECLARE_SEARCH(avx2)
#undef FSSIMD_DECLARE_SEARCH

// OneShotAVX2.c, OneShotAVX512.c (OneShotKernels.h)
FSSIMD_HIDDEN int64_t fssimd_oneshot_avx2(const uint8_t *h, int64_t n, int64_t start,
                                          fssimd_anchor *a, int64_t *out, int64_t capacity,
                                          int64_t *next);
FSSIMD_HIDDEN int64_t fssimd_oneshot_multi_avx2(const uint8_t *h, int64_t n, int64_t start,
                                                const fssimd_anchor *a, int32_t k, int64_t *out,
                                                uint8_t *which, int64_t capacity, int64_t *next);
FSSIMD_HIDDEN int64_t fssimd_oneshot_avx512(const uint8_t *h, int64_t n, int64_t start,
                                            fssimd_anchor *a, int64_t *out, int64_t capacity,
                                            int64_t *next);
FSSIMD_HIDDEN int64_t fssimd_oneshot_multi_avx512(const uint8_t *h, int64_t n, int64_t start,
                                                  const fssimd_anchor *a, int32_t k,
                                                  int64_t *out, uint8_t *which, int64_t capacity,
                                                  int64_t *next);

// FoldVector.c
FSSIMD_HIDDEN int64_t fssimd_ascii_lower_sse2(const uint8_t *src, int64_t n, uint8_t *dst,
                                              int32_t controls);
FSSIMD_HIDDEN int64_t fssimd_ascii_lower_avx2(const uint8_t *src, int64_t n, uint8_t *dst,
                                              int32_t controls);
FSSIMD_HIDDEN void fssimd_fold_run_sse2(fssimd_fold_state *s);
FSSIMD_HIDDEN void fssimd_fold_run_avx2(fssimd_fold_state *s);
// The AVX2 loop for the AVX-512 kernel's sparse stretches (FoldKernels.h).
FSSIMD_HIDDEN void fssimd_fold_run_sparse_avx2(fssimd_fold_state *s);

// FoldAVX512.c
FSSIMD_HIDDEN void fssimd_fold_run_avx512(fssimd_fold_state *s);
#endif

// The most stops (non-ASCII bytes, and controls or contraction starters
// where they stop) in a 64-byte block with ASCII stops that the AVX-512
// kernel hands to the AVX2 loop as a sparse stretch (FoldAVX512.c); that
// loop returns at a 32-byte vector with more.
#define FSSIMD_SPARSE 8

#endif
