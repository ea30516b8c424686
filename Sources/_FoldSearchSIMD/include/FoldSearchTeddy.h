// FoldSearchTeddy.h — the Teddy prefilter of FoldSearch's query sets
// (PatternSetSearcher in _FoldSearchBytes). Prefix fssimd_teddy_.
//
// Thread safety: reentrant; a mask table is only read.
#ifndef FOLDSEARCH_TEDDY_H
#define FOLDSEARCH_TEDDY_H
#include <stdint.h>

#include "FoldSearchFingerprint.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The nibble masks of a Teddy set: for fingerprint byte k (0 ≤ k <
/// `length`), bit b of `low[k][x]` is set when some pattern of bucket b has
/// a byte with low nibble x at offset k, and of `high[k][x]` for the high
/// nibble. A position p is a candidate of bucket b when, for every k, bit b
/// is set in both `low[k][h[p+k] & 15]` and `high[k][h[p+k] >> 4]`.
typedef struct {
  uint8_t low[4][16];
  uint8_t high[4][16];
  /// Fingerprint bytes compared, 1 to 4 (no pattern is shorter).
  int32_t length;
} fssimd_teddy_masks;

/// The first candidate position p with `start` ≤ p ≤ n − `masks->length`
/// (see fssimd_teddy_masks), its buckets' bits written to `*buckets`; n
/// when there is none (`*buckets` then 0). `level` is an FSSIMD_LEVEL_*:
/// AVX2 runs 32 positions a step (pshufb on both 128-bit lanes), SSE2 runs
/// the SSSE3 kernel when the CPU has it, else the portable loop; every level
/// returns the same position and bits.
///
/// Caller obligations: `haystack` holds `n` readable bytes; 0 ≤ `start`;
/// `masks->length` is 1 to 4.
int64_t fssimd_teddy_find(int32_t level, const fssimd_teddy_masks *masks,
                          const uint8_t *haystack, int64_t n, int64_t start, uint8_t *buckets);

/// The first position p with `start` ≤ p where a pattern of the set occurs
/// entirely in the haystack: fssimd_teddy_find's candidates, each verified
/// by `fingerprints` (the set's exact tables, see fssimd_fingerprints; only
/// their verification tables are read) inside the kernel; n when there is
/// none. Every level returns the same position.
///
/// Caller obligations: as fssimd_teddy_find, with `masks->length` 3 or 4 and
/// `fingerprints` built from the same patterns (each of 3 bytes or more);
/// with length 4, the masks of a three-byte pattern's bucket accept every
/// byte at offset 3.
int64_t fssimd_teddy_find_verified(int32_t level, const fssimd_teddy_masks *masks,
                                   const fssimd_fingerprints *fingerprints,
                                   const uint8_t *haystack, int64_t n, int64_t start);

#ifdef __cplusplus
}
#endif
#endif
