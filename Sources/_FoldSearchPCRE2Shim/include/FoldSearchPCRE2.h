// FoldSearchPCRE2.h — the plain-C boundary between FoldSearchPattern and
// system PCRE2 (libpcre2-8).
//
// No PCRE2 type crosses it: a compiled pattern and a matcher are opaque
// handles, offsets are plain integers. Every symbol carries the prefix
// `fspcre_`.
//
// Thread safety: a `fspcre_code` is immutable once compiled (JIT included)
// and may be used by any number of threads at once; a `fspcre_matcher` (its
// match data, match context and JIT stack) belongs to one thread at a time.

#ifndef FOLDSEARCH_PCRE2_H
#define FOLDSEARCH_PCRE2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A compiled pattern (PCRE2 code, JIT-compiled when the JIT is available).
typedef struct fspcre_code fspcre_code;
/// The per-thread state of matches: match data sized for the pattern's
/// groups, a match context with the limits, a JIT stack.
typedef struct fspcre_matcher fspcre_matcher;

/// Compiles `pattern` (`length` bytes of UTF-8) with PCRE2_UTF | PCRE2_UCP,
/// plus PCRE2_MULTILINE when `multiline`, then JIT-compiles it for complete
/// matches (a JIT failure, such as no JIT on this CPU, leaves the
/// interpreter). On failure returns NULL and sets `*error_code` (PCRE2's
/// code) and `*error_offset` (a byte offset in `pattern`).
fspcre_code *fspcre_compile(const uint8_t *pattern, size_t length, bool multiline,
                            int32_t *error_code, size_t *error_offset);

/// Frees a compiled pattern (NULL is ignored). No matcher of it may remain.
void fspcre_code_free(fspcre_code *code);

/// The number of capture groups of the pattern (group 0 not counted).
uint32_t fspcre_capture_count(const fspcre_code *code);

/// The number of the capture group named `name` (`length` bytes of UTF-8),
/// or a negative value when there is none (for several groups of one name,
/// the first).
int32_t fspcre_group_number(const fspcre_code *code, const uint8_t *name, size_t length);

/// Whether the pattern was JIT-compiled.
bool fspcre_is_jit(const fspcre_code *code);

/// Writes PCRE2's message for `error_code` (NUL-terminated, truncated to
/// `capacity`) and returns its length, or a negative PCRE2 error.
int32_t fspcre_error_message(int32_t error_code, uint8_t *buffer, size_t capacity);

/// A matcher for `code` with PCRE2's match limit `match_limit` and depth
/// limit `depth_limit` (0 keeps PCRE2's default); NULL when out of memory.
/// `code` must outlive it.
fspcre_matcher *fspcre_matcher_new(const fspcre_code *code, uint32_t match_limit,
                                   uint32_t depth_limit);

/// Frees a matcher (NULL is ignored).
void fspcre_matcher_free(fspcre_matcher *matcher);

/// Matches from `start` in `subject` (`length` bytes, which must be valid
/// UTF-8: no check is made) with the matcher's code; `anchored` asks for a
/// match starting exactly at `start`, `not_empty_at_start` for a non-empty
/// one there (the retry after an empty match). Returns the number of pairs
/// set in the ovector (> 0) on a match, 0 when there is none, and a
/// negative PCRE2 error code otherwise (PCRE2_ERROR_MATCHLIMIT,
/// PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_NOMEMORY, ...).
///
/// Caller obligations: `subject` points to `length` readable bytes of valid
/// UTF-8, `start <= length` lies on a scalar boundary.
int32_t fspcre_match(fspcre_matcher *matcher, const uint8_t *subject, size_t length,
                     size_t start, bool anchored, bool not_empty_at_start);

/// The ovector of the last match: pairs of byte offsets, (start, end) of
/// group 0, 1, ...; an unset group has both equal to `FSPCRE_UNSET`. Holds
/// `fspcre_capture_count + 1` pairs.
const size_t *fspcre_ovector(const fspcre_matcher *matcher);

/// The value of an unset ovector slot (PCRE2_UNSET).
extern const size_t FSPCRE_UNSET;

/// PCRE2's error codes the caller tells apart.
extern const int32_t FSPCRE_ERROR_MATCHLIMIT;
extern const int32_t FSPCRE_ERROR_DEPTHLIMIT;
extern const int32_t FSPCRE_ERROR_HEAPLIMIT;
extern const int32_t FSPCRE_ERROR_JIT_STACKLIMIT;

#ifdef __cplusplus
}
#endif

#endif
