// FoldScalar.c — the scalar part's Hangul run out of line, for the AVX2 and
// SSE2 fold loops: inlined, its registers crowd their loops (callgrind,
// AVX2: more instructions on Latin text, which has no Hangul). The AVX-512
// kernel inlines fssimd_hangul_run_inline instead: a call there would spill
// and reload its vector constants, which every call clobbers.
//
// Invariants: those of fssimd_hangul_run_inline (FoldScalar.h).
#include "FoldScalar.h"

FSSIMD_HIDDEN __attribute__((noinline)) fssimd_positions fssimd_hangul_run(
    const uint8_t *src, int64_t n, uint8_t *dst, fssimd_fold_note *notes, int64_t last_note,
    uint32_t value, int64_t i, int64_t o, int64_t k) {
  return fssimd_hangul_run_inline(src, n, dst, notes, last_note, value, i, o, k);
}
