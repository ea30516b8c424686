// FoldSearchSIMD.c — byte-search kernels: the portable layer, the vector
// layer instantiated for SSE2 and AVX2 (Kernels.h), and the run-time choice.
// See include/FoldSearchSIMD.h for the contracts.
#include "FoldSearchSIMD.h"

#include <string.h>

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

// MARK: - Portable layer

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

// The pair prefilter one window at a time.
static fssimd_result fssimd_pair_portable(const uint8_t *h, int64_t n, int64_t start,
                                          fssimd_pair_state *s) {
  const int64_t m = s->needle_count;
  const uint8_t *nd = s->needle;
  const uint8_t b1 = nd[s->index1], b2 = nd[s->index2];
  const uint8_t *p1 = h + s->index1, *p2 = h + s->index2;
  for (int64_t j = start; j <= n - m; j++) {
    if (p1[j] != b1 || p2[j] != b2) continue;
    if (fssimd_over_budget(s, j)) return fssimd_handover(j);
    if (fssimd_verify(h + j, nd, m, &s->work)) return fssimd_found(j);
  }
  return fssimd_none();
}

// A 1–3 byte needle one window at a time: the occurrences among the first
// 64 starts from `start` (or up to the last start) as a block.
static fssimd_block fssimd_short_portable(const uint8_t *h, int64_t n, int64_t start,
                                          const uint8_t *nd, int64_t m) {
  const int64_t last = n - m;
  const int64_t end = last - start + 1 < 64 ? last + 1 : start + 64;
  uint64_t mask = 0;
  for (int64_t j = start; j < end; j++) {
    if (h[j] != nd[0]) continue;
    if (m >= 2 && h[j + 1] != nd[1]) continue;
    if (m >= 3 && h[j + 2] != nd[2]) continue;
    mask |= (uint64_t)1 << (j - start);
  }
  return fssimd_block_at(start, mask, end);
}

// The portable collector: blocks of fssimd_short_portable, written out,
// while 64 slots are free (the contract of fssimd_find_short_collect, for
// start <= n - m).
static int64_t fssimd_short_collect_portable(const uint8_t *h, int64_t n, int64_t start,
                                             const uint8_t *nd, int64_t m, int64_t *out,
                                             int64_t capacity, int64_t *next) {
  int64_t count = 0;
  while (start <= n - m && capacity - count >= 64) {
    fssimd_block b = fssimd_short_portable(h, n, start, nd, m);
    for (uint64_t k = b.mask; k != 0; k &= k - 1) out[count++] = b.base + __builtin_ctzll(k);
    start = b.end;
  }
  *next = start;
  return count;
}

// Whether byte b (>= 0x80) is in a 128-bit byte set over 0x80...0xFF.
static inline int fssimd_in_high_set(const uint64_t set[2], uint8_t b) {
  unsigned k = (unsigned)b - 0x80u;
  return (int)((set[k >> 6] >> (k & 63)) & 1);
}

// Whether position p is a one-shot candidate (the header's conditions).
static inline int fssimd_oneshot_at(const uint8_t *h, int64_t n, int64_t p,
                                    const fssimd_anchor *a) {
  const uint8_t b = h[p];
  if (b >= 0x80) {
    return fssimd_in_high_set(a->lead, b) && p + 1 < n && h[p + 1] >= 0x80 &&
           fssimd_in_high_set(a->second, h[p + 1]);
  }
  if ((uint8_t)(b | a->anchor_or) != a->anchor) return 0;
  const int64_t d = a->distance;
  if (d == 0) return 1;
  const int64_t q = p + d;
  if (q >= 0 && q < n && (uint8_t)(h[q] | a->partner_or) == a->partner) return 1;
  int64_t lo = d > 0 ? p + 1 : q, hi = d > 0 ? q : p - 1;
  if (lo < 0) lo = 0;
  if (hi > n - 1) hi = n - 1;
  for (int64_t x = lo; x <= hi; x++) {
    if (h[x] >= 0x80) return 1;
  }
  return 0;
}

// One-shot candidates one position at a time: those among the first 64
// positions from `start` (or up to n) as a block.
static fssimd_block fssimd_oneshot_portable(const uint8_t *h, int64_t n, int64_t start,
                                            const fssimd_anchor *a) {
  const int64_t end = n - start < 64 ? n : start + 64;
  uint64_t mask = 0;
  for (int64_t p = start; p < end; p++) {
    if (fssimd_oneshot_at(h, n, p, a)) mask |= (uint64_t)1 << (p - start);
  }
  return fssimd_block_at(start, mask, end);
}

// The portable collector: blocks of fssimd_oneshot_portable, written out,
// while 64 slots are free.
static int64_t fssimd_oneshot_collect_portable(const uint8_t *h, int64_t n, int64_t start,
                                               const fssimd_anchor *a, int64_t *out,
                                               int64_t capacity, int64_t *next) {
  int64_t count = 0;
  while (start < n && capacity - count >= 64) {
    fssimd_block b = fssimd_oneshot_portable(h, n, start, a);
    for (uint64_t m = b.mask; m != 0; m &= m - 1) out[count++] = b.base + __builtin_ctzll(m);
    start = b.end;
  }
  *next = start;
  return count;
}

// MARK: - Fold fast path, the scalar part

// Appends a map note (o, i), flagged atomic or not. Caller obligations: a
// free slot at notes[*k].
#define FSSIMD_NOTE(folded, orig)         \
  do {                                    \
    notes[k].folded_and_flag = (folded);  \
    notes[k].original = (orig);           \
    k++;                                  \
  } while (0)

// The Hangul syllables U+AC00...U+D7A3, ordered by (L, V, T): the index
// of a syllable is (L × 21 + V) × 28 + T (Unicode §3.12, "Conjoining Jamo
// Behavior").
#define FSSIMD_HANGUL_FIRST 0xAC00u
#define FSSIMD_HANGUL_COUNT 11172u
// (The Hangul run reads and writes words little-endian: x86-64, AArch64.)
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the Hangul run of fssimd_fold_scalars assumes a little-endian target"
#endif

// A syllable's jamo as UTF-8 (L = U+1100 + l, V = U+1161 + v, T = U+11A7 +
// t: E1 84 (80 + l), E1 85 (A1 + v), E1 (86 or 87) (80 | (27 + t) & 3F)),
// looked up instead of computed. fssimd_hangul_lv[index / 28] holds the
// first seven bytes, L, V and T's lead E1, as a little-endian word;
// fssimd_hangul_t[t] the last two (t = index % 28; for t = 0, no T, they are
// written past the fold's end) and, in its third byte, the fold's length.
#define FSSIMD_LV(n)                                                                 \
  (0xE1u | 0x84u << 8 | (uint64_t)(0x80 + (n) / 21) << 16 | (uint64_t)0xE1 << 24 | \
   (uint64_t)0x85 << 32 | (uint64_t)(0xA1 + (n) % 21) << 40 | (uint64_t)0xE1 << 48)
#define FSSIMD_LV10(n)                                                                  \
  FSSIMD_LV(n), FSSIMD_LV(n + 1), FSSIMD_LV(n + 2), FSSIMD_LV(n + 3), FSSIMD_LV(n + 4), \
      FSSIMD_LV(n + 5), FSSIMD_LV(n + 6), FSSIMD_LV(n + 7), FSSIMD_LV(n + 8), FSSIMD_LV(n + 9)
#define FSSIMD_LV100(n)                                                                  \
  FSSIMD_LV10(n), FSSIMD_LV10(n + 10), FSSIMD_LV10(n + 20), FSSIMD_LV10(n + 30),         \
      FSSIMD_LV10(n + 40), FSSIMD_LV10(n + 50), FSSIMD_LV10(n + 60), FSSIMD_LV10(n + 70), \
      FSSIMD_LV10(n + 80), FSSIMD_LV10(n + 90)
// 19 × 21 = 399 (L, V) pairs; the 400th entry is never read.
static const uint64_t fssimd_hangul_lv[400] = {FSSIMD_LV100(0), FSSIMD_LV100(100),
                                               FSSIMD_LV100(200), FSSIMD_LV100(300)};
#define FSSIMD_T(t)                                                                 \
  (uint32_t)((0x86 + ((0x27 + (t)) >> 6)) | (0x80 | ((0x27 + (t)) & 0x3F)) << 8 | \
             ((t) != 0 ? 9 : 6) << 16)
static const uint32_t fssimd_hangul_t[28] = {
    FSSIMD_T(0),  FSSIMD_T(1),  FSSIMD_T(2),  FSSIMD_T(3),  FSSIMD_T(4),  FSSIMD_T(5),
    FSSIMD_T(6),  FSSIMD_T(7),  FSSIMD_T(8),  FSSIMD_T(9),  FSSIMD_T(10), FSSIMD_T(11),
    FSSIMD_T(12), FSSIMD_T(13), FSSIMD_T(14), FSSIMD_T(15), FSSIMD_T(16), FSSIMD_T(17),
    FSSIMD_T(18), FSSIMD_T(19), FSSIMD_T(20), FSSIMD_T(21), FSSIMD_T(22), FSSIMD_T(23),
    FSSIMD_T(24), FSSIMD_T(25), FSSIMD_T(26), FSSIMD_T(27)};
#undef FSSIMD_LV
#undef FSSIMD_LV10
#undef FSSIMD_LV100
#undef FSSIMD_T

// The Hangul syllable whose UTF-8 starts the four bytes of `word` (read
// little-endian), or UINT32_MAX. U+AC00...U+D7A3 lead with EA...ED, and a
// well-formed continuation pair with such a lead is a scalar at or above
// U+A000, below U+E000.
__attribute__((always_inline)) static inline uint32_t fssimd_syllable_in(uint32_t word) {
  if ((uint8_t)(word - 0xEA) > 3 || (word & 0xC0C000) != 0x808000) return UINT32_MAX;
  const uint32_t value = (word & 0x0F) << 12 | (word >> 8 & 0x3F) << 6 | (word >> 16 & 0x3F);
  return value - FSSIMD_HANGUL_FIRST < FSSIMD_HANGUL_COUNT ? value : UINT32_MAX;
}

// Copies a fold of `length` bytes from the pool (or the pair table) to the
// output: up to eight as one word, whatever the length, so that the copy
// does not branch on it (a byte loop mispredicted its exit at every fold of
// another length than the last: collation's kana, Arabic letters).
// Caller obligations: eight bytes are readable at `bytes` (the tables'
// slack) and writable at `out` (o + 8 <= i × E + 8 <= count × E + 16).
__attribute__((always_inline)) static inline void fssimd_copy_fold(uint8_t *out,
                                                                   const uint8_t *bytes,
                                                                   int64_t length) {
  if (__builtin_expect(length <= 8, 1)) {
    uint64_t word;
    memcpy(&word, bytes, 8);
    memcpy(out, &word, 8);
  } else {
    for (int64_t j = 0; j < length; j++) out[j] = bytes[j];
  }
}

// The positions a step of the fold reached.
typedef struct {
  int64_t i, o, k;
} fssimd_positions;

// A run of Hangul syllables from i, whose first is `value`, each folded to
// its conjoining jamo (L, V and, unless T = 0, T; the algorithm of Unicode
// §3.12, looked up in fssimd_hangul_lv and fssimd_hangul_t), with an atomic
// note at each syllable's start and one note at the run's end: a
// syllable's own end note is left out when another follows (the map would
// replace it by that one's start, at the same position). The run stops
// before a byte that is not a well-formed syllable, fewer than four input
// bytes, or fewer than two free note slots. Returns the positions and the
// note count after the run.
//
// Caller obligations: the table folds every syllable so
// (`hangul_is_arithmetic`), which makes E >= 3: a syllable's three bytes
// fold to at most nine, and the 16 bytes of slack after the output cover
// the stores past them; four bytes are readable at i and k <= last_note.
// Words are read and written little-endian.
__attribute__((always_inline)) static inline fssimd_positions fssimd_hangul_run_inline(
    const uint8_t *src, int64_t n, uint8_t *dst, fssimd_fold_note *notes, int64_t last_note,
    uint32_t value, int64_t i, int64_t o, int64_t k) {
  for (;;) {
    const uint32_t index = value - FSSIMD_HANGUL_FIRST;
    const uint32_t lv = index / 28, t = index % 28;
    FSSIMD_NOTE(o | FSSIMD_FOLD_NOTE_ATOMIC, i);
    // The jamo's nine bytes, as a word and a byte (see
    // fssimd_hangul_lv). T = 0 has no jamo: its bytes go past the
    // fold's end.
    const uint32_t tail = fssimd_hangul_t[t];
    const uint64_t bytes = fssimd_hangul_lv[lv] | (uint64_t)(tail & 0xFF) << 56;
    memcpy(dst + o, &bytes, 8);
    dst[o + 8] = (uint8_t)(tail >> 8);
    o += tail >> 16;
    i += 3;
    if (i + 4 > n || k > last_note) break;
    // The next scalar, if a syllable (four bytes are readable at i).
    uint32_t next;
    memcpy(&next, src + i, 4);
    if (src[i] == 0x20 && i + 5 <= n && k < last_note) {
      // One space between words: the run's end note, the space (it
      // folds to itself), and the run goes on if a syllable follows,
      // as the vector path's return and this run's restart would do.
      // The end note leaves two slots (k < last_note before it).
      uint32_t after;
      memcpy(&after, src + i + 1, 4);
      const uint32_t following = fssimd_syllable_in(after);
      if (following == UINT32_MAX) break;
      FSSIMD_NOTE(o, i);
      dst[o++] = 0x20;
      i++;
      value = following;
      continue;
    }
    value = fssimd_syllable_in(next);
    if (value == UINT32_MAX) break;
  }
  FSSIMD_NOTE(o, i);
  return (fssimd_positions){i, o, k};
}

// fssimd_hangul_run_inline out of line, for the AVX2 and SSE2 kernels:
// inlined, its registers crowd their loops (callgrind, AVX2: 4% more
// instructions on Latin text, which has no Hangul). The AVX-512 kernel
// inlines it: a call there would spill and reload its vector constants,
// which every call clobbers.
static __attribute__((noinline)) fssimd_positions fssimd_hangul_run(
    const uint8_t *src, int64_t n, uint8_t *dst, fssimd_fold_note *notes, int64_t last_note,
    uint32_t value, int64_t i, int64_t o, int64_t k) {
  return fssimd_hangul_run_inline(src, n, dst, notes, last_note, value, i, o, k);
}

// The scalar at j when it may continue a contraction begun before it (it
// is in the bitmap of continuations, exact for the BMP), with its width in
// *width; 0 when it continues none; UINT32_MAX when it is not a well-formed
// scalar of one to three bytes (the caller's slow path decides). Caller
// obligation: src[j], src[j + 1] and src[j + 2] are readable.
__attribute__((always_inline)) static inline uint32_t fssimd_continuation_at(
    const uint8_t *src, const uint64_t *continuations, int64_t j, int64_t *width) {
  const uint8_t c0 = src[j];
  uint32_t next;
  if (c0 < 0x80) {
    next = c0;
    *width = 1;
  } else if (c0 >= 0xC2 && c0 < 0xE0 && (src[j + 1] & 0xC0) == 0x80) {
    next = (uint32_t)(c0 & 0x1F) << 6 | (src[j + 1] & 0x3F);
    *width = 2;
  } else if (c0 >= 0xE0 && c0 < 0xF0 && (src[j + 1] & 0xC0) == 0x80 &&
             (src[j + 2] & 0xC0) == 0x80) {
    next = (uint32_t)(c0 & 0x0F) << 12 | (uint32_t)(src[j + 1] & 0x3F) << 6 | (src[j + 2] & 0x3F);
    // Overlong forms and surrogates are ill-formed (Table 3-7): the Swift
    // loop folds them as U+FFFD and records them, so they continue nothing
    // here either.
    if (next < 0x800 || next - 0xD800 < 0x800) return UINT32_MAX;
    *width = 3;
  } else {
    return UINT32_MAX;
  }
  // U+0000 continues nothing (a contraction's second scalar is never NUL).
  return continuations[next >> 6] >> (next & 63) & 1 ? next : 0;
}

// The slot of the contraction of `first` and `second` in the state's pair
// table, or -1 (see fssimd_fold_state.pair_keys).
__attribute__((always_inline)) static inline int64_t fssimd_pair_slot(const fssimd_fold_state *s,
                                                                     uint32_t first,
                                                                     uint32_t second) {
  const uint64_t key = (uint64_t)first << 21 | second;
  const uint64_t mask = ((uint64_t)1 << (64 - s->pair_shift)) - 1;
  uint64_t slot = (key * 0x9E3779B97F4A7C15ull) >> s->pair_shift;
  for (;;) {
    const uint64_t found = s->pair_keys[slot];
    if (found == key) return (int64_t)slot;
    if (found == 0) return -1;
    slot = (slot + 1) & mask;
  }
}

// How the AVX-512 kernel folds the four-byte scalar at x (x[0] >= 0xF0,
// the three continuation bytes checked by the caller), from the bitmaps of
// fssimd_fold_lanes: 0 to itself, 1 ignorable (its four lanes dropped, a
// note after it), 2 not at all (the kernel returns it to its caller).
static inline int fssimd_four_byte_kind(const uint8_t *lanes, const uint8_t *x) {
  if (x[0] != 0xF0 || x[1] < 0x90) return 2;
  if (x[1] == 0x9F) {
    const uint32_t index = (uint32_t)(x[2] & 0x3F) << 6 | (x[3] & 0x3F);
    if (lanes[8832 + (index >> 3)] >> (index & 7) & 1) return 0;
    return lanes[9344 + (index >> 3)] >> (index & 7) & 1 ? 1 : 2;
  }
  const uint32_t row = (uint32_t)(x[1] & 0x3F) << 6 | (x[2] & 0x3F);
  return lanes[8320 + (row >> 3)] >> (row & 7) & 1 ? 0 : 2;
}

// Whether the AVX-512 blocks fold the three-byte scalars of the row of lead
// b0 and first continuation b1 (fssimd_fold_lanes: the row folds to itself,
// or has a table).
static inline int fssimd_blocks_fold_row(const uint8_t *lanes, uint8_t b0, uint8_t b1) {
  const uint32_t row = (uint32_t)(b0 & 0x0F) << 6 | (b1 & 0x3F);
  uint16_t number;
  memcpy(&number, lanes + 6272 + 2 * row, 2);
  return number != 0 || (lanes[6144 + (row >> 3)] >> (row & 7) & 1);
}

// Folds the scalars at i that the vector path stopped at (non-ASCII bytes
// and, with stop_at_controls, controls) until an ASCII byte the vector path
// folds (returns 1) or a byte the caller must fold, or fewer than two note
// slots (returns 0). With `vector_returns` (the AVX-512 path), after the
// first scalar, a two-byte lead or a three-byte scalar of a row that path
// folds (fssimd_blocks_fold_row) also returns 1. With `inline_hangul` (the
// AVX-512 loop, both ways), a run of Hangul syllables is folded by the
// inlined copy of the run (fssimd_hangul_run_inline), else by a call. A
// four-byte scalar that fssimd_four_byte_kind folds is folded here too; at
// any other the kernel returns. Always inlined into the vector loops, so that the positions stay in
// registers. Caller obligations: those of fssimd_fold_run for the
// positions given.
//
// The state comes by value (`c`, a copy the caller made once), so that the
// compiler need not reload its fields after each byte store (a byte store
// may alias anything in memory, but not a local whose address never
// escapes); its positions are the caller's (*pi, *po, *pk).
__attribute__((always_inline)) static inline int fssimd_fold_scalars(
    const fssimd_fold_state c, int64_t *pi, int64_t *po, int64_t *pk, int vector_returns,
    const int ascii_starters, const int inline_hangul) {
  const fssimd_fold_state *s = &c;
  const uint8_t *src = c.src;
  uint8_t *dst = c.dst;
  const int64_t n = c.count;
  const int64_t last_note = c.note_capacity - 2;
  fssimd_fold_note *notes = c.notes;
  int64_t i = *pi, o = *po, k = *pk;
  const int64_t start = i;
  int result = 0;
  // Four bytes left at the loop's top cover the reads of a two- or
  // three-byte scalar; the note room is checked before a scalar that may
  // add notes (at most two), not before an identity.
  while (i + 4 <= n) {
    const uint8_t b0 = src[i];
    uint32_t value, entry;
    int64_t width;
    if (b0 < 0x80) {
      if (ascii_starters && (s->ascii_contraction_nibbles[b0 & 15] >> (b0 >> 4) & 1)) {
        // An ASCII contraction starter (the vector path stops at one that
        // may be continued): its contraction, or its own fold, below.
        if (k > last_note) break;
        value = b0;
        entry = s->stage2[(uint32_t)s->stage1[0] << 8 | b0];
        width = 1;
        goto general;
      }
      if (!s->stop_at_controls || (b0 >= 0x20 && b0 != 0x7F) || (uint8_t)(b0 - 0x09) < 5) {
        result = 1;
        break;
      }
      const uint8_t a = s->ascii_action[b0];
      if (k > last_note) break;
      if (a < 0x80) {
        dst[o++] = a;
        i++;
      } else if (a == FSSIMD_ASCII_IGNORABLE) {
        i++;
        FSSIMD_NOTE(o, i);
      } else {
        break;
      }
      continue;
    }
    // The AVX-512 path folds these itself: after the scalar it stopped at,
    // it takes over again.
    if (vector_returns && i != start && b0 >= 0xC2 && b0 < 0xF0 &&
        (b0 < 0xE0 || fssimd_blocks_fold_row(s->lanes, b0, src[i + 1]))) {
      result = 1;
      break;
    }
    const uint8_t b1 = src[i + 1];
    if ((b1 & 0xC0) != 0x80) break;
    if (b0 < 0xE0) {
      if (b0 < 0xC2) break;
      const uint64_t packed = s->two_byte[(b0 & 0x1F) << 6 | (b1 & 0x3F)];
      if ((packed & FSSIMD_TWO_BYTE_PLAIN_MASK) == (uint64_t)2 << 32) {
        // Two bytes to two bytes, no note: identity (whose entry holds its
        // own bytes) and case pairs alike, so that Greek or Cyrillic text
        // takes this branch for lower- and uppercase letters both.
        const uint32_t bytes = (uint32_t)packed;
        memcpy(dst + o, &bytes, 4);
        i += 2;
        o += 2;
        continue;
      }
      if (k > last_note) break;
      if ((packed & FSSIMD_TWO_BYTE_PLAIN_MASK) == (uint64_t)1 << 32) {
        // Two bytes to one, not atomic (an accented Latin letter: é → e):
        // its byte, then the note after it.
        dst[o++] = (uint8_t)packed;
        i += 2;
        FSSIMD_NOTE(o, i);
        continue;
      }
      if (packed & FSSIMD_TWO_BYTE_SLOW) {
        // A contraction starter that a scalar continuing none follows folds
        // alone, as packed (FSSIMD_TWO_BYTE_STARTER); otherwise, or for a
        // fold longer than four bytes, the two-stage table's entry.
        int64_t next_width;
        if (!(packed & FSSIMD_TWO_BYTE_STARTER) || i + 5 > n ||
            fssimd_continuation_at(src, s->continuations, i + 2, &next_width) != 0) {
          value = (uint32_t)(b0 & 0x1F) << 6 | (b1 & 0x3F);
          entry = s->stage2[(uint32_t)s->stage1[value >> 8] << 8 | (value & 0xFF)];
          width = 2;
          goto general;
        }
      }
      if (packed & FSSIMD_TWO_BYTE_IGNORABLE) {
        i += 2;
        FSSIMD_NOTE(o, i);
      } else {
        const int64_t length = (int64_t)((packed >> 32) & 7);
        const int atomic = (packed & FSSIMD_TWO_BYTE_ATOMIC) != 0;
        if (atomic) FSSIMD_NOTE(o | FSSIMD_FOLD_NOTE_ATOMIC, i);
        const uint32_t bytes = (uint32_t)packed;
        memcpy(dst + o, &bytes, 4);
        o += length;
        i += 2;
        if (atomic || length != 2) FSSIMD_NOTE(o, i);
      }
      continue;
    }
    // Three bytes, well-formed (Table 3-7 of the Unicode Standard: not
    // overlong, below U+0800, nor a surrogate).
    if (b0 >= 0xF0) {
      // An emoji: to itself, or ignorable.
      if ((src[i + 2] & 0xC0) != 0x80 || (src[i + 3] & 0xC0) != 0x80) break;
      const int kind = fssimd_four_byte_kind(s->lanes, src + i);
      if (kind == 2 || (kind == 1 && k > last_note)) break;
      if (kind == 0) memcpy(dst + o, src + i, 4);
      o += kind == 0 ? 4 : 0;
      i += 4;
      if (kind == 1) FSSIMD_NOTE(o, i);
      continue;
    }
    {
      const uint8_t b2 = src[i + 2];
      value = (uint32_t)(b0 & 0x0F) << 12 | (uint32_t)(b1 & 0x3F) << 6 | (b2 & 0x3F);
      if ((b2 & 0xC0) != 0x80 || value < 0x800 || value - 0xD800 < 0x800) break;
      if (value - FSSIMD_HANGUL_FIRST < FSSIMD_HANGUL_COUNT && s->hangul_is_arithmetic) {
        // A run of Hangul syllables (fssimd_hangul_run_inline).
        if (k > last_note) break;
        const fssimd_positions end =
            inline_hangul
                ? fssimd_hangul_run_inline(src, n, dst, notes, last_note, value, i, o, k)
                : fssimd_hangul_run(src, n, dst, notes, last_note, value, i, o, k);
        i = end.i;
        o = end.o;
        k = end.k;
        continue;
      }
      entry = s->stage2[(uint32_t)s->stage1[value >> 8] << 8 | (value & 0xFF)];
      if (entry == 0) {
        dst[o] = b0;
        dst[o + 1] = b1;
        dst[o + 2] = b2;
        i += 3;
        o += 3;
        continue;
      }
      if (k > last_note) break;
      width = 3;
    }
  general:
    // The entry of the scalar of `width` bytes at i, neither identity nor
    // the packed two-byte case; two note slots are free.
    if (entry == 0xFFFFFFFFu) {
      i += width;
      FSSIMD_NOTE(o, i);
      continue;
    }
    if (entry & 0x80000000u) {
      // A scalar whose fold depends on the scalars before it (a prefix
      // rule; its entry is the starter bit and an index, no bytes): the
      // caller's.
      if ((entry & 0x800000FFu) == 0x80000000u) break;
      // A contraction starter folds alone when the scalar after it can
      // continue no contraction (exact for the BMP, from the bitmap of
      // continuations); otherwise the caller tries its contractions.
      const int64_t j = i + width;
      if (j + 3 > n) break;
      int64_t second_width;
      const uint32_t second = fssimd_continuation_at(src, s->continuations, j, &second_width);
      if (second != 0) {
        // A contraction of two scalars from the pair table; otherwise the
        // starter folds alone, unless a longer one may start here.
        if (second == UINT32_MAX || s->pair_keys == NULL) break;
        const int64_t slot = fssimd_pair_slot(s, value, second);
        if (slot >= 0) {
          const uint32_t fold = s->pair_folds[slot];
          if (fold & 0x80000000u) break;
          const int64_t length = (int64_t)((fold >> 1) & 0x7F);
          const int atomic = (fold & 1) != 0;
          const uint8_t *bytes = s->pair_bytes + ((fold >> 8) & 0x7FFFFF);
          const int64_t end = j + second_width;
          if (atomic) FSSIMD_NOTE(o | FSSIMD_FOLD_NOTE_ATOMIC, i);
          fssimd_copy_fold(dst + o, bytes, length);
          o += length;
          if (atomic || length != end - i) FSSIMD_NOTE(o, end);
          i = end;
          continue;
        }
      }
      entry &= 0x7FFFFFFFu;
      if (entry == 1) {
        // An ignorable starter (its entry is the starter bit and the atomic
        // flag alone) that folds alone.
        i += width;
        FSSIMD_NOTE(o, i);
        continue;
      }
    }
    {
      const int64_t length = (int64_t)((entry >> 1) & 0x7F);
      const int atomic = (entry & 1) != 0;
      const uint8_t *bytes = s->pool + ((entry >> 8) & 0x7FFFFF);
      if (atomic) FSSIMD_NOTE(o | FSSIMD_FOLD_NOTE_ATOMIC, i);
      fssimd_copy_fold(dst + o, bytes, length);
      o += length;
      i += width;
      if (atomic || length != width) FSSIMD_NOTE(o, i);
    }
  }
  *pi = i;
  *po = o;
  *pk = k;
  return result;
}

#undef FSSIMD_NOTE

// MARK: - Vector layer

// The most stops (non-ASCII bytes, and controls or contraction starters
// where they stop) in a 64-byte block that the AVX-512 kernel folds as a
// sparse block (below); the AVX2 loop of its sparse stretches returns at a
// 32-byte vector with more.
#define FSSIMD_SPARSE 8

#if defined(__x86_64__)
#include <immintrin.h>
#define FSSIMD_HAS_X86 1

// SSE2: part of x86-64, no attribute needed.
#define FSK_NAME(x) fssimd_##x##_sse2
#define FSK_TARGET
#define FSK_V 16
#define FSK_VEC __m128i
#define FSK_LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define FSK_SPLAT(b) _mm_set1_epi8((char)(b))
#define FSK_EQ(a, b) _mm_cmpeq_epi8((a), (b))
#define FSK_AND(a, b) _mm_and_si128((a), (b))
#define FSK_MASK(v) _mm_movemask_epi8(v)
#define FSK_GT(a, b) _mm_cmpgt_epi8((a), (b))
#define FSK_ADD(a, b) _mm_add_epi8((a), (b))
#define FSK_OR(a, b) _mm_or_si128((a), (b))
#define FSK_STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#include "Kernels.h"
#undef FSK_NAME
#undef FSK_TARGET
#undef FSK_V
#undef FSK_VEC
#undef FSK_LOADU
#undef FSK_SPLAT
#undef FSK_EQ
#undef FSK_AND
#undef FSK_MASK
#undef FSK_GT
#undef FSK_ADD
#undef FSK_OR
#undef FSK_STOREU

// AVX2: compiled for AVX2 only inside these functions; called only when the
// CPU reports AVX2 support.
#define FSK_NAME(x) fssimd_##x##_avx2
#define FSK_TARGET __attribute__((target("avx2")))
#define FSK_V 32
#define FSK_VEC __m256i
#define FSK_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define FSK_SPLAT(b) _mm256_set1_epi8((char)(b))
#define FSK_EQ(a, b) _mm256_cmpeq_epi8((a), (b))
#define FSK_AND(a, b) _mm256_and_si256((a), (b))
#define FSK_MASK(v) _mm256_movemask_epi8(v)
#define FSK_GT(a, b) _mm256_cmpgt_epi8((a), (b))
#define FSK_ADD(a, b) _mm256_add_epi8((a), (b))
#define FSK_OR(a, b) _mm256_or_si256((a), (b))
#define FSK_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#include "Kernels.h"
#undef FSK_NAME
#undef FSK_TARGET
#undef FSK_V
#undef FSK_VEC
#undef FSK_LOADU
#undef FSK_SPLAT
#undef FSK_EQ
#undef FSK_AND
#undef FSK_MASK
#undef FSK_GT
#undef FSK_ADD
#undef FSK_OR
#undef FSK_STOREU
#endif

// MARK: - Fold fast path, AVX-512

// The kind of a scalar of `width` bytes whose fold is `length` bytes
// (not atomic): no bits when the lengths agree, else a note and a drop bit
// for each lane past the fold (FSSIMD_LANE_DROP for the last lane, shifted
// left once per lane before it).
static uint8_t fssimd_lane_kind(int width, int length) {
  if (length > width) return FSSIMD_LANE_SLOW;
  uint8_t kind = length == width ? 0 : FSSIMD_LANE_NOTE;
  for (int lane = length; lane < width; lane++) {
    kind |= (uint8_t)(FSSIMD_LANE_DROP << (width - 1 - lane));
  }
  return kind;
}

// The two-stage table's entry for the scalar c.
static inline uint32_t fssimd_entry(const uint16_t *stage1, const uint32_t *stage2, uint32_t c) {
  return stage2[(uint32_t)stage1[c >> 8] << 8 | (c & 0xFF)];
}

// Whether the three-byte scalar with entry e is folded by a row table
// (identity, ignorable, or a fold of at most three bytes that is not
// atomic; for a contraction starter, its own fold, when it folds alone).
static inline int fssimd_row_folds(uint32_t e) {
  if (e == 0 || e == 0xFFFFFFFFu) return 1;
  // (Not a scalar whose fold depends on the scalars before it: its entry
  // is the starter bit and an index, no bytes.)
  return (e & 1) == 0 && ((e >> 1) & 0x7F) <= 3 && (e & 0x800000FFu) != 0x80000000u;
}

// The lane kind bit of a contraction starter's entry e (FSSIMD_LANE_STARTER,
// or none).
static inline uint8_t fssimd_starter_bit(uint32_t e) {
  return e != 0xFFFFFFFFu && (e & 0x80000000u) ? FSSIMD_LANE_STARTER : 0;
}

// Whether row r (the scalars r << 6 ... r << 6 | 63) can be three-byte
// scalars at all: not below U+0800 (overlong) nor surrogates.
static inline int fssimd_row_is_three_byte(int r) {
  return r >= 0x800 >> 6 && !(r >= 0xD800 >> 6 && r < 0xE000 >> 6);
}

// Whether row r folds to itself throughout.
static int fssimd_row_identity(const uint16_t *stage1, const uint32_t *stage2, int r) {
  if (!fssimd_row_is_three_byte(r)) return 0;
  for (uint32_t low = 0; low < 64; low++) {
    if (fssimd_entry(stage1, stage2, (uint32_t)r << 6 | low) != 0) return 0;
  }
  return 1;
}

// Whether row r gets a table: not identity, and some scalar a table folds.
static int fssimd_row_has_table(const uint16_t *stage1, const uint32_t *stage2, int r) {
  if (!fssimd_row_is_three_byte(r) || fssimd_row_identity(stage1, stage2, r)) return 0;
  for (uint32_t low = 0; low < 64; low++) {
    if (fssimd_row_folds(fssimd_entry(stage1, stage2, (uint32_t)r << 6 | low))) return 1;
  }
  return 0;
}

int64_t fssimd_fold_lanes_size(const uint16_t *stage1, const uint32_t *stage2) {
  int64_t tables = 0;
  for (int r = 0; r < 1024; r++) tables += fssimd_row_has_table(stage1, stage2, r);
  return FSSIMD_FOLD_LANES_FIXED + 256 * tables;
}

void fssimd_fold_lanes(const uint64_t *two_byte, const uint16_t *stage1, const uint32_t *stage2,
                       const uint8_t *pool, const uint64_t *continuations, uint8_t *lanes) {
  for (int index = 0; index < 2048; index++) {
    const uint64_t packed = two_byte[index];
    // The scalar's own bytes, for identity (lead 0xC0 | index >> 6).
    uint8_t first = (uint8_t)(0xC0 | index >> 6), second = (uint8_t)(0x80 | (index & 0x3F));
    uint8_t kind;
    if (packed & FSSIMD_TWO_BYTE_IDENTITY) {
      kind = 0;
    } else if (packed & FSSIMD_TWO_BYTE_IGNORABLE) {
      kind = fssimd_lane_kind(2, 0);
    } else if (packed & (FSSIMD_TWO_BYTE_SLOW | FSSIMD_TWO_BYTE_ATOMIC)) {
      // A contraction starter whose own fold the lanes hold (one or two
      // bytes, not atomic) folds in the vector when it folds alone.
      const uint32_t e = fssimd_entry(stage1, stage2, (uint32_t)index);
      const int length = (int)((e >> 1) & 0x7F);
      if (fssimd_starter_bit(e) && (e & 1) == 0 && length >= 1 && length <= 2) {
        const uint8_t *bytes = pool + ((e >> 8) & 0x7FFFFF);
        first = bytes[0];
        second = length == 2 ? bytes[1] : second;
        kind = fssimd_lane_kind(2, length) | FSSIMD_LANE_STARTER;
      } else {
        kind = FSSIMD_LANE_SLOW;
      }
    } else {
      first = (uint8_t)packed;
      second = (uint8_t)(packed >> 8);
      kind = fssimd_lane_kind(2, (int)((packed >> 32) & 7));
    }
    // (index is the scalar's value: U+0080 ... U+07FF, and below for the
    // overlong leads C0 and C1, which never reach the lanes.)
    if (continuations[index >> 6] >> (index & 63) & 1) kind |= FSSIMD_LANE_CONTINUES;
    lanes[index] = first;
    lanes[2048 + index] = second;
    lanes[4096 + index] = kind;
  }
  // Three-byte rows: the identity bitmap, the table numbers, the tables.
  uint8_t *bitmap = lanes + 6144;
  uint8_t *numbers = lanes + 6272;
  uint8_t *tables = lanes + FSSIMD_FOLD_LANES_FIXED;
  uint16_t count = 0;
  for (int r = 0; r < 1024; r++) {
    if (fssimd_row_identity(stage1, stage2, r)) {
      bitmap[r >> 3] |= (uint8_t)(1u << (r & 7));
    } else {
      bitmap[r >> 3] &= (uint8_t)~(1u << (r & 7));
    }
    uint16_t number = 0;
    if (fssimd_row_has_table(stage1, stage2, r)) {
      number = ++count;
      uint8_t *table = tables + 256 * (number - 1);
      for (uint32_t low = 0; low < 64; low++) {
        const uint32_t c = (uint32_t)r << 6 | low;
        const uint32_t e = fssimd_entry(stage1, stage2, c);
        // The scalar's own UTF-8, for identity and for slow lanes.
        uint8_t bytes[3] = {(uint8_t)(0xE0 | c >> 12), (uint8_t)(0x80 | ((c >> 6) & 0x3F)),
                            (uint8_t)(0x80 | (c & 0x3F))};
        uint8_t kind;
        if (e == 0) {
          kind = 0;
        } else if (e == 0xFFFFFFFFu) {
          kind = fssimd_lane_kind(3, 0);
        } else if (!fssimd_row_folds(e)) {
          kind = FSSIMD_LANE_SLOW;
        } else {
          const int length = (int)((e >> 1) & 0x7F);
          for (int j = 0; j < length; j++) bytes[j] = pool[((e >> 8) & 0x7FFFFF) + (uint32_t)j];
          kind = fssimd_lane_kind(3, length) | fssimd_starter_bit(e);
        }
        table[low] = bytes[0];
        table[64 + low] = bytes[1];
        table[128 + low] = bytes[2];
        table[192 + low] = kind;
      }
    }
    memcpy(numbers + 2 * r, &number, 2);
  }
  // Four-byte scalars with lead F0: identity rows; the emoji block's
  // identity and ignorable scalars.
  uint8_t *rows4 = lanes + 8320, *identity4 = lanes + 8832, *ignorable4 = lanes + 9344;
  memset(rows4, 0, 1536);
  for (uint32_t r = 0x10 << 6; r < 4096; r++) {
    const uint32_t first = r << 6;  // (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6
    int identity = 1;
    for (uint32_t low = 0; low < 64 && identity; low++) {
      identity = fssimd_entry(stage1, stage2, first | low) == 0;
    }
    if (identity) rows4[r >> 3] |= (uint8_t)(1u << (r & 7));
  }
  for (uint32_t index = 0; index < 4096; index++) {
    const uint32_t e = fssimd_entry(stage1, stage2, 0x1F000 | index);
    if (e == 0) identity4[index >> 3] |= (uint8_t)(1u << (index & 7));
    if (e == 0xFFFFFFFFu) ignorable4[index >> 3] |= (uint8_t)(1u << (index & 7));
  }
}

#if defined(FSSIMD_HAS_X86)
// Compiled for these AVX-512 subsets only inside the functions marked with
// it; each has the caller obligation that the CPU supports them (the
// dispatcher calls them only at FSSIMD_LEVEL_AVX512, after fssimd_clamp).
#define FSSIMD_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt,avx2")))

// vpermi2b on a 128-byte table at t (two vectors), indexed by the low
// seven bits of each byte of idx.
#define FSSIMD_LOOKUP128(t, idx)                                               \
  _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)(t)), (idx),     \
                           _mm512_loadu_si512((const void *)((t) + 64)))

// The fold's fast path with 64-byte vectors (fssimd_fold_run at
// FSSIMD_LEVEL_AVX512).
//
// Idea: a block of 64 input bytes made of ASCII, two-byte scalars and
// three-byte scalars that fold to themselves folds without a branch per
// scalar. ASCII lanes are lowercased as in the narrower kernels. Two-byte
// scalars are looked up 64 at a time: the lane arrays (fssimd_fold_lanes)
// hold the 64 folds of each lead byte as one vector, so the two leads of a
// pair (C2/C3, C4/C5, CE/CF, D0/D1, ...) are one 128-byte table that a
// two-table byte permute (vpermi2b) indexes with the lead's low bit and the
// continuation's low six bits. A block holds one or two such pairs (C2/C3
// for Western European text, C4/C5 as well for Central European, CE/CF for
// Greek); each pair's lookup writes the first folded byte to the lead's
// lane and the second to the continuation's, and reads the lane kind.
// Lanes the fold drops (the continuation of a fold to one byte, both bytes
// of an ignorable) leave the keep mask; a compress packs the kept lanes and
// one store writes them. A map note follows each scalar whose fold is not
// two bytes long: its original end is the block's start plus the lane
// after it, its folded end the count of kept lanes up to there (popcount).
// Three-byte scalars are kept as they are when their row of 64 scalars
// (lead and first continuation byte) folds to itself throughout: CJK,
// most of Thai and Devanagari, punctuation rows without ignorables; a bit
// per row, looked up with vpermi2b on the row bitmap and a vpshufb for the
// bit.
//
// Four-byte scalars (emoji, in chat lines of every script) are few in a
// block: each is looked up on its own (fssimd_four_byte_kind: emoji that
// fold to themselves, or ignorable skin tone modifiers, four lanes dropped
// and a note after them), so that an emoji does not end the kernel's run
// and send it through the Swift loop.
//
// The block stops (`valid` ends) before the first byte this cannot fold:
// any other non-ASCII byte (ill-formed input, C0 and C1), a continuation
// byte no lead claims, a lead without all its continuations or running
// past the block, a control byte when the table stops at controls, a
// two-byte scalar of kind FSSIMD_LANE_SLOW, a three-byte scalar of a row
// that does not fold to itself and a four-byte scalar of another kind.
// Bytes before it are folded and stored; the scalar part then folds from
// there until ASCII or a scalar this path folds resumes (or returns to the
// caller). The stop
// never splits a scalar: every lane a lead claims is a continuation byte,
// which is never the first bad lane (a bad lead is earlier).
//
// The next block's position depends only on a branch, not on the lookups,
// when the whole block folds (the common case), so blocks overlap in the
// CPU.
//
// Invariants: at the loop's top i + 65 <= n, so the block and the vector
// of next bytes (loaded at i + 1) lie inside the input; a block adds at
// most 32 notes (one per two-byte scalar), and the loop runs only while
// FSSIMD_FOLD_BLOCK_NOTES slots are free; o <= i × E, so the 64-byte store
// at dst + o ends before count × E. The output equals the narrower
// kernels' byte for byte and note for note (FoldFastPathTests).
//
// Compare simdutf's UTF-8 transcoders (Lemire and Keiser, "Validating
// UTF-8 in less than one instruction per byte", Software: Practice and
// Experience 51(5), 2021), which also classify a block's bytes as leads
// and continuations in masks and compress lanes away.
//
// Which way a block goes (tuned with `foldbench --probe fold-kernel` on
// each sample language and on shuffles of their lines; HISTORY.md has the
// figures): the block's lookups cost more than the narrower kernels' way
// (a vector up to the first non-ASCII byte, then the scalar part) when a
// block holds only a few non-ASCII bytes (an accent every few words), and
// they are wasted when the block stops early (Hangul, whose syllables are
// atomic expansions). On this path even the narrow way, with 64-byte
// vectors, costs more per scalar than the AVX2 kernel's with 32-byte ones.
// So a block with at most FSSIMD_SPARSE stops starts a sparse stretch: the
// AVX2 kernel's loop (fssimd_fold_run_sparse_avx2) folds from there until
// a 32-byte vector with more than FSSIMD_SPARSE stops (text dense with
// non-ASCII letters: Greek, Cyrillic, Hebrew), which the blocks fold, or
// until it stops where the narrow way would (then taken here, which stops
// or hands back as the scalar part says); its output is the AVX2 kernel's,
// which every level shares.
// A folded block that stopped before FSSIMD_EAGER bytes at a stop that
// repeats (fssimd_stop_repeats: Hangul) sends the next FSSIMD_CALM blocks
// the narrow way too, and its scalar part runs to the next ASCII byte;
// any other hands back to the blocks at the first scalar they fold.
#define FSSIMD_EAGER 32
#define FSSIMD_CALM 32

// The lanes of `v` whose byte lies in low ..< low + count (UTF-8 leads and
// continuations by kind).
FSSIMD_AVX512 static inline uint64_t fssimd_bytes_in(__m512i v, uint8_t low, uint8_t count) {
  return _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8((char)low)),
                                _mm512_set1_epi8((char)count));
}
// The lanes of `v` whose byte is in the nibble set `table` (16 bytes in
// each 128-bit lane: bit b >> 4 of entry b & 15 for byte b); bytes of 0x80
// and above are in none.
FSSIMD_AVX512 static inline uint64_t fssimd_nibble_set_avx512(__m512i v, __m512i table) {
  const __m512i low_nibbles = _mm512_and_si512(v, _mm512_set1_epi8(0x0F));
  const __m512i high_nibbles = _mm512_and_si512(_mm512_srli_epi16(v, 4), _mm512_set1_epi8(0x0F));
  const __m512i high_bits = _mm512_broadcast_i32x4(
      _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0));
  const __m512i hits = _mm512_and_si512(_mm512_shuffle_epi8(table, low_nibbles),
                                        _mm512_shuffle_epi8(high_bits, high_nibbles));
  return _mm512_test_epi8_mask(hits, hits);
}

// Whether the block stop at x (at least four bytes readable) is one that
// the next blocks would meet again and again: a scalar of a three-byte row
// the blocks never fold (Hangul syllables, whose rows have no table), a
// four-byte scalar, ill-formed bytes, or an ASCII byte (a control, an
// ASCII contraction starter). A two-byte scalar, or a scalar of a row the
// blocks fold (identity, or with a table), that stopped a block is an
// exception of its row (an atomic expansion such as U+2026 "…" in the
// collation profile, a contraction starter): the blocks go on after it (32
// narrow blocks after each "…" would cost Arabic and Hebrew lines a tenth of
// their collation fold).
static inline int fssimd_stop_repeats(const uint8_t *lanes, const uint8_t *x) {
  const uint8_t b0 = x[0];
  if (b0 >= 0xC2 && b0 < 0xE0) return 0;
  if (b0 < 0xE0 || b0 >= 0xF0) return 1;
  return !fssimd_blocks_fold_row(lanes, b0, x[1]);
}

// `contractions`: the table has ASCII contraction starters (a constant in
// each instantiation, so that the other tables' loop tests nothing more).
FSSIMD_AVX512 __attribute__((always_inline)) static inline void fssimd_fold_run_avx512_with(
    fssimd_fold_state *s, const int contractions) {
  const fssimd_fold_state c = *s;
  const uint8_t *src = c.src;
  uint8_t *dst = c.dst;
  const int64_t n = c.count;
  const uint8_t *lanes = c.lanes;
  const int controls = c.stop_at_controls;
  const int64_t last_block_note = c.note_capacity - FSSIMD_FOLD_BLOCK_NOTES;
  fssimd_fold_note *notes = c.notes;
  int64_t i = s->i, o = s->o, k = s->note_count;
  const __m512i letter_a = _mm512_set1_epi8('A');
  const __m512i letters = _mm512_set1_epi8(26);
  const __m512i case_bit = _mm512_set1_epi8(0x20);
  const __m512i del = _mm512_set1_epi8(0x7F);
  const __m512i tab = _mm512_set1_epi8(0x09);
  const __m512i spaces = _mm512_set1_epi8(5);
  const __m512i one = _mm512_set1_epi8(1);
  const __m512i pair_bit = _mm512_set1_epi8(0x40);
  const __m512i note_bit = _mm512_set1_epi8(FSSIMD_LANE_NOTE);
  const __m512i drop_bit = _mm512_set1_epi8(FSSIMD_LANE_DROP);
  const __m512i drop_1_bit = _mm512_set1_epi8(FSSIMD_LANE_DROP << 1);
  const __m512i drop_2_bit = _mm512_set1_epi8(FSSIMD_LANE_DROP << 2);
  const __m512i slow_bit = _mm512_set1_epi8(FSSIMD_LANE_SLOW);
  const __m512i starter_bit = _mm512_set1_epi8(FSSIMD_LANE_STARTER);
  const __m512i continues_bit = _mm512_set1_epi8(FSSIMD_LANE_CONTINUES);
  // Lane k holds k.
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
      17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  // Whether an ASCII scalar may continue a contraction (a tailoring's "ch"):
  // then a starter before one is checked too.
  const int ascii_continues = (c.continuations[0] | c.continuations[1]) != 0;
  const __m512i low_nibble = _mm512_set1_epi8(0x0F);
  const __m512i row_high = _mm512_set1_epi8(0x38);
  const __m512i bit_index = _mm512_set1_epi8(7);
  const __m512i bits = _mm512_set1_epi64((int64_t)0x8040201008040201);
  const __m512i rows_lo = _mm512_loadu_si512((const void *)(lanes + 6144));
  const __m512i rows_hi = _mm512_loadu_si512((const void *)(lanes + 6144 + 64));
  // Lane k takes lane k - 1 (lane 0 takes lane 0: no lead before it).
  const __m512i previous_lane = _mm512_set_epi8(
      62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40,
      39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
      16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0);
  // ASCII contraction starters (fssimd_fold_state.ascii_contraction_nibbles).
  const uint8_t *nibbles = c.ascii_contraction_nibbles;
  const __m512i starter_nibbles =
      contractions
          ? _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)nibbles))
          : _mm512_setzero_si512();
  const __m512i continuation_nibbles =
      contractions
          ? _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)(nibbles + 16)))
          : _mm512_setzero_si512();
  int done = 0;
  int calm = 0;
  while (i + 66 <= n) {
    if (k > last_block_note) {
      done = 1;
      break;
    }
    const __m512i v = _mm512_loadu_si512((const void *)(src + i));
    const __mmask64 upper = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, letter_a), letters);
    __m512i w = _mm512_mask_add_epi8(v, upper, v, case_bit);
    uint64_t stop = _mm512_movepi8_mask(v);
    if (controls) {
      // TAB…CR fold to themselves (fssimd_fold_state): they do not stop.
      stop |= (_mm512_cmplt_epu8_mask(v, case_bit) &
               ~_mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, tab), spaces)) |
              _mm512_cmpeq_epi8_mask(v, del);
    }
    if (contractions) {
      // A starter that a continuation or a non-ASCII byte follows (the
      // byte after lane 63 is inside the input: i + 66 <= n).
      const uint64_t starters = fssimd_nibble_set_avx512(v, starter_nibbles);
      if (starters != 0) {
        const __m512i after = _mm512_loadu_si512((const void *)(src + i + 1));
        stop |= starters & (fssimd_nibble_set_avx512(after, continuation_nibbles) |
                            _mm512_movepi8_mask(after));
      }
    }
    if (stop == 0) {
      _mm512_storeu_si512((void *)(dst + o), w);
      i += 64;
      o += 64;
      continue;
    }
    // pair_starts: lanes where a contraction folded in the vector starts
    // an atomic expansion (a note before the lane).
    uint64_t valid, noted = 0, dropped = 0, pair_starts = 0;
    if (calm == 0 && _mm_popcnt_u64(stop) <= FSSIMD_SPARSE) {
      // A sparse block: the AVX2 loop from here, until a dense vector (or
      // what the narrow way below would stop at).
      fssimd_fold_state narrow = c;
      narrow.i = i;
      narrow.o = o;
      narrow.note_count = k;
      fssimd_fold_run_sparse_avx2(&narrow);
      if (narrow.i != i) {
        i = narrow.i;
        o = narrow.o;
        k = narrow.note_count;
        continue;
      }
    }
    if (calm > 0 || _mm_popcnt_u64(stop) <= FSSIMD_SPARSE) {
      calm -= calm > 0;
      // Few bytes to fold: the narrower kernels' way, the ASCII prefix
      // stored with the vector and the scalar part from the first stop.
      _mm512_storeu_si512((void *)(dst + o), w);
      const int64_t prefix = (int64_t)_tzcnt_u64(stop);
      i += prefix;
      o += prefix;
      if (!fssimd_fold_scalars(c, &i, &o, &k, 0, contractions, 1)) {
        done = 1;
        break;
      }
      continue;
    }
    const uint64_t lead2 = fssimd_bytes_in(v, 0xC2, 0xE0 - 0xC2);
    const uint64_t lead3 = fssimd_bytes_in(v, 0xE0, 0x10);
    const uint64_t lead4 = fssimd_bytes_in(v, 0xF0, 5);
    const uint64_t cont = fssimd_bytes_in(v, 0x80, 0x40);
    const uint64_t claimed =
        lead2 << 1 | lead3 << 1 | lead3 << 2 | lead4 << 1 | lead4 << 2 | lead4 << 3;
    const uint64_t mismatch = cont ^ claimed;
    const uint64_t bad = (stop & ~(lead2 | lead3 | lead4 | cont)) | (cont & ~claimed) |
                         (lead2 & (mismatch >> 1 | (uint64_t)1 << 63)) |
                         (lead3 & (mismatch >> 1 | mismatch >> 2 | (uint64_t)3 << 62)) |
                         (lead4 & (mismatch >> 1 | mismatch >> 2 | mismatch >> 3 |
                                   (uint64_t)7 << 61));
    // The lanes below the first bad one (all when none is).
    valid = (bad - 1) & ~bad;
    const uint64_t two = lead2 & valid, three = lead3 & valid, four = lead4 & valid;
    const __m512i next = _mm512_loadu_si512((const void *)(src + i + 1));
    // Over the lanes below `valid`'s end: the scalars' last lanes with a
    // note after them, the lanes to drop, the leads to stop at.
    uint64_t slow = 0, starters = 0, continues = 0;
    if (two != 0) {
      // vpermi2b indexes by the low seven bits: the continuation's low six
      // (its bit 6 is clear) and, as bit 6, the lead's low bit.
      const __m512i prev = _mm512_permutexvar_epi8(previous_lane, v);
      const __m512i lead_index =
          _mm512_or_si512(next, _mm512_and_si512(_mm512_slli_epi16(v, 6), pair_bit));
      const __m512i cont_index =
          _mm512_or_si512(v, _mm512_and_si512(_mm512_slli_epi16(prev, 6), pair_bit));
      const __m512i paired = _mm512_or_si512(v, one);
      uint64_t rest = two;
      do {
        const uint8_t l = src[i + (int64_t)_tzcnt_u64(rest)];
        const uint64_t mine =
            _mm512_cmpeq_epi8_mask(paired, _mm512_set1_epi8((char)(l | 1))) & two;
        const uint64_t theirs = mine << 1;
        const uint8_t *table = lanes + ((l & 0x1E) << 6);
        w = _mm512_mask_mov_epi8(w, mine, FSSIMD_LOOKUP128(table, lead_index));
        w = _mm512_mask_mov_epi8(w, theirs, FSSIMD_LOOKUP128(table + 2048, cont_index));
        const __m512i kind = FSSIMD_LOOKUP128(table + 4096, cont_index);
        noted |= _mm512_mask_test_epi8_mask(theirs, kind, note_bit);
        dropped |= _mm512_mask_test_epi8_mask(theirs, kind, drop_bit) |
                   _mm512_mask_test_epi8_mask(theirs, kind, drop_1_bit) >> 1;
        slow |= _mm512_mask_test_epi8_mask(theirs, kind, slow_bit) >> 1;
        starters |= _mm512_mask_test_epi8_mask(theirs, kind, starter_bit) >> 1;
        continues |= _mm512_mask_test_epi8_mask(theirs, kind, continues_bit) >> 1;
        rest &= ~mine;
      } while (rest != 0);
    }
    if (three != 0) {
      // Row r = (b0 & 0x0F) << 6 | (b1 & 0x3F): byte r >> 3 of the bitmap,
      // bit r & 7 = b1 & 7. The 16-bit shifts move no bit across a byte.
      const __m512i byte_index =
          _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(v, low_nibble), 3),
                          _mm512_srli_epi16(_mm512_and_si512(next, row_high), 3));
      const __m512i row_bits = _mm512_permutex2var_epi8(rows_lo, byte_index, rows_hi);
      const __m512i bit = _mm512_shuffle_epi8(bits, _mm512_and_si512(next, bit_index));
      uint64_t rest = three & ~_mm512_test_epi8_mask(row_bits, bit);
      if (rest != 0) {
        // The scalars of rows with a table: one row per step, its 64
        // folds indexed by the third byte, which lies in lane p + 2 of v,
        // p + 1 of next and p of after_next.
        const __m512i after_next = _mm512_loadu_si512((const void *)(src + i + 2));
        do {
          const int64_t p = i + (int64_t)_tzcnt_u64(rest);
          const uint8_t b0 = src[p], b1 = src[p + 1];
          const uint64_t mine = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)b0)) &
                                _mm512_cmpeq_epi8_mask(next, _mm512_set1_epi8((char)b1)) & rest;
          const uint32_t r = (uint32_t)(b0 & 0x0F) << 6 | (b1 & 0x3F);
          uint16_t number;
          memcpy(&number, lanes + 6272 + 2 * r, 2);
          if (number == 0) {
            slow |= mine;
          } else {
            const uint8_t *table = lanes + FSSIMD_FOLD_LANES_FIXED + 256 * (int64_t)(number - 1);
            const uint64_t second = mine << 1, third = mine << 2;
            w = _mm512_mask_permutexvar_epi8(w, mine, after_next,
                                             _mm512_loadu_si512((const void *)table));
            w = _mm512_mask_permutexvar_epi8(w, second, next,
                                             _mm512_loadu_si512((const void *)(table + 64)));
            w = _mm512_mask_permutexvar_epi8(w, third, v,
                                             _mm512_loadu_si512((const void *)(table + 128)));
            const __m512i kind = _mm512_maskz_permutexvar_epi8(
                third, v, _mm512_loadu_si512((const void *)(table + 192)));
            noted |= _mm512_mask_test_epi8_mask(third, kind, note_bit);
            dropped |= _mm512_mask_test_epi8_mask(third, kind, drop_bit) |
                       _mm512_mask_test_epi8_mask(third, kind, drop_1_bit) >> 1 |
                       _mm512_mask_test_epi8_mask(third, kind, drop_2_bit) >> 2;
            slow |= _mm512_mask_test_epi8_mask(third, kind, slow_bit) >> 2;
            starters |= _mm512_mask_test_epi8_mask(third, kind, starter_bit) >> 2;
          }
          rest &= ~mine;
        } while (rest != 0);
      }
    }
    // Four-byte scalars (emoji), one by one: to themselves, or ignorable.
    for (uint64_t rest = four; rest != 0; rest &= rest - 1) {
      const unsigned p = (unsigned)_tzcnt_u64(rest);
      const int kind = fssimd_four_byte_kind(lanes, src + i + p);
      if (kind == 1) {
        dropped |= (uint64_t)0xF << p;
        noted |= (uint64_t)8 << p;
      } else if (kind == 2) {
        slow |= (uint64_t)1 << p;
      }
    }
    // A contraction starter folds alone (as the lanes did) unless the
    // scalar after it may continue a contraction. The lanes decide for a
    // scalar after it in the block that is two-byte (its kind's continues
    // bit) or ASCII (none continues, unless the table says some may); the
    // rest (three- and four-byte, past the block or past `valid`) are
    // checked one by one. A contraction of the starter and that scalar
    // whose fold is as long as the two (a Thai or Lao prevowel and its
    // consonant: "เก" folds to "กเ") is written into their lanes, with an
    // atomic note before it and one after it as the scalar part would
    // write; otherwise the scalar part takes over before the starter.
    const uint64_t before_slow = slow != 0 ? (slow - 1) & ~slow : ~(uint64_t)0;
    const uint64_t checked = starters & valid & before_slow;
    uint64_t unsure = ~valid | three | four | continues;
    if (ascii_continues) unsure |= ~(lead2 | lead3 | cont);
    const uint64_t starters2 = checked & ~three, starters3 = checked & three;
    uint64_t m = (starters2 & (unsure >> 2 | (uint64_t)3 << 62)) |
                 (starters3 & (unsure >> 3 | (uint64_t)7 << 61));
    while (m != 0) {
      const unsigned p = (unsigned)_tzcnt_u64(m);
      const uint64_t lane = (uint64_t)1 << p;
      const int64_t width = (three & lane) ? 3 : 2;
      const int64_t j = i + p + width;
      int64_t second_width = 0;
      const uint32_t second =
          j + 3 > n ? UINT32_MAX : fssimd_continuation_at(src, c.continuations, j, &second_width);
      if (second == 0) {
        m &= m - 1;  // folds alone, as the lanes did
        continue;
      }
      if (second == UINT32_MAX || c.pair_keys == NULL) {
        slow |= lane;  // the scalar part decides
        break;
      }
      const uint8_t *x = src + i + p;
      const uint32_t first =
          width == 2 ? (uint32_t)(x[0] & 0x1F) << 6 | (x[1] & 0x3F)
                     : (uint32_t)(x[0] & 0x0F) << 12 | (uint32_t)(x[1] & 0x3F) << 6 | (x[2] & 0x3F);
      const int64_t slot = fssimd_pair_slot(&c, first, second);
      if (slot < 0) {
        m &= m - 1;  // no contraction begins with the two: it folds alone
        continue;
      }
      const uint32_t fold = c.pair_folds[slot];
      const uint64_t span = p + width + second_width <= 64
                                ? _bzhi_u64(~(uint64_t)0, (unsigned)(p + width + second_width)) &
                                      ~(lane - 1)
                                : 0;
      // (At least four lanes: its two notes then stay within a note per
      // two lanes, as FSSIMD_FOLD_BLOCK_NOTES counts.)
      if ((fold & 0x80000000u) || (int64_t)((fold >> 1) & 0x7F) != width + second_width ||
          width + second_width < 4 || span == 0 || (span & ~(valid & before_slow)) != 0 ||
          (span & (noted | dropped)) != 0) {
        slow |= lane;  // the scalar part folds it
        break;
      }
      // The pair's folded bytes (as many as its two scalars') into its
      // lanes, from a word: lane p + t takes byte t (eight bytes are
      // readable there; the span's mask keeps the fold's own).
      uint64_t word;
      memcpy(&word, c.pair_bytes + ((fold >> 8) & 0x7FFFFF), 8);
      w = _mm512_mask_permutexvar_epi8(w, span, _mm512_sub_epi8(iota, _mm512_set1_epi8((char)p)),
                                       _mm512_set1_epi64((int64_t)word));
      if (fold & 1) {
        pair_starts |= lane;
        noted |= (uint64_t)1 << (p + width + second_width - 1);
      }
      m &= ~span;
    }
    if (slow != 0) {
      valid &= (slow - 1) & ~slow;
      noted &= valid;
      dropped &= valid;
      pair_starts &= valid;
    }
    const uint64_t keep = valid & ~dropped;
    _mm512_storeu_si512((void *)(dst + o), _mm512_maskz_compress_epi8(keep, w));
    // Notes in order: after lane q (noted), then an atomic one before lane
    // q + 1 (pair_starts) at the same place.
    if (pair_starts & 1) {
      notes[k].folded_and_flag = o | FSSIMD_FOLD_NOTE_ATOMIC;
      notes[k].original = i;
      k++;
    }
    for (uint64_t m = noted | pair_starts >> 1; m != 0; m &= m - 1) {
      const unsigned q = (unsigned)_tzcnt_u64(m);
      const int64_t at = o + (int64_t)_mm_popcnt_u64(_bzhi_u64(keep, q + 1));
      if (noted >> q & 1) {
        notes[k].folded_and_flag = at;
        notes[k].original = i + (int64_t)q + 1;
        k++;
      }
      if (pair_starts >> q >> 1 & 1) {
        notes[k].folded_and_flag = at | FSSIMD_FOLD_NOTE_ATOMIC;
        notes[k].original = i + (int64_t)q + 1;
        k++;
      }
    }
    o += (int64_t)_mm_popcnt_u64(keep);
    if (valid == ~(uint64_t)0) {
      i += 64;
      continue;
    }
    const int64_t folded = (int64_t)_tzcnt_u64(~valid);
    i += folded;
    const int early = folded < FSSIMD_EAGER && fssimd_stop_repeats(lanes, src + i);
    if (early) calm = FSSIMD_CALM;
    if (!fssimd_fold_scalars(c, &i, &o, &k, !early, contractions, 1)) {
      done = 1;
      break;
    }
  }
  s->i = i;
  s->o = o;
  s->note_count = k;
  // Fewer than 66 bytes left: the 32-byte kernel takes what it can.
  if (!done) fssimd_fold_run_avx2(s);
}

FSSIMD_AVX512 static void fssimd_fold_run_avx512(fssimd_fold_state *s) {
  if (s->ascii_contraction_nibbles) {
    fssimd_fold_run_avx512_with(s, 1);
  } else {
    fssimd_fold_run_avx512_with(s, 0);
  }
}
#undef FSSIMD_LOOKUP128
#undef FSSIMD_AVX512
#endif

// MARK: - Per-arch choice

static int32_t fssimd_detect_level(void) {
#if defined(FSSIMD_HAS_X86)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
      __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("avx2")) {
    return FSSIMD_LEVEL_AVX512;
  }
  return __builtin_cpu_supports("avx2") ? FSSIMD_LEVEL_AVX2 : FSSIMD_LEVEL_SSE2;
#else
  return FSSIMD_LEVEL_PORTABLE;
#endif
}

int32_t fssimd_best_level(void) {
  // -1 = not asked yet. Racing first calls compute the same value.
  static int32_t cached = -1;
  int32_t level = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (level < 0) {
    level = fssimd_detect_level();
    __atomic_store_n(&cached, level, __ATOMIC_RELAXED);
  }
  return level;
}

static inline int32_t fssimd_clamp(int32_t level) {
  int32_t best = fssimd_best_level();
  return level > best ? best : level;
}

int64_t fssimd_find_short_collect(int32_t level, const uint8_t *haystack, int64_t n,
                                  int64_t start, const uint8_t *needle, int64_t m, int64_t *out,
                                  int64_t capacity, int64_t *next) {
  if (n <= 0 || m < 1 || m > 3 || start > n - m) {
    *next = start > n - m + 1 ? start : n - m + 1;
    return 0;
  }
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
    case FSSIMD_LEVEL_AVX2:
      return fssimd_find_short_avx2(haystack, n, start, needle, m, out, capacity, next);
    case FSSIMD_LEVEL_SSE2:
      return fssimd_find_short_sse2(haystack, n, start, needle, m, out, capacity, next);
#endif
    default:
      return fssimd_short_collect_portable(haystack, n, start, needle, m, out, capacity, next);
  }
}

fssimd_result fssimd_pair_find(int32_t level, const uint8_t *haystack, int64_t n, int64_t start,
                               fssimd_pair_state *state) {
  if (n <= 0 || start > n - state->needle_count) return fssimd_none();
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
    case FSSIMD_LEVEL_AVX2:
      return fssimd_pair_find_avx2(haystack, n, start, state);
    case FSSIMD_LEVEL_SSE2:
      return fssimd_pair_find_sse2(haystack, n, start, state);
#endif
    default:
      return fssimd_pair_portable(haystack, n, start, state);
  }
}

// MARK: - ASCII fold

int64_t fssimd_ascii_lower(int32_t level, const uint8_t *src, int64_t n, uint8_t *dst,
                           int32_t stop_at_controls) {
  if (n <= 0) return 0;
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
    case FSSIMD_LEVEL_AVX2:
      return fssimd_ascii_lower_avx2(src, n, dst, stop_at_controls);
    case FSSIMD_LEVEL_SSE2:
      return fssimd_ascii_lower_sse2(src, n, dst, stop_at_controls);
#endif
    default:
      return 0;
  }
}

// MARK: - Fold fast path

void fssimd_fold_run(int32_t level, fssimd_fold_state *state) {
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
      fssimd_fold_run_avx512(state);
      return;
    case FSSIMD_LEVEL_AVX2:
      fssimd_fold_run_avx2(state);
      return;
    case FSSIMD_LEVEL_SSE2:
      // (No byte shuffles for the ASCII contraction starters: the caller
      // folds those texts.)
      if (!state->ascii_contraction_nibbles) fssimd_fold_run_sse2(state);
      return;
#endif
    default:
      return;
  }
}

// MARK: - One-shot candidates

#if defined(FSSIMD_HAS_X86)
// Compiled for AVX2 only inside these functions; every function marked
// FSSIMD_AVX2 has the caller obligation that the CPU supports AVX2 (the
// dispatcher calls them only at FSSIMD_LEVEL_AVX2, after fssimd_clamp).
#define FSSIMD_AVX2 __attribute__((target("avx2")))

// The low 64 bits of the OR of x >> t over t in 0 ..< w, where x is the
// 128-bit lo | hi << 64, by doubling the shifts covered: at most four
// steps for w <= 16, each exact on both words, every shift count in
// 1 ..< 64. Caller obligations: 1 <= w <= 64.
static inline uint64_t fssimd_smear(uint64_t lo, uint64_t hi, int w) {
  int covered = 1;
  for (; 2 * covered <= w; covered *= 2) {
    lo |= lo >> covered | hi << (64 - covered);
    hi |= hi >> covered;
  }
  if (covered < w) lo |= lo >> (w - covered) | hi << (64 - (w - covered));
  return lo;
}

// The low-nibble table of a byte set over 0x80...0xFF, in both 128-bit
// lanes: byte l has bit hi − 8 for every member hi·16 + l (8 <= hi <= 15).
// One step per member (the sets are small, and this runs once per call).
// Caller obligations: `set` points to two readable words.
FSSIMD_AVX2 static inline __m256i fssimd_nibble_table_avx2(const uint64_t set[2]) {
  uint64_t t[2] = {0, 0};  // bytes 0–7, 8–15
  for (unsigned w = 0; w < 2; w++) {
    for (uint64_t bits = set[w]; bits != 0; bits &= bits - 1) {
      const unsigned k = 64 * w + (unsigned)__builtin_ctzll(bits);
      t[(k >> 3) & 1] |= (uint64_t)1 << (8 * (k & 7) + (k >> 4));
    }
  }
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

// 0xFF where (v | bits) == b, else 0x00.
FSSIMD_AVX2 static inline __m256i fssimd_eq_or_avx2(__m256i v, __m256i bits, __m256i b) {
  return _mm256_cmpeq_epi8(_mm256_or_si256(v, bits), b);
}

// The one-shot candidates of the block of 64 positions at j, 32 per vector,
// with d = a->distance (|d| <= 16):
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
//       >= 0x80.
//   (B) set membership by the nibble technique (fssimd_in_set_avx2) on the
//       loads at j and j + 32 (lead) and j + 1 and j + 33 (second); the
//       sets hold only bytes >= 0x80, so both bytes are non-ASCII.
// A block all ASCII without an anchor byte costs one OR of the compares
// and the bytes, a movemask and a branch.
// Load bounds: the block at j reads bytes j + min(d, 0) through
// j + max(64, d + 63) (the second-byte loads end at j + 64). The vector
// loop runs only while both lie in [0, n), where the header's clipping of
// windows to [0, n), its 0 <= q < n and its p + 1 < n hold for every
// position of the block; the blocks nearer either end, and anchors with
// |d| > 16, go to the portable collector. Each block's candidates are
// written to `out` while 64 slots are free (the contract of
// fssimd_oneshot_collect).
// Caller obligations: `h` points to `n` readable bytes; 0 <= start < n;
// `a` points to a valid fssimd_anchor; `out` has `capacity` writable slots;
// `next` is writable; the CPU supports AVX2.
FSSIMD_AVX2 static int64_t fssimd_oneshot_avx2(const uint8_t *h, int64_t n, int64_t start,
                                               const fssimd_anchor *a, int64_t *out,
                                               int64_t capacity, int64_t *next) {
  const int64_t d = a->distance;
  const int64_t first = d < 0 ? -d : 0;
  const int64_t reach = d + 63 > 64 ? d + 63 : 64;
  if (d < -16 || d > 16 || start < first || start + reach >= n) {
    return fssimd_oneshot_collect_portable(h, n, start, a, out, capacity, next);
  }
  const __m256i anchor = _mm256_set1_epi8((char)a->anchor);
  const __m256i anchor_or = _mm256_set1_epi8((char)a->anchor_or);
  const __m256i partner = _mm256_set1_epi8((char)a->partner);
  const __m256i partner_or = _mm256_set1_epi8((char)a->partner_or);
  const __m256i lead = fssimd_nibble_table_avx2(a->lead);
  const __m256i second = fssimd_nibble_table_avx2(a->second);
  const __m256i high = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128,
                                        0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128);
#define FSSIMD_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
  int64_t j = start;
  int64_t count = 0;
  for (; j + reach < n; j += 64) {
    if (capacity - count < 64) {
      *next = j;
      return count;
    }
    const __m256i v0 = FSSIMD_LOAD(h + j), v1 = FSSIMD_LOAD(h + j + 32);
    const __m256i e0 = fssimd_eq_or_avx2(v0, anchor_or, anchor);
    const __m256i e1 = fssimd_eq_or_avx2(v1, anchor_or, anchor);
    const __m256i any = _mm256_or_si256(_mm256_or_si256(e0, e1), _mm256_or_si256(v0, v1));
    if (_mm256_movemask_epi8(any) == 0) continue;
    const uint64_t h0 = fssimd_mask64_avx2(v0, v1);
    const uint64_t ea = fssimd_mask64_avx2(e0, e1) & ~h0;
    uint64_t mask = 0;
    if (ea != 0 && d == 0) {
      mask = ea;
    } else if (ea != 0) {
      const __m256i p0 = FSSIMD_LOAD(h + j + d), p1 = FSSIMD_LOAD(h + j + d + 32);
      const uint64_t ep = fssimd_mask64_avx2(fssimd_eq_or_avx2(p0, partner_or, partner),
                                             fssimd_eq_or_avx2(p1, partner_or, partner));
      const uint64_t hd = fssimd_mask64_avx2(p0, p1);
      uint64_t lo, hi;  // x, bit i: byte w + i >= 0x80
      if (d > 0) {
        lo = h0 >> 1 | hd << (d - 1), hi = hd >> (64 - d) >> 1;
      } else {
        lo = hd | h0 << -d, hi = h0 >> (64 + d);
      }
      mask = ea & (ep | fssimd_smear(lo, hi, (int)(d > 0 ? d : -d)));
    }
    if (h0 != 0) {
      const __m256i n0 = FSSIMD_LOAD(h + j + 1), n1 = FSSIMD_LOAD(h + j + 33);
      mask |= ~fssimd_mask64_avx2(fssimd_out_of_sets_avx2(v0, n0, lead, second, high),
                                  fssimd_out_of_sets_avx2(v1, n1, lead, second, high));
    }
    for (; mask != 0; mask &= mask - 1) out[count++] = j + __builtin_ctzll(mask);
  }
#undef FSSIMD_LOAD
  return count + fssimd_oneshot_collect_portable(h, n, j, a, out + count, capacity - count, next);
}
#undef FSSIMD_AVX2
#endif

int64_t fssimd_oneshot_collect(int32_t level, const uint8_t *haystack, int64_t n, int64_t start,
                               const fssimd_anchor *anchor, int64_t *out, int64_t capacity,
                               int64_t *next) {
  if (start >= n) {
    *next = start > n ? start : n;
    return 0;
  }
  switch (fssimd_clamp(level)) {
#if defined(FSSIMD_HAS_X86)
    case FSSIMD_LEVEL_AVX512:
    case FSSIMD_LEVEL_AVX2:
      return fssimd_oneshot_avx2(haystack, n, start, anchor, out, capacity, next);
#endif
    default:
      return fssimd_oneshot_collect_portable(haystack, n, start, anchor, out, capacity, next);
  }
}
