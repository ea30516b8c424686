// FoldSearchShim.c — thin wrappers over system ICU, stateless but for one
// prototype break iterator, opened once and then only cloned.
//
// The only translation unit in FoldSearch that includes ICU headers. ICU's
// versioned symbol names (`u_foldCase_72`, ...) are resolved here by ICU's own
// headers, so nothing above this file depends on the ICU version.

#include "FoldSearchShim.h"

#include <pthread.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uset.h>
#include <unicode/ustring.h>
#include <unicode/utext.h>
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

bool fsicu_changes_when_nfkc(uint32_t scalar) {
  if (!fsicu_is_scalar(scalar)) return false;
  UErrorCode status = U_ZERO_ERROR;
  const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&status);
  if (U_FAILURE(status)) return false;
  UChar buffer[2];
  int32_t length = 0;
  U16_APPEND_UNSAFE(buffer, length, (UChar32)scalar);
  const UBool normalized = unorm2_isNormalized(nfkc, buffer, length, &status);
  return U_SUCCESS(status) && !normalized;
}

// ICU's NFD instance for `scalar`, or NULL when it is no scalar or ICU
// fails (both boundary questions then answer true).
static const UNormalizer2 *fsicu_nfd_for(uint32_t scalar) {
  UErrorCode status = U_ZERO_ERROR;
  const UNormalizer2 *nfd = fsicu_is_scalar(scalar) ? unorm2_getNFDInstance(&status) : NULL;
  return U_SUCCESS(status) ? nfd : NULL;
}

bool fsicu_nfd_has_boundary_before(uint32_t scalar) {
  const UNormalizer2 *nfd = fsicu_nfd_for(scalar);
  return !nfd || unorm2_hasBoundaryBefore(nfd, (UChar32)scalar);
}

bool fsicu_nfd_has_boundary_after(uint32_t scalar) {
  const UNormalizer2 *nfd = fsicu_nfd_for(scalar);
  return !nfd || unorm2_hasBoundaryAfter(nfd, (UChar32)scalar);
}

uint16_t fsicu_fcd16(uint32_t scalar) {
  if (!fsicu_is_scalar(scalar)) return 0;
  const int32_t lead = u_getIntPropertyValue((UChar32)scalar, UCHAR_LEAD_CANONICAL_COMBINING_CLASS);
  const int32_t trail =
      u_getIntPropertyValue((UChar32)scalar, UCHAR_TRAIL_CANONICAL_COMBINING_CLASS);
  return (uint16_t)((lead & 0xFF) << 8 | (trail & 0xFF));
}

uint8_t fsicu_combining_class(uint32_t scalar) {
  return fsicu_is_scalar(scalar) ? u_getCombiningClass((UChar32)scalar) : 0;
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

// A prototype iterator, opened once (ubrk_open costs about 4 us, a clone
// about 1 us) and afterwards only read, by ubrk_clone.
static pthread_once_t fsicu_graphemes_once = PTHREAD_ONCE_INIT;
static UBreakIterator *fsicu_graphemes_prototype = NULL;

static void fsicu_graphemes_open_prototype(void) {
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator *iterator = ubrk_open(UBRK_CHARACTER, "", NULL, 0, &status);
  if (U_SUCCESS(status)) {
    fsicu_graphemes_prototype = iterator;
  } else if (iterator) {
    ubrk_close(iterator);
  }
}

// The handle is the break iterator itself: ubrk_setUText keeps its own
// shallow clone of the UText, so the UText opened here can be closed at once.
fsicu_graphemes *fsicu_graphemes_open(const char *text, int64_t length) {
  if (length < 0 || length >= INT32_MAX) return NULL;
  pthread_once(&fsicu_graphemes_once, fsicu_graphemes_open_prototype);
  if (!fsicu_graphemes_prototype) return NULL;
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator *iterator = ubrk_clone(fsicu_graphemes_prototype, &status);
  if (U_FAILURE(status)) {
    if (iterator) ubrk_close(iterator);
    return NULL;
  }
  UText utext = UTEXT_INITIALIZER;
  utext_openUTF8(&utext, text, length, &status);
  if (U_SUCCESS(status)) ubrk_setUText(iterator, &utext, &status);
  utext_close(&utext);
  if (U_FAILURE(status)) {
    ubrk_close(iterator);
    return NULL;
  }
  return (fsicu_graphemes *)iterator;
}

bool fsicu_graphemes_is_boundary(fsicu_graphemes *graphemes, int64_t offset) {
  if (!graphemes || offset < 0 || offset > INT32_MAX) return true;
  return ubrk_isBoundary((UBreakIterator *)graphemes, (int32_t)offset);
}

void fsicu_graphemes_close(fsicu_graphemes *graphemes) {
  if (graphemes) ubrk_close((UBreakIterator *)graphemes);
}
