// FoldSearchShim.h — the plain-C boundary between FoldSearch and system ICU.
//
// This header is the only interface to ICU that Swift code sees. It uses plain
// C types only: no ICU type, no ICU version suffix crosses it. Every symbol
// carries the prefix `fsicu_`.
//
// Thread safety: every function here may be called concurrently from any
// number of threads. They read ICU's immutable, process-wide property and
// normalization data (initialized by ICU itself under its own once-guards)
// and keep no state of their own, except a `fsicu_graphemes` handle (a break
// iterator), which one thread at a time may use.
//
// Scalars are Unicode scalar values (0...0x10FFFF, excluding surrogates);
// passing anything else is allowed and is treated as having no data.

#ifndef FOLDSEARCH_SHIM_H
#define FOLDSEARCH_SHIM_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Writes ICU's Unicode version (major, minor, milli, micro) to `out[0..3]`.
void fsicu_unicode_version(uint8_t out[4]);

/// Writes ICU's own version (major, minor, milli, micro) to `out[0..3]`.
void fsicu_icu_version(uint8_t out[4]);

/// Full Unicode case folding (CaseFolding.txt statuses C + F, never T) of one
/// scalar. Writes at most `capacity` scalars to `out` and returns the number of
/// scalars in the folding (which may exceed `capacity`; then `out` holds a
/// prefix). A scalar that does not change under folding yields itself.
/// Returns -1 if ICU reports an error.
int32_t fsicu_case_fold(uint32_t scalar, uint32_t *out, int32_t capacity);

/// Full canonical decomposition (NFD) of one scalar, recursively applied and
/// canonically ordered. Same buffer contract as `fsicu_case_fold`. A scalar
/// without a canonical decomposition yields itself (count 1).
int32_t fsicu_canonical_decomposition(uint32_t scalar, uint32_t *out,
                                      int32_t capacity);

/// True if the scalar has a canonical decomposition other than itself.
bool fsicu_has_canonical_decomposition(uint32_t scalar);

/// True if NFKC changes the scalar (alone): "ａ", "²", U+2F42 KANGXI
/// RADICAL TEXT, U+FE83 ARABIC LETTER ALEF WITH HAMZA ABOVE ISOLATED FORM,
/// U+2126 OHM SIGN; not "é" or "أ", whose decompositions compose back.
bool fsicu_changes_when_nfkc(uint32_t scalar);

/// True if NFD has a boundary before the scalar: its decomposition starts
/// with a scalar of canonical combining class 0 (`unorm2_hasBoundaryBefore`).
/// ICU `usearch` lets a match end inside a grapheme cluster only where NFD has
/// a boundary (before the next scalar or after the previous one).
bool fsicu_nfd_has_boundary_before(uint32_t scalar);

/// True if NFD has a boundary after the scalar (`unorm2_hasBoundaryAfter`):
/// nothing that follows can reorder or combine with its decomposition's end.
bool fsicu_nfd_has_boundary_after(uint32_t scalar);

/// The canonical combining classes of the scalar's NFD decomposition, as
/// ICU's FCD check reads them: the first scalar's class in bits 8–15
/// (`UCHAR_LEAD_CANONICAL_COMBINING_CLASS`), the last one's in bits 0–7
/// (`UCHAR_TRAIL_CANONICAL_COMBINING_CLASS`). 0 for a value that is no
/// scalar.
uint16_t fsicu_fcd16(uint32_t scalar);

/// The scalar's canonical combining class (`u_getCombiningClass`); 0 for a
/// value that is no scalar.
uint8_t fsicu_combining_class(uint32_t scalar);

/// True if the scalar changes under full case folding.
bool fsicu_changes_when_casefolded(uint32_t scalar);

/// True if the scalar has the Grapheme_Extend property.
bool fsicu_is_grapheme_extend(uint32_t scalar);

/// True if the scalar has the Emoji_Modifier property (U+1F3FB...U+1F3FF).
bool fsicu_is_emoji_modifier(uint32_t scalar);

/// True if the scalar has the White_Space property.
bool fsicu_is_white_space(uint32_t scalar);

/// ICU's general category code for the scalar (UCharCategory numbering:
/// 0 = unassigned, 17 = surrogate, 18 = private use; see uchar.h).
int32_t fsicu_general_category(uint32_t scalar);

/// The code points whose fold may differ from themselves: Grapheme_Extend,
/// Emoji_Modifier, Changes_When_Casefolded, or with a canonical decomposition
/// (NFD_Quick_Check=No). Writes up to `capacity` inclusive ranges as
/// `ranges[2*i] = first, ranges[2*i+1] = last` and returns the number of
/// ranges (which may exceed `capacity`; then call again with more room), or -1
/// on an ICU error. Every code point outside these ranges folds to itself.
int32_t fsicu_fold_candidate_ranges(uint32_t *ranges, int32_t capacity);

// MARK: Grapheme clusters (FoldSearchShim.c)

/// ICU's character break iterator over a UTF-8 text (opaque; no ICU type
/// crosses this header). One handle serves one thread at a time.
typedef struct fsicu_graphemes fsicu_graphemes;

/// Opens ICU's extended grapheme cluster break iterator (the root
/// `UBRK_CHARACTER` rules: the one `usearch` uses inside) over the UTF-8
/// bytes `text[0..<length]`, which must stay valid and unchanged until
/// `fsicu_graphemes_close`. Ill-formed sequences count as U+FFFD. Returns
/// NULL on an ICU error or a text of 2 GiB or more. Costs a few microseconds.
fsicu_graphemes *fsicu_graphemes_open(const char *text, int64_t length);

/// True if the UTF-8 offset `offset` is a grapheme-cluster boundary (0 and
/// the length are). Lookups that move forward, or stay near the previous
/// one, reuse ICU's cache of boundaries.
bool fsicu_graphemes_is_boundary(fsicu_graphemes *graphemes, int64_t offset);

/// Closes a handle from `fsicu_graphemes_open` (NULL is allowed).
void fsicu_graphemes_close(fsicu_graphemes *graphemes);

/// The general category values `fsicu_general_category` can return that the
/// engine cares about.
enum {
  FSICU_CATEGORY_UNASSIGNED = 0,
  FSICU_CATEGORY_SURROGATE = 18,
  FSICU_CATEGORY_PRIVATE_USE = 17,
};

// MARK: Collation (FoldSearchCollation.c)
//
// A `locale` is an ICU locale ID ("da", "sv", "tr"); NULL or "" is the root
// locale. Each locale's collator is opened once, at primary strength, and
// cached for the life of the process, one per locale string (a name ICU
// cannot open gets the root collator, as a locale without rules of its own
// does; these functions return -1 only when not even that opens).
// Thread-safe: the cache is guarded by a mutex and a cached collator is
// only read.

/// 1 if ICU has collation rules of its own for `locale`, 0 if it falls back to
/// root, -1 if no collator can be opened.
int32_t fsicu_collation_valid_locale(const char *locale);

/// 1 if ICU opens `locale`'s collator as the name asks ("" and NULL: root),
/// 0 if not: ICU fails on a keyword it cannot apply (en-u-ka-shiftd,
/// en-u-ks-level9) and falls back silently on a collation type it does not
/// have (de-u-co-phonebok, de@collation=phonebok), which this rejects too;
/// names of 64 bytes or more are rejected.
int32_t fsicu_collation_locale_opens(const char *locale);

/// 1 if ICU knows the language of `locale` (an ICU locale ID or a BCP 47
/// tag; root, und, "" and NULL included), 0 if not ("xx", "dk", "123"): ICU
/// opens a collator for any name, falling back to root.
int32_t fsicu_locale_language_known(const char *locale);

/// 1 if `locale`'s collator checks its input for FCD and normalizes the
/// segments that fail (`UCOL_NORMALIZATION_MODE` on: the CLDR tailorings
/// with `[normalization on]`, such as Greek, Hindi, Thai and Vietnamese), 0
/// if not (root), -1 if no collator can be opened.
int32_t fsicu_collation_normalizes(const char *locale);

/// The primary weights of every scalar in `first...last`, each on its own
/// (long primaries joined into one 32-bit weight, zero primaries skipped).
/// Writes `counts[c - first]` (the number of primaries of scalar c, -1 for a
/// surrogate) for every c, and appends the weights, in order, to `weights`
/// (at most `capacity`). Returns the total number of weights (which may
/// exceed `capacity`: then call again with more room) or -1 on error.
int64_t fsicu_collation_primaries(const char *locale, uint32_t first, uint32_t last,
                                  int32_t *counts, uint32_t *weights,
                                  int64_t capacity);

/// 1 if `locale`'s collator shifts variables (`[alternate shifted]`, as
/// Thai's tailoring does) and one of the scalar's collation elements is
/// the second half of a long primary whose 16 bits, compared on their own,
/// lie on the other side of the variable top than the whole primary:
/// `usearch` then drops that half as variable where the whole is not (the
/// regional indicators' halves 0x0200…), or keeps it where the whole is
/// variable (U+1807's 0x0512 0x1700, Adlam digits), which comparison and the
/// fold do not. 0 if not, -1 on an ICU error or a value that is no scalar.
int32_t fsicu_collation_splits_long_primary(const char *locale, uint32_t scalar);

/// The primary weights of the string `scalars[0..<count]` (so contractions
/// apply). Writes at most `capacity` to `out`; returns their number (which
/// may exceed `capacity`) or -1 on error.
int32_t fsicu_collation_string_primaries(const char *locale, const uint32_t *scalars,
                                         int32_t count, uint32_t *out,
                                         int32_t capacity);

/// The contractions of the collator (`ucol_getContractionsAndExpansions`,
/// without prefixes): each as its scalars followed by a 0, concatenated.
/// Writes at most `capacity` values; returns the total (which may exceed
/// `capacity`) or -1 on error.
int32_t fsicu_collation_contractions(const char *locale, uint32_t *out, int32_t capacity);

/// The contractions of the collator and its prefix rules, each rule as its
/// prefix's scalars and then the scalar whose weights the prefix sets (ICU's
/// `prefix|scalar`, as `ucol_getContractionsAndExpansions` lists them with
/// prefixes: Japanese "カ|ー", root's "L|·"); the same format and result as
/// ``fsicu_collation_contractions``. The prefix rules are the strings the
/// contractions lack. (Told apart in Swift: ICU's own `uset_containsString`
/// is linear in the set's strings.)
int32_t fsicu_collation_contractions_and_prefix_rules(const char *locale, uint32_t *out,
                                                      int32_t capacity);

/// The cached primary-strength collator of `locale` (NULL or "" = root)
/// that the collation profiles' tables are built with (an ICU `UCollator`,
/// never closed; shared by threads, which ICU allows for a collator used
/// read-only), for the `usearch` oracle of `_FoldSearchICUPeers`. NULL when
/// ICU cannot open even the root collator.
struct UCollator;
const struct UCollator *fsicu_shared_collator(const char *locale);

/// A decoder from a legacy or UTF-16 encoding to UTF-8 (an ICU converter,
/// `ucnv_*`): opaque; one thread at a time may use it.
typedef struct fsicu_decoder fsicu_decoder;

/// Opens a decoder for the ICU converter name `encoding` ("UTF-16LE",
/// "UTF-16BE", "ISO-8859-1", ...); NULL when ICU knows no such converter.
/// Ill-formed input decodes to U+FFFD.
fsicu_decoder *fsicu_decoder_open(const char *encoding);

/// Closes a decoder (NULL is allowed).
void fsicu_decoder_close(fsicu_decoder *decoder);

/// Decodes the next `length` bytes of the input at `source` to UTF-8 at
/// `out` (at most `capacity` bytes; at least 3 * length + 8 always
/// suffices) and returns the number of UTF-8 bytes written, or -1 on an
/// ICU error. A sequence cut at the end of `source` is kept for the next
/// call, unless `flush` (the end of the input), where it decodes to U+FFFD.
/// `offsets[i]` (capacity entries) receives, for each UTF-8 byte written,
/// the offset of its character's first byte relative to `source` (negative
/// for a character begun in an earlier call).
int64_t fsicu_decoder_decode(fsicu_decoder *decoder, const uint8_t *source, int32_t length,
                             bool flush, uint8_t *out, int32_t capacity, int32_t *offsets);

#ifdef __cplusplus
}
#endif

#endif
