// FoldVector.c — the fold's vector layer at 16 and 32 bytes: FoldKernels.h
// instantiated for SSE2 (fssimd_ascii_lower_sse2, fssimd_fold_run_sse2)
// and AVX2 (the same with _avx2, and fssimd_fold_run_sparse_avx2, the loop
// of the AVX-512 kernel's sparse stretches). Between vectors, the scalar
// part (FoldScalar.h) folds what the vector stopped at.
//
// Invariants: those of FoldKernels.h; every width writes the same bytes
// and notes (FoldFastPathTests).
#include "FoldScalar.h"

#if defined(FSSIMD_HAS_X86)
#define FSK_WIDTH 16
#include "KernelWidth.h"
#include "FoldKernels.h"
#undef FSK_WIDTH
#define FSK_WIDTH 32
#include "KernelWidth.h"
#include "FoldKernels.h"
#endif
