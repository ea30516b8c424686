// KernelWidth.h — the FSK_ macros that SearchKernels.h and FoldKernels.h
// are written in, for the width FSK_WIDTH (16: SSE2, part of x86-64, no
// attribute needed; 32: AVX2, compiled for AVX2 only inside the functions
// marked FSK_TARGET, which are called only when the CPU reports AVX2
// support). Included once per instantiation, after defining FSK_WIDTH; it
// first drops the previous width's macros. No include guard on purpose.
//
//   FSK_NAME(x)  the function name for kernel x at this width
//   FSK_TARGET   the function attribute enabling the instruction set
//   FSK_V        the vector width in bytes (16 or 32)
//   FSK_VEC      the vector type
//   FSK_LOADU(p) unaligned load of FSK_V bytes at p
//   FSK_SPLAT(b) a vector of FSK_V copies of byte b
//   FSK_EQ(a, b) bytewise equality (0xFF / 0x00)
//   FSK_AND(a, b)
//   FSK_MASK(v)  the top bit of every byte, as a uint32_t (bit k = byte k)
//   FSK_GT(a, b) bytewise signed greater-than (0xFF / 0x00)
//   FSK_ADD(a, b), FSK_OR(a, b)
//   FSK_STOREU(p, v) unaligned store of FSK_V bytes at p
#undef FSK_NAME
#undef FSK_TARGET
#undef FSK_V
#undef FSK_VEC
#undef FSK_LOADU
#undef FSK_SPLAT
#undef FSK_EQ
#undef FSK_AND
#undef FSK_MASK
#undef FSK_GT
#undef FSK_ADD
#undef FSK_OR
#undef FSK_STOREU

#if FSK_WIDTH == 16
#define FSK_NAME(x) fssimd_##x##_sse2
#define FSK_TARGET
#define FSK_V 16
#define FSK_VEC __m128i
#define FSK_LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define FSK_SPLAT(b) _mm_set1_epi8((char)(b))
#define FSK_EQ(a, b) _mm_cmpeq_epi8((a), (b))
#define FSK_AND(a, b) _mm_and_si128((a), (b))
#define FSK_MASK(v) _mm_movemask_epi8(v)
#define FSK_GT(a, b) _mm_cmpgt_epi8((a), (b))
#define FSK_ADD(a, b) _mm_add_epi8((a), (b))
#define FSK_OR(a, b) _mm_or_si128((a), (b))
#define FSK_STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#elif FSK_WIDTH == 32
#define FSK_NAME(x) fssimd_##x##_avx2
#define FSK_TARGET __attribute__((target("avx2")))
#define FSK_V 32
#define FSK_VEC __m256i
#define FSK_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define FSK_SPLAT(b) _mm256_set1_epi8((char)(b))
#define FSK_EQ(a, b) _mm256_cmpeq_epi8((a), (b))
#define FSK_AND(a, b) _mm256_and_si256((a), (b))
#define FSK_MASK(v) _mm256_movemask_epi8(v)
#define FSK_GT(a, b) _mm256_cmpgt_epi8((a), (b))
#define FSK_ADD(a, b) _mm256_add_epi8((a), (b))
#define FSK_OR(a, b) _mm256_or_si256((a), (b))
#define FSK_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#else
#error "FSK_WIDTH is 16 or 32"
#endif
