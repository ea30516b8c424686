// FoldSearchShim.c — thin, stateless wrappers over system ICU.
//
// The only translation unit in FoldSearch that includes ICU headers. ICU's
// versioned symbol names (`u_foldCase_72`, ...) are resolved here by ICU's own
// headers, so nothing above this file depends on the ICU version.

#include "FoldSearchShim.h"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uset.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/uversion.h>

_Static_assert(FSICU_CATEGORY_UNASSIGNED == U_UNASSIGNED, "category numbering");
_Static_assert(FSICU_CATEGORY_PRIVATE_USE == U_PRIVATE_USE_CHAR, "category numbering");
_Static_assert(FSICU_CATEGORY_SURROGATE == U_SURROGATE, "category numbering");

static bool fsicu_is_scalar(uint32_t c) {
  return c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF);
}

void fsicu_unicode_version(uint8_t out[4]) {
  UVersionInfo v;
  u_getUnicodeVersion(v);
  for (int i = 0; i < 4; i++) out[i] = v[i];
}

void fsicu_icu_version(uint8_t out[4]) {
  UVersionInfo v;
  u_getVersion(v);
  for (int i = 0; i < 4; i++) out[i] = v[i];
}

// Converts UTF-16 to scalars, writing at most `capacity`; returns the count.
static int32_t fsicu_utf16_to_scalars(const UChar *s, int32_t length,
                                      uint32_t *out, int32_t capacity) {
  int32_t count = 0;
  for (int32_t i = 0; i < length;) {
    UChar32 c;
    U16_NEXT(s, i, length, c);
    if (count < capacity) out[count] = (uint32_t)c;
    count++;
  }
  return count;
}

static int32_t fsicu_encode(uint32_t scalar, UChar *buffer) {
  int32_t length = 0;
  UBool error = false;
  U16_APPEND(buffer, length, 2, (UChar32)scalar, error);
  return error ? -1 : length;
}

int32_t fsicu_case_fold(uint32_t scalar, uint32_t *out, int32_t capacity) {
  if (!fsicu_is_scalar(scalar)) return -1;
  UChar source[2];
  int32_t sourceLength = fsicu_encode(scalar, source);
  if (sourceLength < 0) return -1;
  // Full case folding of one scalar is at most 3 scalars (CaseFolding.txt).
  UChar folded[16];
  UErrorCode status = U_ZERO_ERROR;
  int32_t length = u_strFoldCase(folded, 16, source, sourceLength,
                                 U_FOLD_CASE_DEFAULT, &status);
  if (U_FAILURE(status)) return -1;
  return fsicu_utf16_to_scalars(folded, length, out, capacity);
}

int32_t fsicu_canonical_decomposition(uint32_t scalar, uint32_t *out,
                                      int32_t capacity) {
  if (!fsicu_is_scalar(scalar)) return -1;
  UErrorCode status = U_ZERO_ERROR;
  const UNormalizer2 *nfd = unorm2_getNFDInstance(&status);
  if (U_FAILURE(status)) return -1;
  UChar source[2];
  int32_t sourceLength = fsicu_encode(scalar, source);
  if (sourceLength < 0) return -1;
  // The longest canonical decomposition of one scalar is 4 scalars
  // (e.g. U+1F82); 32 UTF-16 units leaves ample room.
  UChar decomposed[32];
  int32_t length = unorm2_normalize(nfd, source, sourceLength, decomposed, 32,
                                    &status);
  if (U_FAILURE(status)) return -1;
  return fsicu_utf16_to_scalars(decomposed, length, out, capacity);
}

bool fsicu_has_canonical_decomposition(uint32_t scalar) {
  if (!fsicu_is_scalar(scalar)) return false;
  UErrorCode status = U_ZERO_ERROR;
  const UNormalizer2 *nfd = unorm2_getNFDInstance(&status);
  if (U_FAILURE(status)) return false;
  UChar buffer[8];
  int32_t length = unorm2_getDecomposition(nfd, (UChar32)scalar, buffer, 8,
                                           &status);
  return length >= 0 && U_SUCCESS(status);
}

bool fsicu_changes_when_casefolded(uint32_t scalar) {
  return u_hasBinaryProperty((UChar32)scalar, UCHAR_CHANGES_WHEN_CASEFOLDED);
}

bool fsicu_is_grapheme_extend(uint32_t scalar) {
  return u_hasBinaryProperty((UChar32)scalar, UCHAR_GRAPHEME_EXTEND);
}

bool fsicu_is_emoji_modifier(uint32_t scalar) {
  return u_hasBinaryProperty((UChar32)scalar, UCHAR_EMOJI_MODIFIER);
}

bool fsicu_is_white_space(uint32_t scalar) {
  return u_hasBinaryProperty((UChar32)scalar, UCHAR_WHITE_SPACE);
}

int32_t fsicu_general_category(uint32_t scalar) {
  return (int32_t)u_charType((UChar32)scalar);
}

int32_t fsicu_fold_candidate_ranges(uint32_t *ranges, int32_t capacity) {
  static const char pattern[] =
      "[[:Grapheme_Extend:][:Emoji_Modifier:][:Changes_When_Casefolded:]"
      "[:NFD_Quick_Check=No:]]";
  UChar upattern[sizeof pattern];
  u_charsToUChars(pattern, upattern, (int32_t)sizeof pattern);
  UErrorCode status = U_ZERO_ERROR;
  USet *set = uset_openPattern(upattern, (int32_t)(sizeof pattern - 1), &status);
  if (U_FAILURE(status)) return -1;
  int32_t count = uset_getRangeCount(set);
  for (int32_t i = 0; i < count && i < capacity; i++) {
    UChar32 start, end;
    uset_getItem(set, i, &start, &end, NULL, 0, &status);
    if (U_FAILURE(status)) {
      uset_close(set);
      return -1;
    }
    ranges[2 * i] = (uint32_t)start;
    ranges[2 * i + 1] = (uint32_t)end;
  }
  uset_close(set);
  return count;
}
