// Tables.c — the fold kernels' constant and derived tables: the UTF-8 of
// the conjoining jamo of every Hangul syllable (read by the scalar part's
// Hangul run, FoldScalar.h), and the lanes of the AVX-512 fold
// (fssimd_fold_lanes: the folds of the two-byte scalars as vectors of 64,
// the three- and four-byte rows' bitmaps and tables), made once per fold
// table from its packed and two-stage tables.
//
// Invariants: the lanes hold, for every scalar they fold, the scalar fold's
// bytes and a lane kind that says how the vector writes it (see
// include/FoldSearchSIMD.h); a scalar they cannot write in the vector has
// the kind FSSIMD_LANE_SLOW and goes to the scalar part. The Hangul
// decomposition is Unicode §3.12, "Conjoining Jamo Behavior".
#include "FoldScalar.h"

// MARK: - Hangul jamo

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
FSSIMD_HIDDEN const uint64_t fssimd_hangul_lv[400] = {FSSIMD_LV100(0), FSSIMD_LV100(100),
                                                      FSSIMD_LV100(200), FSSIMD_LV100(300)};
#define FSSIMD_T(t)                                                                 \
  (uint32_t)((0x86 + ((0x27 + (t)) >> 6)) | (0x80 | ((0x27 + (t)) & 0x3F)) << 8 | \
             ((t) != 0 ? 9 : 6) << 16)
FSSIMD_HIDDEN const uint32_t fssimd_hangul_t[28] = {
    FSSIMD_T(0),  FSSIMD_T(1),  FSSIMD_T(2),  FSSIMD_T(3),  FSSIMD_T(4),  FSSIMD_T(5),
    FSSIMD_T(6),  FSSIMD_T(7),  FSSIMD_T(8),  FSSIMD_T(9),  FSSIMD_T(10), FSSIMD_T(11),
    FSSIMD_T(12), FSSIMD_T(13), FSSIMD_T(14), FSSIMD_T(15), FSSIMD_T(16), FSSIMD_T(17),
    FSSIMD_T(18), FSSIMD_T(19), FSSIMD_T(20), FSSIMD_T(21), FSSIMD_T(22), FSSIMD_T(23),
    FSSIMD_T(24), FSSIMD_T(25), FSSIMD_T(26), FSSIMD_T(27)};
#undef FSSIMD_LV
#undef FSSIMD_LV10
#undef FSSIMD_LV100
#undef FSSIMD_T

// MARK: - Lanes of the AVX-512 fold

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
