// FoldSearchICUPeers.h — ICU-based peers that `foldbench` measures
// FoldSearch against, and the `usearch` oracle of the collation profiles:
// linked only by foldbench, FoldSearchReference and the tests, never by the
// library's clients. Plain C over UTF-8; the ICU headers stay in the .c
// files.
#ifndef FOLDSEARCH_ICU_PEERS_H
#define FOLDSEARCH_ICU_PEERS_H

#include <stdint.h>

// MARK: Peers (FoldSearchPeers.c)

/// Counts the non-overlapping matches of `query` in `text` (both UTF-8,
/// lengths in bytes) found by ICU `usearch` with a collator for `locale`
/// (NULL or "" for the root locale) at primary strength — the equivalence
/// Chromium's find-in-page uses. Includes the UTF-8 → UTF-16 conversion.
/// Returns -1 on an ICU error, an empty query, or a text over 1 GiB.
/// Thread-safe: opens and closes its own collator and searcher.
int64_t fsicu_usearch_count(const char *text, int64_t textLength,
                            const char *query, int64_t queryLength,
                            const char *locale);

/// The classic ICU fold pipeline: UTF-8 → UTF-16, full case folding, NFD,
/// nonspacing marks (Mn) removed, back to UTF-8 into `out`. Returns the
/// folded length (which may exceed `capacity`: then `out` is truncated and
/// the call should be repeated with room for the returned length) or -1 on
/// error. No offset map: this is the baseline FoldSearch must beat.
/// Thread-safe.
int64_t fsicu_pipeline_fold(const char *text, int64_t length, char *out,
                            int64_t capacity);

/// Counts the non-overlapping occurrences of `needle` in `haystack` with
/// glibc's `memmem` (a peer for byte search; not ICU). Thread-safe.
int64_t fsicu_memmem_count(const uint8_t *haystack, int64_t length,
                           const uint8_t *needle, int64_t needleLength);

// MARK: Oracle (FoldSearchOracle.c)

/// The matches of `query` in `text` (UTF-8) found by ICU `usearch` with the
/// primary-strength collator of `locale` and default attributes, leftmost
/// first, non-overlapping (the `collation` profile's oracle). Writes match
/// i's UTF-8 byte range to `ranges[2i] ..< ranges[2i+1]` (at most `capacity`
/// values) and returns the number of matches (which may exceed capacity/2),
/// or -1 on an ICU error or an empty query. Offsets are exact for valid
/// UTF-8; ill-formed sequences are searched as U+FFFD.
int64_t fsicu_usearch_ranges(const char *text, int64_t textLength, const char *query,
                             int64_t queryLength, const char *locale, int64_t *ranges,
                             int64_t capacity);

#endif  // FOLDSEARCH_ICU_PEERS_H
