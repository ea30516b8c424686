// FoldSearchPeers.c — ICU-based peers that `foldbench` measures FoldSearch
// against, and that later serve as oracles (usearch for a collation profile).
//
// Both functions take UTF-8 and do the UTF-16 conversion ICU needs
// themselves: that conversion is part of what a UTF-8 caller pays.

#define _GNU_SOURCE  // memmem
#include "FoldSearchICUPeers.h"

#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/ucol.h>
#include <unicode/unorm2.h>
#include <unicode/usearch.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

// UTF-8 → newly malloc'ed UTF-16 (ill-formed input becomes U+FFFD).
static UChar *fsicu_to_utf16(const char *text, int64_t length, int32_t *outLength) {
  if (length > INT32_MAX / 2) return NULL;
  UErrorCode status = U_ZERO_ERROR;
  int32_t needed = 0;
  u_strFromUTF8WithSub(NULL, 0, &needed, text, (int32_t)length, 0xFFFD, NULL, &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) return NULL;
  status = U_ZERO_ERROR;
  UChar *buffer = malloc(sizeof(UChar) * (size_t)(needed + 1));
  if (!buffer) return NULL;
  u_strFromUTF8WithSub(buffer, needed + 1, outLength, text, (int32_t)length, 0xFFFD, NULL, &status);
  if (U_FAILURE(status)) {
    free(buffer);
    return NULL;
  }
  return buffer;
}

int64_t fsicu_usearch_count(const char *text, int64_t textLength,
                            const char *query, int64_t queryLength,
                            const char *locale) {
  int32_t text16Length = 0, query16Length = 0;
  UChar *text16 = fsicu_to_utf16(text, textLength, &text16Length);
  UChar *query16 = fsicu_to_utf16(query, queryLength, &query16Length);
  int64_t count = -1;
  UErrorCode status = U_ZERO_ERROR;
  UCollator *collator = NULL;
  UStringSearch *search = NULL;
  if (!text16 || !query16 || query16Length == 0) goto done;
  collator = ucol_open(locale ? locale : "", &status);
  if (U_FAILURE(status)) goto done;
  ucol_setStrength(collator, UCOL_PRIMARY);
  search = usearch_openFromCollator(query16, query16Length, text16, text16Length,
                                    collator, NULL, &status);
  if (U_FAILURE(status)) goto done;
  count = 0;
  for (int32_t at = usearch_first(search, &status);
       at != USEARCH_DONE && U_SUCCESS(status);
       at = usearch_next(search, &status)) {
    count++;
  }
  if (U_FAILURE(status)) count = -1;
done:
  if (search) usearch_close(search);
  if (collator) ucol_close(collator);
  free(text16);
  free(query16);
  return count;
}

int64_t fsicu_pipeline_fold(const char *text, int64_t length, char *out,
                            int64_t capacity) {
  int32_t length16 = 0;
  UChar *text16 = fsicu_to_utf16(text, length, &length16);
  if (!text16) return -1;
  int64_t result = -1;
  UErrorCode status = U_ZERO_ERROR;
  UChar *folded = NULL, *decomposed = NULL;
  // Full case folding can triple a unit's length; NFD at most ×4 more per
  // folded unit in practice, bounded here by ICU's preflighting.
  int32_t foldedLength = u_strFoldCase(NULL, 0, text16, length16, U_FOLD_CASE_DEFAULT, &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) goto done;
  status = U_ZERO_ERROR;
  folded = malloc(sizeof(UChar) * (size_t)(foldedLength + 1));
  if (!folded) goto done;
  u_strFoldCase(folded, foldedLength + 1, text16, length16, U_FOLD_CASE_DEFAULT, &status);
  if (U_FAILURE(status)) goto done;
  const UNormalizer2 *nfd = unorm2_getNFDInstance(&status);
  if (U_FAILURE(status)) goto done;
  int32_t decomposedLength = unorm2_normalize(nfd, folded, foldedLength, NULL, 0, &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) goto done;
  status = U_ZERO_ERROR;
  decomposed = malloc(sizeof(UChar) * (size_t)(decomposedLength + 1));
  if (!decomposed) goto done;
  unorm2_normalize(nfd, folded, foldedLength, decomposed, decomposedLength + 1, &status);
  if (U_FAILURE(status)) goto done;
  // Strip nonspacing marks in place.
  int32_t kept = 0;
  for (int32_t i = 0; i < decomposedLength;) {
    int32_t start = i;
    UChar32 c;
    U16_NEXT(decomposed, i, decomposedLength, c);
    if (u_charType(c) == U_NON_SPACING_MARK) continue;
    while (start < i) decomposed[kept++] = decomposed[start++];
  }
  int32_t written = 0;
  u_strToUTF8(out, capacity > INT32_MAX ? INT32_MAX : (int32_t)capacity, &written,
              decomposed, kept, &status);
  // Too small a buffer still reports the full length, as documented.
  if (U_FAILURE(status) && status != U_BUFFER_OVERFLOW_ERROR) goto done;
  result = written;
done:
  free(text16);
  free(folded);
  free(decomposed);
  return result;
}

int64_t fsicu_memmem_count(const uint8_t *haystack, int64_t length,
                           const uint8_t *needle, int64_t needleLength) {
  if (needleLength <= 0) return 0;
  int64_t count = 0;
  const uint8_t *at = haystack;
  const uint8_t *end = haystack + length;
  while (end - at >= needleLength) {
    const uint8_t *found = memmem(at, (size_t)(end - at), needle, (size_t)needleLength);
    if (!found) break;
    count++;
    at = found + needleLength;
  }
  return count;
}
