// FoldSearchSIMD.h — vector kernels for byte search (no ICU). Prefix fssimd_.
#ifndef FOLDSEARCH_SIMD_H
#define FOLDSEARCH_SIMD_H
#include <stdint.h>
#endif
