// FingerprintVerify.h — the exact check of a fingerprint candidate, shared
// by Fingerprint.c and Teddy.c. Not a public header (outside include/).
//
// Invariant: returns whether a pattern of the tables (see
// fssimd_fingerprints) occurs entirely in the haystack at p, for p + 3 ≤ n.
#ifndef FOLDSEARCH_FINGERPRINT_VERIFY_H
#define FOLDSEARCH_FINGERPRINT_VERIFY_H
#include <stddef.h>

#include "FoldSearchFingerprint.h"

/// Whether a pattern occurs at p (a candidate, p + 3 ≤ n); adds its work.
static inline __attribute__((always_inline)) int fssimd_fingerprint_verify(
    const fssimd_fingerprints *f, const uint8_t *h, int64_t n, int64_t p, int64_t *work) {
  uint32_t x = (uint32_t)h[p] | (uint32_t)h[p + 1] << 8 | (uint32_t)h[p + 2] << 16;
  *work += 1;
  if (f->short_bits != NULL) {
    uint32_t mask = (1u << (32 - f->short_table_shift)) - 1;
    for (uint32_t s = fssimd_fingerprint_index(x, f->short_table_shift); f->short_used[s];
         s = (s + 1) & mask) {
      if (f->short_keys[s] == x) return 1;
    }
  }
  if (p + 4 > n) return 0;
  x |= (uint32_t)h[p + 3] << 24;
  uint32_t mask = (1u << (32 - f->table_shift)) - 1;
  uint32_t s = fssimd_fingerprint_index(x, f->table_shift);
  while (1) {
    uint32_t first = f->group_start[s], last = f->group_start[s + 1];
    if (first == last) return 0;
    if (f->keys[s] == x) {
      const uint8_t *rest = h + p + 4;
      int64_t room = n - p - 4;
      for (uint32_t t = first; t < last; t++) {
        uint32_t length = f->tail_length[t];
        if ((int64_t)length > room) continue;
        const uint8_t *tail = f->tails + f->tail_offset[t];
        uint32_t k = 0;
        while (k < length && rest[k] == tail[k]) k++;
        *work += k + 1;
        if (k == length) return 1;
      }
      return 0;
    }
    s = (s + 1) & mask;
  }
}

#endif
