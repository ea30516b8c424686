// FoldSearchSIMD.h — vector kernels for byte search and the fold's fast
// path (no ICU). Prefix fssimd_.
//
// Layers (as in BurntSushi's memchr crate):
//   1. portable algorithm — plain C loops, any CPU (FSSIMD_LEVEL_PORTABLE);
//   2. vector algorithm   — one kernel body, instantiated for 16-byte SSE2
//                           and 32-byte AVX2 vectors (SearchVector.c,
//                           FoldVector.c), and for the fold a 64-byte
//                           AVX-512 kernel that folds two-byte scalars in
//                           the vector (FoldAVX512.c);
//   3. per-arch choice    — fssimd_best_level() asks the CPU once
//                           (__builtin_cpu_supports); every entry point
//                           takes the level to run, so a caller (and a
//                           test) can pin a lower one (Dispatch.c).
// Internal.h lists every file of the target by layer.
// The Swift side (_FoldSearchBytes) chooses the needle bytes to compare and
// owns the search contract; these kernels only find the next candidate or
// occurrence.
//
// Thread safety: every function is reentrant and thread-safe. The only
// shared state is the cached CPU level, written with an atomic store of a
// value every thread computes identically. A fssimd_pair_state is owned by
// one caller and must not be shared between concurrent calls.
#ifndef FOLDSEARCH_SIMD_H
#define FOLDSEARCH_SIMD_H
#include <stdint.h>
#include "FoldSearchTeddy.h"
#include "FoldSearchUTF8.h"
#include "FoldSearchFingerprint.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Kernel families, in increasing order of capability.
enum {
  FSSIMD_LEVEL_PORTABLE = 0,  ///< scalar C, any CPU
  FSSIMD_LEVEL_SSE2 = 1,      ///< 16-byte vectors (x86-64 baseline)
  FSSIMD_LEVEL_AVX2 = 2,      ///< 32-byte vectors, checked at run time
  /// 64-byte vectors with byte permutes and compression (AVX-512 F, BW,
  /// VBMI and VBMI2, plus BMI2), checked at run time. Only the fold's fast
  /// path has a kernel of its own at this level; every other entry point
  /// runs its AVX2 kernel.
  FSSIMD_LEVEL_AVX512 = 3,
};

/// The most capable level this CPU runs: FSSIMD_LEVEL_AVX512 when the CPU
/// supports the AVX-512 subsets above, FSSIMD_LEVEL_AVX2 when it supports
/// AVX2, FSSIMD_LEVEL_SSE2 on other x86-64 CPUs, and FSSIMD_LEVEL_PORTABLE
/// elsewhere. The CPU is asked once per process. No caller obligations.
int32_t fssimd_best_level(void);

/// Asks the CPU to bring the cache line holding `address` closer (a hint:
/// no fault, no effect on results). No caller obligations: any address,
/// even one outside every mapping, is allowed.
static inline void fssimd_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// Outcome of a search call.
enum {
  FSSIMD_FOUND = 0,     ///< `position` is an occurrence
  FSSIMD_NONE = 1,      ///< no occurrence at or after `start`
  FSSIMD_HANDOVER = 2,  ///< work budget exhausted: no occurrence in
                        ///< [start, position) and nothing at or after
                        ///< `position` examined; continue with another
                        ///< algorithm from `position`
};

typedef struct {
  int64_t position;
  int32_t status;  ///< FSSIMD_FOUND, FSSIMD_NONE or FSSIMD_HANDOVER
} fssimd_result;

/// A block of window starts: bit k of `mask` set means an occurrence starts
/// at `base + k`.
typedef struct {
  int64_t base;
  uint64_t mask;
  /// Every occurrence in [start, end) — `start` as passed to the call — has
  /// its bit set in `mask`; none before `start` does.
  int64_t end;
} fssimd_block;

/// Collects the occurrences of a needle of 1 to 3 bytes: every window start
/// p >= `start` where the needle occurs, in increasing order, written to
/// `out`, found exactly by comparing every needle byte in the vector (no
/// separate verification), 64 window starts at a time while at least 64 of
/// `capacity` slots are free. Returns how many were written and sets *next
/// to where the scan stopped: every occurrence in [start, *next) was
/// written, none at or after *next; *next == n − m + 1 (or start, when start
/// is past it) when the scan reached the last window, and *next > start
/// whenever capacity >= 64 and start <= n − m. Every level writes the same
/// positions. O(*next − start) per call; reads only haystack[0 ..< n].
///
/// Caller obligations: `haystack` points to `n` readable bytes (it may be
/// NULL only when n == 0); `needle` points to `m` readable bytes with
/// 1 <= m <= 3; 0 <= start; `out` points to `capacity` writable slots;
/// `next` is writable; `level` is at most fssimd_best_level() (a higher
/// level is lowered to it).
int64_t fssimd_find_short_collect(int32_t level, const uint8_t *haystack, int64_t n,
                                  int64_t start, const uint8_t *needle, int64_t m, int64_t *out,
                                  int64_t capacity, int64_t *next);

/// State of a rare-byte-pair scan for one needle, kept across calls so that
/// a scan resumed after each reported occurrence spends one work budget.
typedef struct {
  /// The needle; `needle_count` >= 1 bytes.
  const uint8_t *needle;
  int64_t needle_count;
  /// The two needle offsets compared in the vector (the prefilter): a window
  /// at j is a candidate when haystack[j + index1] == needle[index1] and
  /// haystack[j + index2] == needle[index2]. 0 <= index < needle_count; the
  /// two may be equal (a one-byte prefilter).
  int64_t index1, index2;
  /// Whether the verification work is budgeted (see `work`).
  int32_t budgeted;
  /// Where the budgeted scan began; the budget grows with the distance from
  /// it.
  int64_t origin;
  /// Bytes compared while verifying candidates so far (in/out; start at 0).
  /// When budgeted, a candidate at j is only verified while
  ///   work <= 4 × (j − origin) + 2 × needle_count + 256,
  /// otherwise the call returns FSSIMD_HANDOVER at j. Total verification
  /// work is therefore at most 4n + 3m + 256 over a whole scan.
  int64_t work;
} fssimd_pair_state;

/// The first occurrence at or after `start` of `state->needle`, found by
/// the rare-byte-pair prefilter and verified in full. Without a budget
/// O((n − start) · m) in the worst case; with one, linear work before
/// FSSIMD_HANDOVER. Reads only haystack[start ..< n].
///
/// Caller obligations: `haystack` points to `n` readable bytes (NULL only
/// when n == 0); `state` points to a valid state whose `needle` points to
/// `needle_count` >= 1 readable bytes and whose indices satisfy the bounds
/// above; 0 <= start; when budgeted, origin <= start; every call of one
/// scan passes the same haystack, needle and level, with non-decreasing
/// `start`; `level` as for fssimd_find_short_collect.
fssimd_result fssimd_pair_find(int32_t level, const uint8_t *haystack, int64_t n, int64_t start,
                               fssimd_pair_state *state);

/// The ASCII fold's vector path: copies src to dst, lowercasing A–Z, for as
/// long as the bytes are ASCII (and, when `stop_at_controls` is nonzero, not
/// a control: below 0x20 or 0x7F), one whole vector (16 or 32 bytes) at a
/// time. Returns r, the number of bytes folded: the first stopping byte is
/// at r when r < n and it lies in the last vector examined; otherwise fewer
/// than one vector of bytes remain unexamined (the caller folds them). Bytes
/// of dst past r may have been written (with garbage) but never dst[n] or
/// beyond. Level PORTABLE returns 0.
///
/// Caller obligations: `src` points to `n` readable bytes and `dst` to `n`
/// writable bytes (NULL only when n == 0); the ranges do not overlap;
/// `level` as for fssimd_find_short_collect.
int64_t fssimd_ascii_lower(int32_t level, const uint8_t *src, int64_t n, uint8_t *dst,
                           int32_t stop_at_controls);

/// One note of the fold's offset map, as FoldSearch's `OffsetMap.Entry`
/// lays it out: the folded position (with bit 62 set when an atomic
/// expansion starts there) and the original position.
typedef struct {
  int64_t folded_and_flag;
  int64_t original;
} fssimd_fold_note;

/// Bit 62 of fssimd_fold_note.folded_and_flag: an atomic expansion starts.
#define FSSIMD_FOLD_NOTE_ATOMIC ((int64_t)1 << 62)

/// The longest encoded map entry: a head byte and two 64-bit LEB128 varints.
#define FSSIMD_MAP_ENTRY_MAX 21

/// Writes one delta-coded entry of FoldSearch's `OffsetMap` at `out` and
/// returns the byte after it. The entry lies `df` (>= 1) folded bytes after
/// the previous one, its shift (original − folded) is `ds` more than the
/// previous one's, and `atomic` says whether an atomic expansion starts at
/// it. The format (the decoder is `OffsetMap.decode`):
///   0 s dddddd            not atomic, df = dddddd + 1 (1...64), ds = s + 1;
///                         one byte: an accented Latin letter (é → e: ds 1;
///                         ǘ → u: ds 2), most entries of Latin-script text
///   1 a dddddd [v] v      a: atomic; df = dddddd (1...62), or 63 + the
///                         first varint v; then ds zigzag-encoded; LEB128
///                         varints (two bytes for a Hangul syllable, ß, a
///                         dropped mark).
///
/// Caller obligations: `out` has FSSIMD_MAP_ENTRY_MAX writable bytes;
/// `df` >= 1.
static inline uint8_t *fssimd_map_encode_entry(uint8_t *out, int64_t df, int64_t ds,
                                               int atomic) {
  if ((uint64_t)(df - 1) < 64 && (uint64_t)(ds - 1) < 2 && !atomic) {
    *out = (uint8_t)((ds - 1) << 6 | (df - 1));
    return out + 1;
  }
  uint64_t zigzag = ((uint64_t)ds << 1) ^ (uint64_t)(ds >> 63);
  uint8_t head = (uint8_t)(0x80 | (atomic ? 0x40 : 0) | (df < 63 ? df : 63));
  if (df < 63 && zigzag < 0x80) {
    out[0] = head;
    out[1] = (uint8_t)zigzag;
    return out + 2;
  }
  *out++ = head;
  if (df >= 63) {
    uint64_t v = (uint64_t)(df - 63);
    for (; v >= 0x80; v >>= 7) *out++ = (uint8_t)v | 0x80;
    *out++ = (uint8_t)v;
  }
  for (; zigzag >= 0x80; zigzag >>= 7) *out++ = (uint8_t)zigzag | 0x80;
  *out++ = (uint8_t)zigzag;
  return out;
}

/// The map builder's state across fssimd_map_encode_notes: the pending
/// (newest) entry and the last stored one, each as its folded position with
/// the atomic bit (as in fssimd_fold_note) and its shift, original − folded.
typedef struct {
  int64_t newest_raw;
  int64_t newest_shift;
  int64_t last_raw;
  int64_t last_shift;
  uint8_t *out;    ///< where the next entry is encoded (updated)
  int64_t stored;  ///< entries stored (updated: increased)
} fssimd_map_builder;

/// FoldSearch's `OffsetMap` building rules over `notes[0..<count]` in the
/// common case, where an entry is pending and every store lands inside the
/// current block: a note at a new folded position stores the pending entry
/// (encoded after the last stored one) and becomes the pending one, unless
/// it is a shift the pending entry predicts (neither is atomic and the shift
/// is the same), which is dropped. A note at the pending entry's folded
/// position replaces it (only ignorables lay between), storing nothing;
/// stops before such a note when the last stored entry predicts it (no
/// entry would be pending: left to the caller). Returns the number of notes
/// consumed; `builder` holds the state after them.
///
/// Caller obligations: `notes` points to `count` notes whose folded
/// positions never decrease from the pending entry's;
/// `builder->out` has `count` × FSSIMD_MAP_ENTRY_MAX writable bytes; the
/// current block has room for `count` more entries.
int64_t fssimd_map_encode_notes(const fssimd_fold_note *notes, int64_t count,
                                fssimd_map_builder *builder);

/// fssimd_map_encode_notes at vector level `level` (clamped to
/// fssimd_best_level()): the same bytes and state at every level
/// (FSSIMD_LEVEL_AVX512 encodes eight notes at a time, FSSIMD_LEVEL_AVX2
/// four, the others one).
int64_t fssimd_map_encode_notes_at(int32_t level, const fssimd_fold_note *notes, int64_t count,
                                   fssimd_map_builder *builder);

/// Flags of a packed two-byte fold (FoldSearch's `FoldTable.TwoByte`): bits
/// 0–31 hold up to four folded bytes (the first lowest), bits 32–34 their
/// count, then these.
#define FSSIMD_TWO_BYTE_ATOMIC ((uint64_t)1 << 36)
#define FSSIMD_TWO_BYTE_IDENTITY ((uint64_t)1 << 37)
#define FSSIMD_TWO_BYTE_IGNORABLE ((uint64_t)1 << 38)
#define FSSIMD_TWO_BYTE_SLOW ((uint64_t)1 << 39)
/// With FSSIMD_TWO_BYTE_SLOW: a contraction starter, its own fold packed
/// (used when the scalar after it continues no contraction).
#define FSSIMD_TWO_BYTE_STARTER ((uint64_t)1 << 40)
/// The length and the flags that change how a fold is written: a packed
/// fold with exactly length 2 in these bits writes its two bytes and no
/// note (FSSIMD_TWO_BYTE_IDENTITY folds hold their own bytes, length 2).
#define FSSIMD_TWO_BYTE_PLAIN_MASK                                                   \
  ((uint64_t)7 << 32 | FSSIMD_TWO_BYTE_ATOMIC | FSSIMD_TWO_BYTE_IGNORABLE | \
   FSSIMD_TWO_BYTE_SLOW)

/// The folds laid out for the AVX-512 fold kernel, which looks them up 64 at
/// a time with byte permutes (fssimd_fold_lanes_size bytes):
/// - [0, 6144): three arrays of 2048 bytes for the two-byte scalars, each
///   indexed like the packed table ((b0 & 0x1F) << 6 | (b1 & 0x3F)), so
///   that the 64 scalars of one lead byte are one vector: the first folded
///   byte, the second, and the lane kind (below);
/// - [6144, 6272): a bitmap of the 1024 rows of 64 three-byte scalars (row
///   r: r << 6 ... r << 6 | 63; bit r & 7 of byte r >> 3), set when every
///   scalar of the row folds to itself;
/// - [6272, 8320): for each row, a 16-bit table number
///   (native byte order), 0 when the row has no table (identity, or no
///   scalar of it folds in the vector);
/// - [8320, 8832): a bitmap of the 4096 rows of 64 four-byte scalars with
///   lead byte F0 (row r = (b1 & 0x3F) << 6 | (b2 & 0x3F): U+10000 ...
///   U+3FFFF; the rows of overlong forms, b1 < 0x90, clear), set when every
///   scalar of the row folds to itself;
/// - [8832, 9344) and [9344, FSSIMD_FOLD_LANES_FIXED): bitmaps of the 4096
///   scalars U+1F000 ... U+1FFFF (emoji; bit (b2 & 0x3F) << 6 | (b3 & 0x3F))
///   that fold to themselves, and of those that are ignorable (the skin
///   tone modifiers U+1F3FB ... U+1F3FF in the foundation profile);
/// - then table t at FSSIMD_FOLD_LANES_FIXED + 256 × (t − 1): four arrays
///   of 64 bytes indexed by the third byte's low six bits: the first, second
///   and third folded bytes and the lane kind.
/// A lane kind is 0 for a fold as long as the scalar that needs no map note
/// (identity, or another scalar of the same length), else FSSIMD_LANE_SLOW
/// or FSSIMD_LANE_NOTE with a drop bit for each lane past the fold: for
/// the scalar's last lane FSSIMD_LANE_DROP, for the lane before it
/// FSSIMD_LANE_DROP << 1, for the one before that FSSIMD_LANE_DROP << 2.
#define FSSIMD_FOLD_LANES_FIXED 9856
/// A lane kind bit: a map note follows the scalar (its fold is shorter).
#define FSSIMD_LANE_NOTE 1
/// A lane kind bit: the scalar's last lane is dropped (shifted left once per
/// lane before the last).
#define FSSIMD_LANE_DROP 2
/// A lane kind: the vector path stops before the scalar (atomic, longer
/// than the scalar, a contraction starter whose own fold is either of
/// those, or unpacked).
#define FSSIMD_LANE_SLOW 16
/// A lane kind bit: the scalar starts contractions; the lanes hold its fold
/// when it folds alone, which the vector path checks (the scalar after it
/// continues no contraction) and otherwise stops before it.
#define FSSIMD_LANE_STARTER 32
/// A lane kind bit, two-byte scalars only: the scalar may continue a
/// contraction (it is in the continuation bitmap), so a starter before it
/// is checked; a starter before any other two-byte scalar is not.
#define FSSIMD_LANE_CONTINUES 64

/// The size of the lanes fssimd_fold_lanes makes for this two-stage table:
/// FSSIMD_FOLD_LANES_FIXED plus 256 bytes per row with a table. Caller
/// obligations: the table's entries for U+0800 ... U+3FFFF are readable.
int64_t fssimd_fold_lanes_size(const uint16_t *stage1, const uint32_t *stage2);

/// Fills `lanes` (fssimd_fold_lanes_size(stage1, stage2) writable bytes)
/// from the packed two-byte table `two_byte` (2048 readable entries), the
/// two-stage table (entries for U+0800 ... U+3FFFF readable, with their
/// pool bytes) and the continuation bitmap (32 readable words, the scalars
/// below U+0800), as in fssimd_fold_state. No other caller obligations.
void fssimd_fold_lanes(const uint64_t *two_byte, const uint16_t *stage1, const uint32_t *stage2,
                       const uint8_t *pool, const uint64_t *continuations, uint8_t *lanes);

/// Free note slots the AVX-512 fold kernel needs to fold a 64-byte block
/// (at most 32 scalars of two or three bytes, each with a note, or a
/// contraction of two scalars over four lanes or more with two, and two
/// for a scalar after it):
/// with fewer it returns, as the other levels do with fewer than two.
#define FSSIMD_FOLD_BLOCK_NOTES 34

/// `ascii_action[b]` of a fssimd_fold_state for an ASCII byte b: below 0x80
/// the byte it folds to; FSSIMD_ASCII_IGNORABLE: skipped; FSSIMD_ASCII_STOP:
/// the caller folds it.
#define FSSIMD_ASCII_IGNORABLE 0x80
#define FSSIMD_ASCII_STOP 0xFF

/// The state of the fold loop's fast path, fssimd_fold_run: the input and
/// output, the tables, the positions (updated) and the notes buffer.
typedef struct {
  const uint8_t *src;
  int64_t count;  ///< bytes at `src`
  uint8_t *dst;
  /// 2048 packed folds of the two-byte scalars, indexed by
  /// (b0 & 0x1F) << 6 | (b1 & 0x3F).
  const uint64_t *two_byte;
  /// The same folds laid out by fssimd_fold_lanes (read at
  /// FSSIMD_LEVEL_AVX512 only; may be NULL below it).
  const uint8_t *lanes;
  /// 128 actions for ASCII bytes the vector path stops at (controls, when
  /// `stop_at_controls`); see FSSIMD_ASCII_STOP.
  const uint8_t *ascii_action;
  /// The two-stage table of every scalar's fold (FoldSearch's
  /// `FoldTable.Entry`), for three-byte scalars: the entry of scalar c is
  /// stage2[stage1[c >> 8] << 8 | (c & 0xFF)]; 0 identity, 0xFFFFFFFF
  /// ignorable, bit 31 a contraction starter, otherwise pool bytes
  /// (offset in bits 8–30, length in bits 1–7, atomic in bit 0); bit 31
  /// with no length nor atomic flag (an index in the offset's bits) a
  /// scalar whose fold depends on the scalars before it, which the kernel
  /// leaves to its caller; 0x80000001 an ignorable contraction starter.
  const uint16_t *stage1;
  const uint32_t *stage2;
  const uint8_t *pool;
  /// 1024 words: bit c & 63 of word c >> 6 is set when the BMP scalar c
  /// continues some contraction of the table (a starter followed by any
  /// other scalar folds alone).
  const uint64_t *continuations;
  /// Nonzero: the vector path stops at bytes below 0x20 other than TAB…CR
  /// (0x09–0x0D) and at 0x7F (their fold is not plain lowercasing); zero:
  /// every ASCII byte folds by plain lowercasing. Either way the caller
  /// guarantees that TAB…CR and 0x20–0x7E fold by plain lowercasing.
  int32_t stop_at_controls;
  /// Nonzero: every Hangul syllable (U+AC00...U+D7A3) folds atomically to
  /// its canonical decomposition into conjoining jamo (L V or L V T, Unicode
  /// §3.12), as the caller verified over the two-stage table; the kernel then
  /// computes those folds instead of reading them, and notes a run of
  /// syllables with one note at each syllable's start and one at the run's
  /// end (the end note of a syllable that another follows would be replaced
  /// by the next one's start under the map's rules).
  int32_t hangul_is_arithmetic;
  /// The contractions of two scalars by their pair (a Thai or Lao prevowel
  /// and its consonant), for a starter that a continuation follows; NULL
  /// when the table has none. An open-addressing table of 2^(64 −
  /// `pair_shift`) slots, found from the key first << 21 | second by
  /// (key × 0x9E3779B97F4A7C15) >> pair_shift and linear probing, a key of
  /// 0 ending the search. `pair_folds` per slot: the fold's offset in
  /// `pair_bytes` in bits 8–30, its length in bits 1–7, atomic in bit 0,
  /// and bit 31 set when longer contractions begin with the pair (the
  /// kernel then returns at the starter); eight bytes are readable from
  /// each fold's offset.
  const uint64_t *pair_keys;
  const uint32_t *pair_folds;
  const uint8_t *pair_bytes;
  int32_t pair_shift;
  /// The ASCII bytes that start a contraction (Danish "aa", Czech "ch",
  /// Swedish a + U+0308, Spanish n + U+0303: a tailoring's letters), and
  /// the ASCII bytes that continue one, as two 16-byte tables for a
  /// nibble lookup (byte b is in a set when bit b >> 4 of entry b & 15 is
  /// set): 32 bytes, starters first; NULL when no ASCII byte starts a
  /// contraction. The vector path then stops at a starter that an ASCII
  /// continuation or a non-ASCII byte follows, and the scalar part folds
  /// it. Read at FSSIMD_LEVEL_AVX2 and above (byte shuffles);
  /// fssimd_fold_run at a lower level returns at once when it is set.
  const uint8_t *ascii_contraction_nibbles;
  int64_t i;  ///< input position (updated)
  int64_t o;  ///< output position (updated)
  fssimd_fold_note *notes;
  int64_t note_count;  ///< notes written (updated)
  int64_t note_capacity;
} fssimd_fold_state;

/// The fold loop's fast path: folds from `state->i` for as long as the input
/// is ASCII whose fold is plain lowercasing (one vector of 16, 32 or 64
/// bytes per step), ASCII bytes with an action other than FSSIMD_ASCII_STOP,
/// and well-formed two- and three-byte scalars (the packed table first, the
/// two-stage table for the ones marked FSSIMD_TWO_BYTE_SLOW and for three
/// bytes; at FSSIMD_LEVEL_AVX512, blocks of them are folded in the vector
/// from the lanes), a contraction starter when a BMP scalar that
/// continues no contraction follows it, and a contraction of two scalars
/// from `pair_keys` (ASCII starters included, at FSSIMD_LEVEL_AVX2 and
/// above: `ascii_contraction_nibbles`). It appends each map note the
/// fold loop would: after an ignorable scalar (o, i after it); at an atomic
/// fold, its start (flagged) and its end; after a fold of another length
/// than the scalar's, its end. Returns when fewer than one vector of input
/// remains, at a byte it does not fold (a four-byte lead, an ill-formed
/// sequence, a contraction starter that may start a contraction of more
/// than two scalars, a STOP action), or
/// when fewer than two free note slots remain (at FSSIMD_LEVEL_AVX512,
/// fewer than FSSIMD_FOLD_BLOCK_NOTES); `i`, `o` and `note_count` then say
/// where. Bytes of dst past `o` may have been written (with garbage).
/// Level PORTABLE returns at once. Every level writes the same bytes up to
/// `o` and the same notes for the same input, notes that give the same map
/// as the fold loop's own (only the end notes of Hangul syllables that
/// another follows are left out, see `hangul_is_arithmetic`).
///
/// Caller obligations: `src` points to `count` readable bytes; `dst` has
/// room for count × E + 16 bytes, where E >= 1 bounds the output per input
/// byte of every fold in the tables, and o <= i × E; 0 <= i <= count; the
/// tables point to 2048 and 128 readable entries (every packed length
/// <= 4), to a two-stage table whose entries for U+0080...U+FFFF are
/// readable with their pool bytes (and eight bytes from each fold's
/// offset), to 1024 continuation words and, at FSSIMD_LEVEL_AVX512, to
/// the lanes fssimd_fold_lanes made from the same tables;
/// `ascii_contraction_nibbles` is NULL or points to 32 readable bytes, and
/// the stage-two entries of U+0000...U+007F are readable too when it is set;
/// `notes` points to `note_capacity` >= 2 writable slots, note_count <=
/// note_capacity; `level` as for fssimd_find_short_collect.
void fssimd_fold_run(int32_t level, fssimd_fold_state *state);

/// What makes a raw UTF-8 byte position a candidate for a one-shot search
/// that folds only windows around candidates (FoldSearch's
/// `OneShotSearch.swift` explains why every match has one). The anchor
/// is one folded ASCII byte of the needle; the partner another, `distance`
/// needle bytes after it (negative: before; 0: no partner); the second
/// partner a third, `distance2` needle bytes from the anchor (0: none),
/// tested as the first is and required as well.
typedef struct {
  uint8_t anchor;      ///< the anchor's folded byte (< 0x80)
  uint8_t anchor_or;   ///< 0x20 when `anchor` is a lowercase letter, else 0
  uint8_t partner;     ///< the partner's folded byte (< 0x80)
  uint8_t partner_or;  ///< 0x20 when `partner` is a lowercase letter, else 0
  int32_t distance;    ///< partner index − anchor index, |distance| <= 16
  /// Byte sets over 0x80...0xFF, bit (b − 0x80) of the 128-bit value
  /// (`[0]` holds bits 0–63): the first and second bytes of the non-ASCII
  /// scalars whose fold contains the anchor.
  uint64_t lead[2];
  uint64_t second[2];
  uint8_t partner2;     ///< the second partner's folded byte (< 0x80)
  uint8_t partner2_or;  ///< 0x20 when `partner2` is a lowercase letter, else 0
  int32_t distance2;    ///< partner2 index − anchor index, |distance2| <= 16
  /// How the vector loop goes over the blocks (the candidates are the same
  /// every way): FSSIMD_ONESHOT_MEASURED (0, the zeroed struct's) times
  /// both ways as it goes and runs the faster; FSSIMD_ONESHOT_SKIPPING and
  /// FSSIMD_ONESHOT_STRAIGHT run that one (fssimd_oneshot_collect).
  int32_t loop;
  /// The measured choice, carried from call to call over one text (set by
  /// fssimd_oneshot_collect; a caller zeroes them, or leaves them from the
  /// previous call): the way chosen (0 skipping, 1 straight), how many
  /// trials in a row chose it, where the next trial starts, and where the
  /// last call stopped (a call from before it starts with a trial).
  int32_t loop_chosen;
  int32_t loop_streak;
  int64_t loop_trial_at;
  int64_t loop_resume;
} fssimd_anchor;

/// fssimd_anchor.loop: which way the vector loop goes over the blocks.
#define FSSIMD_ONESHOT_MEASURED 0
#define FSSIMD_ONESHOT_SKIPPING 1
#define FSSIMD_ONESHOT_STRAIGHT 2

/// Collects the candidates of a one-shot search: every candidate position
/// p >= `start`, in increasing order, written to `out`, scanning 64
/// positions at a time while at least 64 slots of `capacity` are free.
/// Returns how many were written and sets *next to where the scan stopped:
/// every candidate in [start, *next) was written, none at or after *next;
/// *next == n (or start, when start > n) when the scan reached the end, and
/// *next > start whenever capacity >= 64 and start < n. Position p is a
/// candidate when either
///   (A) h[p] < 0x80 and (h[p] | anchor_or) == anchor, and, with d =
///       distance != 0 and q = p + d: some byte of h in the window between
///       p and q — (p, q] when d > 0, [q, p) when d < 0, clipped to [0, n) —
///       is >= 0x80, or 0 <= q < n and (h[q] | partner_or) == partner; and
///       the same of distance2, partner2 and partner2_or when distance2 != 0;
///       or
///   (B) h[p] >= 0x80 is in `lead`, p + 1 < n and h[p + 1] is in `second`.
/// The set is exact: every level reports the same positions (a test checks
/// AVX-512 and AVX2 against the portable loop). Level SSE2 runs the portable
/// loop (the byte-set test needs a byte shuffle). O(*next − start) per call.
///
/// The vector loop goes one of two ways. SKIPPING passes over a block
/// without an anchor byte or a byte >= 0x80 at once and tests the others
/// only as far as each needs: fastest where most blocks are skipped
/// (English). STRAIGHT runs every test on every
/// block without a branch on the bytes: faster where blocks of ASCII and
/// of accented or other scripts alternate (mixed text), whose branches the
/// CPU mispredicts. Neither wins on every text, and a sample of the text
/// does not tell which will, so MEASURED times both on neighbouring
/// stretches (four of 16 KiB, by the CPU's time-stamp counter) and runs
/// the faster until the next trial, 512 KiB on, or up to 4 MiB on while
/// trials keep choosing the same way ("micro adaptivity": B. Răducanu,
/// P. Boncz and M. Zukowski, "Micro Adaptivity in Vectorwise", SIGMOD
/// 2013). It keeps its choice in `anchor` from one call to the next. A
/// search without a partner (distance 0), and a CPU without the counter
/// read here (not x86-64), take the skipping way.
///
/// Caller obligations: `haystack` points to `n` readable bytes (NULL only
/// when n == 0); `anchor` points to a valid fssimd_anchor, writable (its
/// loop_ fields); 0 <= start; `out` points to `capacity` writable slots;
/// `next` is writable; `level` as for fssimd_find_short_collect.
int64_t fssimd_oneshot_collect(int32_t level, const uint8_t *haystack, int64_t n, int64_t start,
                               fssimd_anchor *anchor, int64_t *out, int64_t capacity,
                               int64_t *next);

/// The candidates of several one-shot searches in one pass: every position
/// p >= `start` that is a candidate (fssimd_oneshot_collect's conditions)
/// of one or more of anchors[0 ..< k], in increasing order, each once,
/// written to `out`, with `which[c]` bit i set exactly when out[c] is a
/// candidate of anchors[i]. The contract of progress, capacity (64 free
/// slots per block) and *next is fssimd_oneshot_collect's; every level
/// reports the same positions and bits. With k outside 1 ... 8 nothing is
/// written and *next is n. O((*next − start) · k) per call, one read of
/// the bytes.
///
/// Caller obligations: as fssimd_oneshot_collect, with `anchors` pointing
/// to k valid fssimd_anchor and `which` to `capacity` writable bytes.
int64_t fssimd_oneshot_collect_multi(int32_t level, const uint8_t *haystack, int64_t n,
                                     int64_t start, const fssimd_anchor *anchors, int32_t k,
                                     int64_t *out, uint8_t *which, int64_t capacity,
                                     int64_t *next);

/// The first position p in [start, n) where haystack[p] is b0, b1 or b2
/// (pass a byte twice to look for fewer), or n when there is none: the
/// rare-byte prefilter of the query-set searcher (AnyByte.c). Every level
/// returns the same position. O(p − start); reads only haystack[start ..< n].
///
/// Caller obligations: `haystack` points to `n` readable bytes (NULL only
/// when n == 0); `level` as for fssimd_find_short_collect.
int64_t fssimd_find_any_byte(int32_t level, const uint8_t *haystack, int64_t n, int64_t start,
                             uint8_t b0, uint8_t b1, uint8_t b2);

/// The last position p in [start, end) where haystack[p] is b, or start − 1
/// when there is none: the walk back to a line's start (libc's memrchr, a
/// GNU extension that Swift's Glibc module does not export). O(end − p).
///
/// Caller obligations: haystack[start ..< end] is readable (haystack NULL
/// only when start == end); 0 <= start <= end.
int64_t fssimd_find_last_byte(const uint8_t *haystack, int64_t start, int64_t end, uint8_t b);

#ifdef __cplusplus
}
#endif
#endif
