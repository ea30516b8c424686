// SearchVector.c — the search kernels' vector layer: SearchKernels.h
// instantiated for 16-byte SSE2 vectors (fssimd_*_sse2) and 32-byte AVX2
// vectors (fssimd_*_avx2). Dispatch.c calls a kernel only at its level.
//
// Invariants: those of SearchKernels.h (no byte outside [start, n) is read;
// positions are examined in increasing order); inputs shorter than a
// vector go to SearchPortable.c.
#include "Internal.h"

#if defined(FSSIMD_HAS_X86)
#define FSK_WIDTH 16
#include "KernelWidth.h"
#include "SearchKernels.h"
#undef FSK_WIDTH
#define FSK_WIDTH 32
#include "KernelWidth.h"
#include "SearchKernels.h"
#endif
