// FoldSearchCollation.c — ICU collation data for the `collation` profile and
// ICU `usearch` as its oracle.
//
// Collators are opened per (locale) at primary strength and cached for the
// life of the process in a small table guarded by a mutex; a cached collator
// is only ever read afterwards (ucol_openElements and usearch take a const
// UCollator), which ICU documents as safe from several threads. Every
// function here may therefore be called concurrently from any thread.

#include "FoldSearchShim.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unicode/ucol.h>
#include <unicode/uenum.h>
#include <unicode/uloc.h>
#include <unicode/ucoleitr.h>
#include <unicode/uset.h>
#include <unicode/usearch.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

#define FSICU_LOCALE_MAX 64

static pthread_mutex_t fsicu_collators_lock = PTHREAD_MUTEX_INITIALIZER;
// The cache: one entry per locale string asked for, grown as needed (a
// fixed 32 entries made the 33rd locale of a process trap in the caller).
static struct fsicu_cached_collator {
  char *locale;
  UCollator *collator;
} *fsicu_collators = NULL;
static int fsicu_collator_count = 0;
static int fsicu_collator_capacity = 0;

// The cached primary-strength collator of `locale` (NULL or "" = root), or
// NULL when ICU cannot open even the root collator or memory runs out. A
// name ICU cannot open (too long, malformed) gets the root collator, as a
// locale without rules of its own does. Never closed.
static const UCollator *fsicu_collator(const char *locale) {
  if (!locale) locale = "";
  const UCollator *found = NULL;
  pthread_mutex_lock(&fsicu_collators_lock);
  for (int i = 0; i < fsicu_collator_count; i++) {
    if (strcmp(fsicu_collators[i].locale, locale) == 0) {
      found = fsicu_collators[i].collator;
      break;
    }
  }
  if (!found && fsicu_collator_count == fsicu_collator_capacity) {
    const int capacity = fsicu_collator_capacity ? 2 * fsicu_collator_capacity : 16;
    struct fsicu_cached_collator *grown =
        realloc(fsicu_collators, (size_t)capacity * sizeof *grown);
    if (grown) {
      fsicu_collators = grown;
      fsicu_collator_capacity = capacity;
    }
  }
  if (!found && fsicu_collator_count < fsicu_collator_capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator =
        strlen(locale) < ULOC_FULLNAME_CAPACITY ? ucol_open(locale, &status) : NULL;
    if (!collator || U_FAILURE(status)) {
      if (collator) ucol_close(collator);
      status = U_ZERO_ERROR;
      collator = ucol_open("", &status);
    }
    char *name = strdup(locale);
    if (collator && U_SUCCESS(status) && name) {
      ucol_setStrength(collator, UCOL_PRIMARY);
      fsicu_collators[fsicu_collator_count].locale = name;
      fsicu_collators[fsicu_collator_count].collator = collator;
      fsicu_collator_count++;
      found = collator;
    } else {
      if (collator) ucol_close(collator);
      free(name);
    }
  }
  pthread_mutex_unlock(&fsicu_collators_lock);
  return found;
}

int32_t fsicu_collation_valid_locale(const char *locale) {
  if (!fsicu_collator(locale)) return -1;
  UErrorCode status = U_ZERO_ERROR;
  char actual[FSICU_LOCALE_MAX];
  // The locale whose rules are in effect (root when ICU has none for it).
  const char *valid = ucol_getLocaleByType(fsicu_collator(locale), ULOC_ACTUAL_LOCALE, &status);
  if (U_FAILURE(status) || !valid) return -1;
  strncpy(actual, valid, sizeof actual - 1);
  actual[sizeof actual - 1] = 0;
  return (actual[0] == 0 || strcmp(actual, "root") == 0) ? 0 : 1;
}

int32_t fsicu_locale_language_known(const char *locale) {
  if (!locale || !*locale || strcmp(locale, "root") == 0) return 1;
  // BCP 47's "undetermined" (und-u-ka-shifted: root collation with spaces
  // and punctuation ignored), whose ICU ID has no language.
  if (strncasecmp(locale, "und", 3) == 0 &&
      (locale[3] == 0 || locale[3] == '-' || locale[3] == '_' || locale[3] == '@'))
    return 1;
  // A BCP 47 tag ("zh-u-co-pinyin") as an ICU locale ID first.
  char id[FSICU_LOCALE_MAX];
  UErrorCode status = U_ZERO_ERROR;
  int32_t parsed = 0;
  uloc_forLanguageTag(locale, id, (int32_t)sizeof id, &parsed, &status);
  if (U_FAILURE(status) || parsed != (int32_t)strlen(locale) || id[0] == 0) {
    strncpy(id, locale, sizeof id - 1);
    id[sizeof id - 1] = 0;
  }
  char language[16];
  status = U_ZERO_ERROR;
  const int32_t length = uloc_getLanguage(id, language, (int32_t)sizeof language, &status);
  if (U_FAILURE(status) || length == 0) return 0;
  if (strcmp(language, "root") == 0) return 1;
  // ICU's ISO 639 tables: "" for a language it does not know ("xx", "dk").
  const char *iso3 = uloc_getISO3Language(id);
  return iso3 && iso3[0] ? 1 : 0;
}

int32_t fsicu_collation_locale_opens(const char *locale) {
  if (!locale || !*locale) return 1;
  if (strlen(locale) >= FSICU_LOCALE_MAX) return 0;
  // Keywords ICU cannot apply (en-u-ka-shiftd, en-u-ks-level9) fail here.
  UErrorCode status = U_ZERO_ERROR;
  UCollator *collator = ucol_open(locale, &status);
  if (collator) ucol_close(collator);
  if (U_FAILURE(status)) return 0;
  // A collation type ICU does not have (de-u-co-phonebok) opens the
  // locale's standard collation without an error: check the type against
  // the ones ICU has.
  char id[FSICU_LOCALE_MAX];
  int32_t parsed = 0;
  status = U_ZERO_ERROR;
  uloc_forLanguageTag(locale, id, (int32_t)sizeof id, &parsed, &status);
  if (U_FAILURE(status) || parsed != (int32_t)strlen(locale) || id[0] == 0) {
    strncpy(id, locale, sizeof id - 1);
    id[sizeof id - 1] = 0;
  }
  char type[FSICU_LOCALE_MAX];
  status = U_ZERO_ERROR;
  const int32_t length =
      uloc_getKeywordValue(id, "collation", type, (int32_t)sizeof type, &status);
  if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return 0;
  if (length == 0) return 1;
  status = U_ZERO_ERROR;
  UEnumeration *types = ucol_getKeywordValuesForLocale("collation", id, 0, &status);
  if (U_FAILURE(status) || !types) return 0;
  int32_t known = 0;
  const char *value;
  while (!known && (value = uenum_next(types, NULL, &status)) != NULL && U_SUCCESS(status)) {
    known = strcmp(value, type) == 0;
  }
  uenum_close(types);
  return known;
}

int32_t fsicu_collation_normalizes(const char *locale) {
  const UCollator *collator = fsicu_collator(locale);
  if (!collator) return -1;
  UErrorCode status = U_ZERO_ERROR;
  const UColAttributeValue mode = ucol_getAttribute(collator, UCOL_NORMALIZATION_MODE, &status);
  if (U_FAILURE(status)) return -1;
  return mode == UCOL_ON ? 1 : 0;
}

// The highest primary that a variable collation element (space,
// punctuation, symbols up to the collator's max variable) can have when the
// collator shifts variables (`[alternate shifted]`, as Thai's tailoring
// does): at primary strength such elements are ignorable, in `usearch` as in
// comparison. 0 when variables are not shifted (the CLDR default).
static uint32_t fsicu_shifted_variable_top(const UCollator *collator) {
  UErrorCode status = U_ZERO_ERROR;
  if (ucol_getAttribute(collator, UCOL_ALTERNATE_HANDLING, &status) != UCOL_SHIFTED) return 0;
  const uint32_t top = ucol_getVariableTop(collator, &status);
  return U_SUCCESS(status) ? top : 0;
}

// Appends the primaries of the collation elements of `units[0..<length]` to
// `out` (at most `capacity`), joining ICU's two-part long primaries and
// dropping the variable ones at or below `variable_top` (nonzero when the
// collator shifts variables); returns the number of primaries or -1 on
// error.
static int32_t fsicu_primaries_of(UCollationElements *elements, const UChar *units,
                                  int32_t length, uint32_t variable_top, uint32_t *out,
                                  int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  ucol_setText(elements, units, length, &status);
  if (U_FAILURE(status)) return -1;
  int32_t count = 0;
  uint32_t pending = 0;  // the primary of the previous element, not yet written
  int hasPending = 0;
  for (;;) {
    int32_t ce = ucol_next(elements, &status);
    if (U_FAILURE(status)) return -1;
    if (ce == UCOL_NULLORDER) break;
    uint32_t element = (uint32_t)ce;
    if ((element & 0xC0) == 0xC0 && hasPending) {
      // Continuation: the low 16 bits of the previous primary.
      pending |= element >> 16;
      continue;
    }
    if (hasPending && pending > variable_top) {
      if (count < capacity) out[count] = pending;
      count++;
    }
    pending = element & 0xFFFF0000u;
    hasPending = 1;
  }
  if (hasPending && pending > variable_top) {
    if (count < capacity) out[count] = pending;
    count++;
  }
  return count;
}

int32_t fsicu_collation_splits_long_primary(const char *locale, uint32_t scalar) {
  const UCollator *collator = fsicu_collator(locale);
  if (!collator || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar <= 0xDFFF)) return -1;
  const uint32_t top = fsicu_shifted_variable_top(collator);
  if (top == 0) return 0;
  UErrorCode status = U_ZERO_ERROR;
  UChar units[2];
  int32_t length = 0;
  U16_APPEND_UNSAFE(units, length, (UChar32)scalar);
  UCollationElements *elements = ucol_openElements(collator, units, length, &status);
  if (U_FAILURE(status)) return -1;
  int32_t found = 0;
  uint32_t previous = 0;  // the element before, 0 for none
  for (;;) {
    const int32_t ce = ucol_next(elements, &status);
    if (U_FAILURE(status) || ce == UCOL_NULLORDER) break;
    const uint32_t element = (uint32_t)ce;
    // A continuation: its half on the other side of the variable top than
    // the whole primary (the previous element's high half and its own).
    const uint32_t whole = (previous & 0xFFFF0000u) | element >> 16;
    if ((element & 0xC0) == 0xC0 && previous &&
        ((element & 0xFFFF0000u) <= top) != (whole <= top)) {
      found = 1;
    }
    previous = element;
  }
  ucol_closeElements(elements);
  return U_FAILURE(status) ? -1 : found;
}

int64_t fsicu_collation_primaries(const char *locale, uint32_t first, uint32_t last,
                                  int32_t *counts, uint32_t *weights,
                                  int64_t capacity) {
  const UCollator *collator = fsicu_collator(locale);
  if (!collator || last < first || last > 0x10FFFF) return -1;
  UErrorCode status = U_ZERO_ERROR;
  UCollationElements *elements = ucol_openElements(collator, NULL, 0, &status);
  if (U_FAILURE(status)) return -1;
  int64_t used = 0;
  uint32_t scratch[64];
  const uint32_t variable_top = fsicu_shifted_variable_top(collator);
  for (uint32_t c = first; c <= last; c++) {
    UChar units[2];
    int32_t length = 0;
    if (c >= 0xD800 && c <= 0xDFFF) {
      counts[c - first] = -1;
      continue;
    }
    U16_APPEND_UNSAFE(units, length, c);
    int32_t n = fsicu_primaries_of(elements, units, length, variable_top, scratch, 64);
    if (n < 0 || n > 64) {
      ucol_closeElements(elements);
      return -1;
    }
    counts[c - first] = n;
    for (int32_t k = 0; k < n; k++) {
      if (used < capacity) weights[used] = scratch[k];
      used++;
    }
  }
  ucol_closeElements(elements);
  return used;
}

int32_t fsicu_collation_string_primaries(const char *locale, const uint32_t *scalars,
                                         int32_t count, uint32_t *out,
                                         int32_t capacity) {
  const UCollator *collator = fsicu_collator(locale);
  if (!collator || count < 0 || count > 4096) return -1;
  UChar *units = malloc(sizeof(UChar) * (size_t)(2 * count + 1));
  if (!units) return -1;
  int32_t length = 0;
  for (int32_t i = 0; i < count; i++) {
    if (scalars[i] > 0x10FFFF || (scalars[i] >= 0xD800 && scalars[i] <= 0xDFFF)) {
      free(units);
      return -1;
    }
    U16_APPEND_UNSAFE(units, length, scalars[i]);
  }
  UErrorCode status = U_ZERO_ERROR;
  UCollationElements *elements = ucol_openElements(collator, NULL, 0, &status);
  int32_t result = -1;
  if (U_SUCCESS(status)) {
    result = fsicu_primaries_of(elements, units, length, fsicu_shifted_variable_top(collator),
                                out, capacity);
    ucol_closeElements(elements);
  }
  free(units);
  return result;
}

// Writes the strings of `set` as scalars, each followed by a 0, at most
// `capacity` values; returns the total.
static int32_t fsicu_write_strings(const USet *set, uint32_t *out, int32_t capacity) {
  int32_t used = 0;
  int32_t items = uset_getItemCount(set);
  UChar buffer[64];
  for (int32_t i = 0; i < items; i++) {
    UChar32 start, end;
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uset_getItem(set, i, &start, &end, buffer, 64, &status);
    if (U_FAILURE(status) || length == 0) continue;  // ranges: single code points
    for (int32_t k = 0; k < length;) {
      UChar32 c;
      U16_NEXT(buffer, k, length, c);
      if (used < capacity) out[used] = (uint32_t)c;
      used++;
    }
    if (used < capacity) out[used] = 0;
    used++;
  }
  return used;
}

// The contractions of `locale`'s collator, with `prefixes` its prefix rules
// too, in fsicu_write_strings's format.
static int32_t fsicu_collation_strings(const char *locale, int prefixes, uint32_t *out,
                                       int32_t capacity) {
  const UCollator *collator = fsicu_collator(locale);
  if (!collator) return -1;
  UErrorCode status = U_ZERO_ERROR;
  USet *strings = uset_openEmpty();
  ucol_getContractionsAndExpansions(collator, strings, NULL, prefixes != 0, &status);
  int32_t used = U_FAILURE(status) ? -1 : fsicu_write_strings(strings, out, capacity);
  uset_close(strings);
  return used;
}

int32_t fsicu_collation_contractions(const char *locale, uint32_t *out, int32_t capacity) {
  return fsicu_collation_strings(locale, 0, out, capacity);
}

int32_t fsicu_collation_contractions_and_prefix_rules(const char *locale, uint32_t *out,
                                                      int32_t capacity) {
  return fsicu_collation_strings(locale, 1, out, capacity);
}

const struct UCollator *fsicu_shared_collator(const char *locale) {
  return fsicu_collator(locale);
}
