// FoldSearchHyperscan.h — Hyperscan as foldbench's peer for many queries
// (prefix fshs_). Only foldbench links this shim; no Hyperscan type crosses
// it: a compiled set is an opaque handle.
#ifndef FOLDSEARCH_HYPERSCAN_H
#define FOLDSEARCH_HYPERSCAN_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A compiled literal set and its scratch space.
typedef struct fshs_set fshs_set;

/// Compiles `count` literals (`literals[k]`, `lengths[k]` bytes, id k) in
/// literal block mode, caseless (HS_FLAG_CASELESS) and, when `leftmost` is
/// nonzero, with HS_FLAG_SOM_LEFTMOST (each event then carries the match's
/// start). Returns NULL and writes a message of at most `message_capacity`
/// bytes to `message` on failure.
///
/// Caller obligations: `literals` and `lengths` hold `count` entries, each
/// literal `lengths[k]` readable bytes; `message` points to
/// `message_capacity` writable bytes (or is NULL when the capacity is 0).
/// Free the result with fshs_free.
fshs_set *fshs_compile(const uint8_t *const *literals, const size_t *lengths, uint32_t count,
                       int32_t leftmost, char *message, size_t message_capacity);

/// Scans `n` bytes and returns the number of match events (every
/// occurrence of every literal, overlapping ones included); with
/// `leftmost`, `*non_overlapping` (when not NULL) receives the number of
/// events kept by taking them in report order and dropping each that
/// starts before the last kept one's end. -1 on a scan error.
///
/// Caller obligations: `set` from fshs_compile, not used by two threads
/// at once; `haystack` points to `n` readable bytes.
int64_t fshs_scan(fshs_set *set, const uint8_t *haystack, size_t n, int64_t *non_overlapping);

/// The compiled database's size in bytes.
size_t fshs_database_size(const fshs_set *set);

/// Frees a set (NULL is allowed).
void fshs_free(fshs_set *set);

#ifdef __cplusplus
}
#endif
#endif
