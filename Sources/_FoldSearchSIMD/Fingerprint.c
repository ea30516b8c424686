// Fingerprint.c — candidate starts of a large set of patterns: the hashed
// prefix prefilter of FoldSearch's query sets (PatternSetSearcher).
//
// Idea (the hashed super-character filter of Hyperscan's FDR, Wang et al.,
// "Hyperscan: A Fast Multi-pattern Regex Matcher for Modern CPUs", NSDI
// 2019, §4.1, reduced to one bucket; and the bitmap of q-gram prefixes of
// Wu & Manber, "A fast algorithm for multi-pattern searching", 1994): every
// pattern of four bytes or more sets one bit, the hash of its first four
// bytes, in a bitmap a few times larger than the set; three-byte patterns
// set theirs in a second bitmap. At each position the four bytes there are
// loaded as one word, hashed by a multiply and a shift, and their bit
// tested: no chain of dependent loads from one position to the next (an
// automaton's scan waits for each transition before the next), so the
// positions run in parallel in the CPU. A set bit is a candidate the
// caller verifies; a clear bit proves no pattern starts there.
//
// Invariants: positions are tested in increasing order and the first
// candidate is returned; no byte at or past n is read (four-byte windows
// only while p + 4 ≤ n, the last position's three-byte window by bytes).
#include "FingerprintVerify.h"

#include <string.h>

static inline uint32_t fssimd_fingerprint_load(const uint8_t *p) {
  uint32_t x;
  memcpy(&x, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap32(x);
#endif
  return x;
}

static inline uint32_t fssimd_fingerprint_test(const uint64_t *bits, uint32_t shift,
                                               uint32_t window) {
  uint32_t i = fssimd_fingerprint_index(window, shift);
  return (uint32_t)(bits[i >> 6] >> (i & 63)) & 1u;
}

static inline __attribute__((always_inline)) int64_t fssimd_fingerprint_next(
    const fssimd_fingerprints *f, const uint8_t *h, int64_t n, int64_t start) {
  const uint64_t *lb = f->long_bits;
  const uint64_t *sb = f->short_bits;
  const uint32_t ls = f->long_shift;
  const uint32_t ss = f->short_shift;
  int64_t p = start;
  if (sb == NULL) {
    // Four positions a step, one branch for the four.
    for (; p + 7 <= n; p += 4) {
      uint32_t t = fssimd_fingerprint_test(lb, ls, fssimd_fingerprint_load(h + p)) |
                   fssimd_fingerprint_test(lb, ls, fssimd_fingerprint_load(h + p + 1)) << 1 |
                   fssimd_fingerprint_test(lb, ls, fssimd_fingerprint_load(h + p + 2)) << 2 |
                   fssimd_fingerprint_test(lb, ls, fssimd_fingerprint_load(h + p + 3)) << 3;
      if (t) return p + __builtin_ctz(t);
    }
    for (; p + 4 <= n; p++) {
      if (fssimd_fingerprint_test(lb, ls, fssimd_fingerprint_load(h + p))) return p;
    }
    return n;
  }
  for (; p + 7 <= n; p += 4) {
    uint32_t t = 0;
    for (int k = 0; k < 4; k++) {
      uint32_t x = fssimd_fingerprint_load(h + p + k);
      t |= (fssimd_fingerprint_test(lb, ls, x) | fssimd_fingerprint_test(sb, ss, x & 0xFFFFFFu))
           << k;
    }
    if (t) return p + __builtin_ctz(t);
  }
  for (; p + 4 <= n; p++) {
    uint32_t x = fssimd_fingerprint_load(h + p);
    if (fssimd_fingerprint_test(lb, ls, x) | fssimd_fingerprint_test(sb, ss, x & 0xFFFFFFu))
      return p;
  }
  if (p + 3 == n) {
    uint32_t x = (uint32_t)h[p] | (uint32_t)h[p + 1] << 8 | (uint32_t)h[p + 2] << 16;
    if (fssimd_fingerprint_test(sb, ss, x)) return p;
  }
  return n;
}

int64_t fssimd_fingerprint_candidate(const fssimd_fingerprints *f, const uint8_t *h, int64_t n,
                                     int64_t start) {
  return fssimd_fingerprint_next(f, h, n, start);
}

int64_t fssimd_fingerprint_find(const fssimd_fingerprints *f, const uint8_t *h, int64_t n,
                                int64_t start, int64_t *work, int64_t work_limit,
                                int64_t work_per_byte) {
  // The fields and the work in locals: the stores to the work must not
  // make the compiler reload the tables.
  const fssimd_fingerprints tables = *f;
  int64_t done = *work;
  int64_t p = start;
  while (1) {
    p = fssimd_fingerprint_next(&tables, h, n, p);
    if (p >= n) {
      p = n;
      break;
    }
    if (fssimd_fingerprint_verify(&tables, h, n, p, &done)) break;
    if (done > work_limit + work_per_byte * (p + 1 - start)) {
      p = -2 - p;
      break;
    }
    p++;
  }
  *work = done;
  return p;
}
