// FoldSearchFingerprint.h — the hashed-prefix prefilter of FoldSearch's
// large query sets (PatternSetSearcher in _FoldSearchBytes). Prefix
// fssimd_fingerprint_.
//
// Thread safety: reentrant; the bitmaps are only read.
#ifndef FOLDSEARCH_FINGERPRINT_H
#define FOLDSEARCH_FINGERPRINT_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The fingerprints of a pattern set of patterns of three bytes or more,
/// and the exact tables that verify a candidate.
///
/// Filter: the hashed first four bytes of every pattern of four bytes or
/// more set a bit in `long_bits`, and the hashed three bytes of every
/// three-byte pattern one in `short_bits` (NULL when the set has none). A
/// bitmap of 2^b bits is indexed by fssimd_fingerprint_index(window, 32 − b)
/// and is stored as 2^b / 64 words.
///
/// Verification: `keys` (2^(32 − `table_shift`) slots, open addressing with
/// linear probing from fssimd_fingerprint_index(window, `table_shift`)) holds
/// each distinct four-byte prefix; slot s's patterns are the tails (the
/// bytes after the prefix) `tails[tail_offset[t] ..< tail_offset[t] +
/// tail_length[t]]` for t in `group_start[s] ..< group_start[s + 1]`; a slot
/// with an empty group is empty. `short_keys` (2^(32 − `short_table_shift`)
/// slots, `short_used[s]` nonzero when slot s is taken) holds the
/// three-byte patterns the same way.
typedef struct {
  const uint64_t *long_bits;
  const uint64_t *short_bits;
  /// 32 − log2 of each bitmap's bits (from 6 to 26).
  uint32_t long_shift;
  uint32_t short_shift;
  const uint32_t *keys;
  const uint32_t *group_start;
  const uint32_t *tail_offset;
  const uint32_t *tail_length;
  const uint8_t *tails;
  uint32_t table_shift;
  uint32_t short_table_shift;
  const uint32_t *short_keys;
  const uint8_t *short_used;
} fssimd_fingerprints;

/// The bit of `window` (the bytes at a position, little-endian: the first
/// byte lowest; a three-byte window has its top byte zero) in a bitmap of
/// 2^(32 − shift) bits: Fibonacci hashing.
static inline uint32_t fssimd_fingerprint_index(uint32_t window, uint32_t shift) {
  return (window * 0x9E3779B1u) >> shift;
}

/// The first position p with `start` ≤ p where a pattern may start: p + 4
/// ≤ n and the four bytes at p have their bit in `long_bits`, or p + 3 ≤ n
/// and `short_bits` has the bit of the three bytes at p; n when there is
/// none. Every start of an occurrence of a pattern of three bytes or more
/// is such a position (the bitmaps over-approximate, never under).
///
/// Caller obligations: `haystack` holds `n` readable bytes; 0 ≤ `start`.
int64_t fssimd_fingerprint_candidate(const fssimd_fingerprints *fingerprints,
                                     const uint8_t *haystack, int64_t n, int64_t start);

/// The first position p with `start` ≤ p where a pattern occurs entirely
/// in the haystack (each candidate of fssimd_fingerprint_candidate verified
/// by the exact tables); n when there is none. Each verification adds one,
/// plus the tail bytes it compared, to `*work`; when, after a refused
/// candidate p, `*work` exceeds `work_limit` + `work_per_byte` · (p + 1 −
/// `start`), the search stops and returns −2 − p: no pattern starts in
/// `start` ..< p + 1, and the caller resumes from p + 1 by other means.
///
/// Caller obligations: as fssimd_fingerprint_candidate; the tables are
/// those of one set.
int64_t fssimd_fingerprint_find(const fssimd_fingerprints *fingerprints,
                                const uint8_t *haystack, int64_t n, int64_t start,
                                int64_t *work, int64_t work_limit, int64_t work_per_byte);

#ifdef __cplusplus
}
#endif
#endif
