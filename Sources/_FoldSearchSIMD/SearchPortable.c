// SearchPortable.c — the search kernels in plain C, for any CPU
// (FSSIMD_LEVEL_PORTABLE) and for the vector kernels' short inputs and
// tails: the rare-byte-pair prefilter with its verification, the exact
// 1–3 byte needle loop and the one-shot candidate test, one position at a
// time.
//
// Invariants: every function reads only haystack[0 ..< n] and reports what
// the vector kernels report for the same input (they fall back to these
// for fewer positions than a vector holds); blocks cover 64 positions, so
// the collectors write while 64 slots are free, as the vector ones do.
#include "Internal.h"

#if defined(FSSIMD_HAS_X86)
#include <x86intrin.h>  // __rdtsc
#endif


// The pair prefilter one window at a time.
FSSIMD_HIDDEN fssimd_result fssimd_pair_portable(const uint8_t *h, int64_t n, int64_t start,
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
FSSIMD_HIDDEN int64_t fssimd_short_collect_portable(const uint8_t *h, int64_t n, int64_t start,
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

// Whether an anchor at p passes the partner test of distance d (always
// when d == 0): the partner byte at q = p + d, or a byte >= 0x80 in the
// window between p and q (the header's condition (A)).
static inline int fssimd_partner_at(const uint8_t *h, int64_t n, int64_t p, int64_t d,
                                    uint8_t partner, uint8_t partner_or) {
  if (d == 0) return 1;
  const int64_t q = p + d;
  if (q >= 0 && q < n && (uint8_t)(h[q] | partner_or) == partner) return 1;
  int64_t lo = d > 0 ? p + 1 : q, hi = d > 0 ? q : p - 1;
  if (lo < 0) lo = 0;
  if (hi > n - 1) hi = n - 1;
  for (int64_t x = lo; x <= hi; x++) {
    if (h[x] >= 0x80) return 1;
  }
  return 0;
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
  return fssimd_partner_at(h, n, p, a->distance, a->partner, a->partner_or) &&
         fssimd_partner_at(h, n, p, a->distance2, a->partner2, a->partner2_or);
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
// while 64 slots are free, until a block ends at or past `stop` (<= n; n
// for the whole text).
FSSIMD_HIDDEN int64_t fssimd_oneshot_collect_portable(const uint8_t *h, int64_t n, int64_t start,
                                               int64_t stop, const fssimd_anchor *a,
                                               int64_t *out, int64_t capacity, int64_t *next) {
  int64_t count = 0;
  while (start < stop && capacity - count >= 64) {
    fssimd_block b = fssimd_oneshot_portable(h, n, start, a);
    for (uint64_t m = b.mask; m != 0; m &= m - 1) out[count++] = b.base + __builtin_ctzll(m);
    start = b.end;
  }
  *next = start;
  return count;
}

// The measured way (fssimd_oneshot_collect): a trial runs the two ways on
// four neighbouring stretches of FSSIMD_TRIAL bytes, A B B A (a change in
// the text's cost along the trial weighs on both alike), and the way with
// fewer ticks per byte runs until FSSIMD_TRIAL_EVERY bytes past the trial;
// that distance doubles with each trial in a row that chose the same way,
// up to eight times. A trial costs the slower way's extra time on 32 KiB;
// a choice made while the machine is busy may be wrong, which changes only
// the speed.
enum { FSSIMD_TRIAL = 16 << 10, FSSIMD_TRIAL_EVERY = 512 << 10, FSSIMD_TRIAL_BACKOFF = 3 };

// The vector loops from *jp to a block's reach before n, or until out of
// room, the way `a->loop` says (loops[way][two]; a loop given a smaller n,
// `stop`, ends at the block at stop − reach). Caller obligations: as the
// loops'.
static int64_t fssimd_oneshot_ways(const fssimd_oneshot_loops loops, int two, const uint8_t *h,
                                   int64_t n, int64_t *jp, int64_t reach, fssimd_anchor *a,
                                   int64_t *out, int64_t capacity, int64_t count) {
#if defined(FSSIMD_HAS_X86)
  // (Without a partner the skipping way has no test to skip: it runs.)
  const int measured = a->loop == FSSIMD_ONESHOT_MEASURED && a->distance != 0;
#else
  const int measured = 0;  // no time-stamp counter read here: the skipping way
#endif
  if (!measured) {
    const int way = a->loop == FSSIMD_ONESHOT_STRAIGHT;
    return loops[way][two](h, n, jp, reach, a, out, capacity, count);
  }
#if defined(FSSIMD_HAS_X86)
  int64_t j = *jp;
  // A call from before the last one's end (another text) starts with a
  // trial; one from further on keeps the schedule.
  if (j < a->loop_resume) a->loop_trial_at = j, a->loop_streak = 0;
  if (a->loop_chosen != 1) a->loop_chosen = 0;
  while (j + reach < n && capacity - count >= 64) {
    if (j >= a->loop_trial_at) {
      uint64_t ticks[2] = {0, 0}, bytes[2] = {0, 0};
      const int first = (int)((j / FSSIMD_TRIAL) & 1);
      for (int t = 0; t < 4; t++) {
        const int way = first ^ (t == 1 || t == 2);
        const int64_t from = j;
        const int64_t stop = n - reach > from + FSSIMD_TRIAL ? from + FSSIMD_TRIAL + reach : n;
        const uint64_t t0 = __rdtsc();
        count = loops[way][two](h, stop, &j, reach, a, out, capacity, count);
        ticks[way] += __rdtsc() - t0;
        bytes[way] += (uint64_t)(j - from);
        if (j + reach < stop || j + reach >= n) break;  // out of room, or the end
      }
      if (bytes[0] >= FSSIMD_TRIAL && bytes[1] >= FSSIMD_TRIAL) {
        // Straight when its ticks per byte are fewer (ticks < 2^40 and
        // bytes < 2^20 a stretch: no overflow).
        const int chosen = ticks[1] * bytes[0] < ticks[0] * bytes[1];
        a->loop_streak = chosen == a->loop_chosen ? a->loop_streak + 1 : 0;
        a->loop_chosen = chosen;
      }
      const int backoff =
          a->loop_streak < FSSIMD_TRIAL_BACKOFF ? a->loop_streak : FSSIMD_TRIAL_BACKOFF;
      a->loop_trial_at = j + ((int64_t)FSSIMD_TRIAL_EVERY << backoff);
      continue;
    }
    const int64_t stop = n - reach > a->loop_trial_at ? a->loop_trial_at + reach : n;
    count = loops[a->loop_chosen][two](h, stop, &j, reach, a, out, capacity, count);
    if (j + reach < stop) break;  // out of room
  }
  *jp = j;
  return count;
#endif
}

// Load bounds of a vector loop: the block at j reads bytes j + min(d, d2, 0)
// through j + max(64, d + 63, d2 + 63), d2 = a->distance2. The loop runs
// only while both lie in [0, n), where the header's clipping of windows to
// [0, n), its 0 <= q < n and its p + 1 < n hold for every position of the
// block; the portable collector takes the blocks nearer either end.
FSSIMD_HIDDEN int64_t fssimd_oneshot_drive(const uint8_t *h, int64_t n, int64_t start,
                                           fssimd_anchor *a, int64_t *out, int64_t capacity,
                                           int64_t *next, const fssimd_oneshot_loops loops) {
  const int64_t d = a->distance, d2 = a->distance2;
  const int64_t lowest = d < d2 ? d : d2, highest = d > d2 ? d : d2;
  const int64_t first = lowest < 0 ? -lowest : 0;
  const int64_t reach = highest + 63 > 64 ? highest + 63 : 64;
  if (d < -16 || d > 16 || d2 < -16 || d2 > 16 || first + reach >= n ||
      (start >= first && start + reach >= n)) {
    return fssimd_oneshot_collect_portable(h, n, start, n, a, out, capacity, next);
  }
  int64_t j = start;
  int64_t count = 0;
  if (start < first) {
    // The partner loads of the first `first` positions would begin before the
    // text: a portable block takes them, the vector loop the rest.
    count = fssimd_oneshot_collect_portable(h, n, start, first, a, out, capacity, &j);
    if (j < first || j + reach >= n) {
      return count + fssimd_oneshot_collect_portable(h, n, j, n, a, out + count, capacity - count,
                                                     next);
    }
  }
  count = fssimd_oneshot_ways(loops, d2 != 0, h, n, &j, reach, a, out, capacity, count);
  a->loop_resume = j;
  if (j + reach < n) {
    *next = j;  // out of room
    return count;
  }
  return count + fssimd_oneshot_collect_portable(h, n, j, n, a, out + count, capacity - count,
                                                 next);
}

// The portable collector of several anchors (fssimd_oneshot_collect_multi):
// the positions that are candidates of any of a[0 ..< k], bit i of which[]
// set when a[i]'s, written while 64 slots are free, until a block of 64
// ends at or past `stop` (<= n).
FSSIMD_HIDDEN int64_t fssimd_oneshot_multi_collect_portable(const uint8_t *h, int64_t n,
                                                     int64_t start, int64_t stop,
                                                     const fssimd_anchor *a, int32_t k,
                                                     int64_t *out, uint8_t *which,
                                                     int64_t capacity, int64_t *next) {
  int64_t count = 0;
  while (start < stop && capacity - count >= 64) {
    const int64_t end = n - start < 64 ? n : start + 64;
    for (int64_t p = start; p < end; p++) {
      unsigned m = 0;
      for (int32_t i = 0; i < k; i++) m |= (unsigned)fssimd_oneshot_at(h, n, p, a + i) << i;
      if (m != 0) {
        out[count] = p;
        which[count] = (uint8_t)m;
        count++;
      }
    }
    start = end;
  }
  *next = start;
  return count;
}

// fssimd_oneshot_collect_multi around a vector body: the blocks nearer
// either end than every anchor's loads reach (the widest reach, the
// earliest partner), and anchors with a partner more than 16 bytes away,
// go to the portable multi collector.
FSSIMD_HIDDEN int64_t fssimd_oneshot_multi_drive(const uint8_t *h, int64_t n, int64_t start,
                                                 const fssimd_anchor *a, int32_t k,
                                                 int64_t *out, uint8_t *which, int64_t capacity,
                                                 int64_t *next,
                                                 fssimd_oneshot_multi_blocks blocks) {
  int64_t first = 0, reach = 64;
  for (int32_t i = 0; i < k; i++) {
    const int64_t d = a[i].distance;
    if (d < -16 || d > 16) {
      return fssimd_oneshot_multi_collect_portable(h, n, start, n, a, k, out, which, capacity,
                                                   next);
    }
    if (-d > first) first = -d;
    if (d + 63 > reach) reach = d + 63;
  }
  if (first + reach >= n || (start >= first && start + reach >= n)) {
    return fssimd_oneshot_multi_collect_portable(h, n, start, n, a, k, out, which, capacity, next);
  }
  int64_t j = start;
  int64_t count = 0;
  if (start < first) {
    count = fssimd_oneshot_multi_collect_portable(h, n, start, first, a, k, out, which, capacity,
                                                  &j);
    if (j < first || j + reach >= n) {
      return count + fssimd_oneshot_multi_collect_portable(h, n, j, n, a, k, out + count,
                                                           which + count, capacity - count, next);
    }
  }
  int64_t stop = j;
  count = blocks(h, n, j, reach, a, k, out, which, count, capacity, &stop);
  if (stop + reach < n) {  // stopped for room: the caller calls again
    *next = stop;
    return count;
  }
  return count + fssimd_oneshot_multi_collect_portable(h, n, stop, n, a, k, out + count,
                                                       which + count, capacity - count, next);
}
