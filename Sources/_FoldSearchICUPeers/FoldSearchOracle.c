// FoldSearchOracle.c — ICU `usearch` as the oracle of the collation
// profiles: the matches a browser's find-in-page would report, with their
// UTF-8 ranges, for the differential tests and FoldSearchReference.
//
// It searches with the shim's cached collator (`fsicu_shared_collator`), the
// one the profiles' fold tables are built from, so both sides read the same
// tailoring.

#include "FoldSearchICUPeers.h"
#include "FoldSearchShim.h"

#include <stdlib.h>
#include <unicode/ucol.h>
#include <unicode/usearch.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

// UTF-8 → newly malloc'ed UTF-16 plus, when `offsets` is given, a newly
// malloc'ed table of UTF-8 offsets for every UTF-16 offset (0...length).
static UChar *fsicu_utf16_with_offsets(const char *text, int64_t length,
                                       int32_t *outLength, int64_t **offsets) {
  if (length < 0 || length > INT32_MAX / 4) return NULL;
  UChar *units = malloc(sizeof(UChar) * (size_t)(length + 1));
  int64_t *map = malloc(sizeof(int64_t) * (size_t)(length + 2));
  if (!units || !map) {
    free(units);
    free(map);
    return NULL;
  }
  int32_t i = 0, n = 0;
  const uint8_t *bytes = (const uint8_t *)text;
  while (i < (int32_t)length) {
    int32_t start = i;
    UChar32 c;
    U8_NEXT_OR_FFFD(bytes, i, (int32_t)length, c);
    map[n] = start;
    if (U_IS_BMP(c)) {
      units[n++] = (UChar)c;
    } else {
      units[n++] = U16_LEAD(c);
      map[n] = start;  // inside a surrogate pair: not a boundary
      units[n++] = U16_TRAIL(c);
    }
  }
  map[n] = length;
  *outLength = n;
  *offsets = map;
  return units;
}

int64_t fsicu_usearch_ranges(const char *text, int64_t textLength, const char *query,
                             int64_t queryLength, const char *locale, int64_t *ranges,
                             int64_t capacity) {
  int32_t text16Length = 0, query16Length = 0;
  int64_t *textOffsets = NULL, *queryOffsets = NULL;
  UChar *text16 = fsicu_utf16_with_offsets(text, textLength, &text16Length, &textOffsets);
  UChar *query16 = fsicu_utf16_with_offsets(query, queryLength, &query16Length, &queryOffsets);
  int64_t count = -1;
  UErrorCode status = U_ZERO_ERROR;
  UStringSearch *search = NULL;
  const UCollator *collator = (const UCollator *)fsicu_shared_collator(locale);
  if (!text16 || !query16 || query16Length == 0 || !collator) goto done;
  if (text16Length == 0) {
    count = 0;
    goto done;
  }
  search = usearch_openFromCollator(query16, query16Length, text16, text16Length,
                                    collator, NULL, &status);
  if (U_FAILURE(status)) goto done;
  count = 0;
  for (int32_t at = usearch_first(search, &status);
       at != USEARCH_DONE && U_SUCCESS(status);
       at = usearch_next(search, &status)) {
    int32_t matchLength = usearch_getMatchedLength(search);
    if (2 * count + 1 < capacity) {
      ranges[2 * count] = textOffsets[at];
      ranges[2 * count + 1] = textOffsets[at + matchLength];
    }
    count++;
  }
  if (U_FAILURE(status)) count = -1;
done:
  if (search) usearch_close(search);
  free(text16);
  free(query16);
  free(textOffsets);
  free(queryOffsets);
  return count;
}
