// FoldScalar.h — the fold's scalar part: the scalars the vector loops stop
// at (non-ASCII, controls, contraction starters) folded one at a time from
// the packed two-byte table and the two-stage table, with their map notes,
// until ASCII the vector folds resumes. Static inline and always inlined
// into each vector loop (FoldKernels.h, FoldAVX512.c), so that the
// positions stay in registers; FoldScalar.c holds the one part kept out of
// line, the Hangul run for the narrower kernels.
//
// Invariants: the bytes and notes written are the fold loop's own (the
// Swift side's FoldedText.fold), scalar by scalar; a scalar is folded only
// when two note slots are free and its bytes are readable (four bytes at
// the loop's top); a scalar whose fold needs more context (a contraction
// of more than two scalars, a prefix rule, ill-formed input) is left to the
// caller. Hangul syllables fold by the algorithm of Unicode §3.12,
// "Conjoining Jamo Behavior".
#ifndef FOLDSEARCH_SIMD_FOLD_SCALAR_H
#define FOLDSEARCH_SIMD_FOLD_SCALAR_H
#include "Internal.h"

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

// A syllable's jamo as UTF-8, looked up instead of computed (Tables.c has
// the layout): the first seven bytes by index / 28, the last two and the
// fold's length by index % 28.
FSSIMD_HIDDEN extern const uint64_t fssimd_hangul_lv[400];
FSSIMD_HIDDEN extern const uint32_t fssimd_hangul_t[28];

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

// fssimd_hangul_run_inline out of line (FoldScalar.c).
FSSIMD_HIDDEN __attribute__((noinline)) fssimd_positions fssimd_hangul_run(
    const uint8_t *src, int64_t n, uint8_t *dst, fssimd_fold_note *notes, int64_t last_note,
    uint32_t value, int64_t i, int64_t o, int64_t k);

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
#endif
