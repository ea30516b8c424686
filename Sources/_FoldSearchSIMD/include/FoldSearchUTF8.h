// FoldSearchUTF8.h — UTF-8 well-formedness of a buffer (UTF8Validate.c).
// Prefix fssimd_. Included by FoldSearchSIMD.h.
#ifndef FOLDSEARCH_SIMD_UTF8_H
#define FOLDSEARCH_SIMD_UTF8_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when p[0 ..< n] is well-formed UTF-8 exactly as Unicode §3.9, Table
/// 3-7 defines it (no overlong form, no surrogate, nothing above U+10FFFF,
/// no stray continuation, no sequence cut short by the end), 0 otherwise;
/// 1 for n <= 0. Runs the best level of fssimd_best_level(): the lookup
/// algorithm of Keiser and Lemire at FSSIMD_LEVEL_AVX2 and above, scalar by
/// scalar (eight ASCII bytes at a time) below. O(n);
/// reads only p[0 ..< n]. Reentrant and thread-safe.
///
/// Caller obligations: `p` points to `n` readable bytes (NULL only when
/// n <= 0).
int32_t fssimd_utf8_valid(const uint8_t *p, int64_t n);

/// fssimd_utf8_valid at vector level `level` (lowered to
/// fssimd_best_level()): the same answer at every level.
int32_t fssimd_utf8_valid_at(int32_t level, const uint8_t *p, int64_t n);

#ifdef __cplusplus
}
#endif
#endif
